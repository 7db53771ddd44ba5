// Helpers for the registry tests: real folders in a temp dir, skills written the way a person would.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { MAX_SKILL_FILE_BYTES } from "../../skill/parse";
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

/**
 * The cases a walk of the layers treats with care, over 252 definitions: plain skills in groups, nested skills,
 * hidden and skipped folders, a lowercase skill.md, linked folders and linked SKILL.md files inside and outside the
 * layer, empty and oversized SKILL.md files, a layer root that is itself a skill, a plugin.
 */
export function writeWalkCases(t: TempLayers): void {
  const enterprise = path.join(t.home, "enterprise", "skills");
  const personal = path.join(t.home, "skills");
  const claude = path.join(t.project, ".claude", "skills");
  const agents = path.join(t.project, ".agents", "skills");
  // Enough plain skills in groups for the helper to take part.
  for (let i = 0; i < 240; i++) writeSkill(i % 2 ? enterprise : claude, `plain-${i}`, { rel: `group-${Math.floor(i / 2) % 12}/plain-${i}`, body: "See [guide](references/guide.md).\n" });
  const outer = writeSkill(enterprise, "outer", { body: "Uses [inner](inner/SKILL.md) and scripts/run.sh.\n", scripts: { "run.sh": "echo hi\n" } });
  writeSkill(outer, "inner");
  fs.mkdirSync(path.join(outer, "references"));
  fs.writeFileSync(path.join(outer, "references", "guide.md"), "# guide\n");
  writeSkill(personal, "broken", { raw: "---\nname: broken\ndescription: [oops\n---\n" });
  const lower = path.join(personal, "lower-case");
  fs.mkdirSync(lower);
  fs.writeFileSync(path.join(lower, "skill.md"), "---\nname: lower-case\ndescription: Written in lowercase. Use when testing.\n---\n");
  writeSkill(personal, "staged", { rel: ".staging/staged" });
  writeSkill(personal, "vendored", { rel: "tools/node_modules/vendored" });
  const outside = path.join(t.base, "elsewhere");
  writeSkill(outside, "stolen");
  fs.symlinkSync(outside, path.join(claude, "group-3", "escape"));
  fs.symlinkSync(path.join(claude, "group-0"), path.join(claude, "alias"));
  const linkedFile = path.join(claude, "group-5", "linked-out");
  fs.mkdirSync(linkedFile);
  fs.symlinkSync(path.join(outside, "stolen", "SKILL.md"), path.join(linkedFile, "SKILL.md"));
  const linkedIn = writeSkill(claude, "linked-in", { rel: "group-6/linked-in" });
  fs.renameSync(path.join(linkedIn, "SKILL.md"), path.join(linkedIn, "real.md"));
  fs.symlinkSync("real.md", path.join(linkedIn, "SKILL.md"));
  // SKILL.md files the quick read leaves to the careful one: empty, and over the size limit.
  writeSkill(claude, "empty", { rel: "group-7/empty", raw: "" });
  writeSkill(claude, "huge", { rel: "group-8/huge", body: "x".repeat(MAX_SKILL_FILE_BYTES) });
  writeSkill(t.project, "skills", { rel: path.join(".agents", "skills") }); // the layer root is itself a skill
  writeSkill(agents, "under-root");
  writeSkill(writePlugin(t.home, "acme", "2026-01-01T00:00:00.000Z"), "plugged", { rel: "kit/plugged" });
}
