// Helpers for the registry tests: real folders in a temp dir, skills written the way a person would.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { makeLayerConfig, type LayerConfig, type PluginManifest } from "../layers";

export interface TempLayers {
  base: string;
  home: string;
  project: string;
  config: LayerConfig;
  cleanup(): void;
}

export function tempLayers(userId?: string): TempLayers {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), "of-registry-"));
  const home = path.join(base, "home");
  const project = path.join(base, "project");
  fs.mkdirSync(home);
  fs.mkdirSync(project);
  return {
    base,
    home,
    project,
    config: makeLayerConfig({ home, projectRoot: project, userId }),
    cleanup: () => fs.rmSync(base, { recursive: true, force: true }),
  };
}

export interface SkillSpec {
  name?: string;
  description?: string;
  /** Extra frontmatter lines, verbatim. */
  extra?: string;
  body?: string;
  /** Raw SKILL.md content (overrides everything else). */
  raw?: string;
  scripts?: Record<string, string>;
}

export function frontmatter(spec: SkillSpec & { name: string }): string {
  return (
    spec.raw ??
    `---\nname: ${spec.name}\ndescription: ${spec.description ?? `Does ${spec.name} things. Use when testing the registry.`}\n${spec.extra ? spec.extra.trimEnd() + "\n" : ""}---\n${spec.body ?? `# ${spec.name}\n\nFollow these steps.\n`}`
  );
}

/** Writes <root>/<rel>/SKILL.md (rel defaults to the name) and returns the folder. */
export function writeSkill(root: string, name: string, spec: SkillSpec & { rel?: string } = {}): string {
  const dir = path.join(root, spec.rel ?? name);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "SKILL.md"), frontmatter({ ...spec, name: spec.name ?? name }));
  for (const [file, content] of Object.entries(spec.scripts ?? {})) {
    fs.mkdirSync(path.join(dir, "scripts"), { recursive: true });
    fs.writeFileSync(path.join(dir, "scripts", file), content, { mode: 0o755 });
  }
  return dir;
}

/** A plugin folder with a manifest, as `install` would leave it. Returns the plugin's skills root. */
export function writePlugin(home: string, plugin: string, installedAt: string): string {
  const dir = path.join(home, "plugins", plugin);
  fs.mkdirSync(path.join(dir, "skills"), { recursive: true });
  const manifest: PluginManifest = { name: plugin, installedAt, source: "test" };
  fs.writeFileSync(path.join(dir, "plugin.json"), JSON.stringify(manifest));
  return path.join(dir, "skills");
}

/** Polls until `check` returns true or the time runs out; returns whether it became true. */
export async function waitFor(check: () => boolean, timeoutMs = 5000, stepMs = 25): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, stepMs));
  }
  return check();
}

/** Every path under `dir`, relative, sorted (to prove nothing was left behind). */
export function listTree(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true }) as string[]).map(String).sort();
}
