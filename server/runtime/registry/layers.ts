// The four storage layers and where their folders are. Strict order: enterprise > personal > project > plugin
// (DESIGN.md, spec 000 "Four Storage Layers"). Everything that needs a folder of a layer asks this file.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

import { PRIVATE_DIR_MODE } from "../../domain/limits";
import { LAYERS, type LayerName } from "../../domain/vocabulary";
import { sourceRoots } from "../sources/roots";
import type { LayerBoundary, LayerRoot } from "./layer-root";

export type { LayerBoundary, LayerRoot };

export { isLayerName, type LayerName } from "../../domain/vocabulary";

/** Highest precedence first. The index of a layer in this list is its rank (0 wins). */
export const LAYER_ORDER: readonly LayerName[] = LAYERS;

export const layerRank = (layer: LayerName): number => LAYER_ORDER.indexOf(layer);

/** The project layer reads vendor folders too, so skills written for other agents work as they are. */
export const PROJECT_SKILL_DIRS = [".omniforge/skills", ".claude/skills", ".agents/skills", ".codex/skills", ".gemini/skills"] as const;

export interface LayerConfig {
  /** OMNIFORGE_HOME: holds enterprise/, users/, skills/ and plugins/. */
  home: string;
  projectRoot: string;
  /** Console user: personal skills live in <home>/users/<userId>/skills; absent for the CLI (<home>/skills). */
  userId?: string;
  /**
   * Plain folders of skill folders (a catalog checked out somewhere), read as part of the project layer after
   * the project's own skill folders. The CLI's `--skills DIR`.
   */
  catalogDirs?: string[];
  /**
   * The agents' own user-global skill folders (~/.claude/skills, ~/.agents/skills, ~/.codex/skills, ~/.gemini/skills),
   * read as part of the personal layer after <home>/skills: the CLI's user has skills there already. Read only.
   */
  agentUserDirs?: string[];
}


export interface PluginManifest {
  name: string;
  installedAt: string;
  source: string;
}

// Names that become folder names: no separators, no dot-only names, nothing a shell or a path would misread.
const SAFE_SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

export function isSafeSegment(name: string): boolean {
  return SAFE_SEGMENT.test(name) && !name.includes("..");
}

export function makeLayerConfig(opts: { home: string; projectRoot: string; userId?: string; catalogDirs?: string[]; agentUserDirs?: string[] }): LayerConfig {
  if (opts.userId !== undefined && !isSafeSegment(opts.userId)) {
    throw new Error(`invalid user id "${opts.userId}": use letters, digits, dot, dash or underscore`);
  }
  return {
    home: path.resolve(opts.home),
    projectRoot: path.resolve(opts.projectRoot),
    userId: opts.userId,
    ...(opts.catalogDirs?.length ? { catalogDirs: opts.catalogDirs.map((d) => path.resolve(d)) } : {}),
    ...(opts.agentUserDirs?.length ? { agentUserDirs: opts.agentUserDirs.map((d) => path.resolve(d)) } : {}),
  };
}

/**
 * Where the agents keep a user's own skills (Claude Code ~/.claude/skills, the shared ~/.agents/skills, Codex
 * $CODEX_HOME/skills or ~/.codex/skills, Gemini CLI ~/.gemini/skills), for the CLI's personal layer.
 */
export function agentUserSkillDirs(env: Record<string, string | undefined>): string[] {
  const home = env.HOME || os.homedir();
  const codex = env.CODEX_HOME ? path.resolve(env.CODEX_HOME) : path.join(home, ".codex");
  return [path.join(home, ".claude", "skills"), path.join(home, ".agents", "skills"), path.join(codex, "skills"), path.join(home, ".gemini", "skills")];
}

/** CLI defaults: --home, else OMNIFORGE_HOME, else ~/.omniforge; --project, else OMNIFORGE_PROJECT_ROOT, else cwd. Throws on an empty flag. */
export function layerConfigFromEnv(
  flags: { home?: string; project?: string; user?: string },
  env: Record<string, string | undefined>,
  cwd: string,
): LayerConfig {
  for (const [flag, value] of [["--home", flags.home], ["--project", flags.project]] as const) {
    if (value !== undefined && value.trim() === "") throw new Error(`${flag} needs a folder, not an empty value`);
  }
  // An empty variable counts as unset (`OMNIFORGE_HOME= omniforge ...`): resolved, "" is the current folder, and
  // the command would have written its data home into the project.
  const home = flags.home ?? (env.OMNIFORGE_HOME || path.join(os.homedir(), ".omniforge"));
  const project = flags.project ?? (env.OMNIFORGE_PROJECT_ROOT || cwd);
  // The CLI user's own agent folders join their personal layer (not when acting as a console user with --user).
  const agentUserDirs = flags.user ? [] : agentUserSkillDirs(env);
  return makeLayerConfig({ home: path.resolve(cwd, home), projectRoot: path.resolve(cwd, project), userId: flags.user, agentUserDirs });
}

export const pluginsDir = (config: LayerConfig): string => path.join(config.home, "plugins");

/**
 * Makes the data home, private (0700), before a command writes a layer folder below it: it holds every personal and
 * enterprise skill and the console's database, and a folder made by the write itself (umask, usually 0755) would let
 * every local user read them. A home that exists keeps its mode (the console tightens its own at start).
 */
export function ensurePrivateHome(config: LayerConfig, writing: string): void {
  if (isInside(config.home, writing)) fs.mkdirSync(/*turbopackIgnore: true*/ config.home, { recursive: true, mode: PRIVATE_DIR_MODE });
}

export function readPluginManifest(pluginDir: string): PluginManifest | null {
  try {
    const raw = JSON.parse(fs.readFileSync(path.join(pluginDir, "plugin.json"), "utf8")) as Partial<PluginManifest>;
    if (typeof raw.name !== "string" || typeof raw.installedAt !== "string") return null;
    return { name: raw.name, installedAt: raw.installedAt, source: typeof raw.source === "string" ? raw.source : "" };
  } catch {
    return null;
  }
}

/** Installed plugins (folders of <home>/plugins that are not staging or hidden folders). */
export function listPlugins(config: LayerConfig): { name: string; dir: string; installedAt: string }[] {
  let names: string[];
  try {
    names = fs
      .readdirSync(pluginsDir(config), { withFileTypes: true })
      .filter((d) => d.isDirectory() && !d.name.startsWith(".") && isSafeSegment(d.name))
      .map((d) => d.name)
      .sort();
  } catch {
    return [];
  }
  return names.map((name) => {
    const dir = path.join(pluginsDir(config), name);
    const manifest = readPluginManifest(dir);
    // Without a manifest the folder's mtime stands in for the install time, so ties still have an order.
    let installedAt = manifest?.installedAt;
    if (!installedAt) {
      try {
        installedAt = fs.statSync(dir).mtime.toISOString();
      } catch {
        installedAt = new Date(0).toISOString();
      }
    }
    return { name, dir, installedAt };
  });
}


/**
 * The boundary of a layer's folders. The CLI's own personal folder (<home>/skills, no console user) has none: its
 * user may keep it in a dotfiles folder, and it is theirs.
 */
export function layerBoundary(config: LayerConfig, layer: LayerName): LayerBoundary | undefined {
  if (layer === "project") return { dir: config.projectRoot, kind: "project", exclude: config.home };
  if (layer === "personal" && config.userId === undefined) return undefined;
  return { dir: config.home, kind: "data home" };
}

/** Every folder that may hold skills, in precedence order. Roots may not exist; plugin roots come from disk. */
export function layerRoots(config: LayerConfig): LayerRoot[] {
  const bounded = (layer: LayerName, dir: string): LayerRoot => {
    const boundary = layerBoundary(config, layer);
    return boundary ? { layer, dir, boundary } : { layer, dir };
  };
  const roots: LayerRoot[] = [
    bounded("enterprise", path.join(config.home, "enterprise", "skills")),
    bounded("personal", personalRoot(config)),
    ...(config.agentUserDirs ?? []).map((dir) => ({ layer: "personal" as const, dir })),
    ...PROJECT_SKILL_DIRS.map((rel) => bounded("project", path.join(/*turbopackIgnore: true*/ config.projectRoot, rel))),
    ...(config.catalogDirs ?? []).map((dir) => ({ layer: "project" as const, dir })),
  ];
  for (const p of listPlugins(config)) {
    roots.push({ ...bounded("plugin", path.join(p.dir, "skills")), plugin: p.name, installedAt: p.installedAt });
  }
  // Git sources' pinned checkouts (server/runtime/sources), each in its layer: enterprise, or a plugin by name.
  roots.push(...sourceRoots(config.home));
  return roots;
}

function personalRoot(config: LayerConfig): string {
  return config.userId ? path.join(config.home, "users", config.userId, "skills") : path.join(config.home, "skills");
}

/** Where new skills of a layer are written. The project layer writes to .omniforge/skills, never vendor folders. */
export function writableRoot(config: LayerConfig, layer: LayerName, plugin?: string): string {
  switch (layer) {
    case "enterprise":
      return path.join(config.home, "enterprise", "skills");
    case "personal":
      return personalRoot(config);
    case "project":
      return path.join(config.projectRoot, ".omniforge", "skills");
    case "plugin":
      if (!plugin || !isSafeSegment(plugin)) throw new Error(`the plugin layer needs a valid plugin name`);
      return path.join(pluginsDir(config), plugin, "skills");
  }
}

// An absolute path with no "." or ".." segment, no doubled separator and no trailing one (but the root's).
const PLAIN_SEGMENTS = /[\\/]\.{1,2}(?:[\\/]|$)|[\\/]{2}/;
const plain = (p: string) => path.isAbsolute(p) && !PLAIN_SEGMENTS.test(p) && (p.length === 1 || !p.endsWith(path.sep));

/** True when `child` is `parent` or inside it (both absolute, already resolved). */
export function isInside(parent: string, child: string): boolean {
  // Plain paths compare as strings: a refresh asks this of every known skill, and path.relative (which resolves
  // both) made it most of a save's cost over 700 skills.
  if (plain(parent) && plain(child)) return child === parent || child.startsWith(parent.endsWith(path.sep) ? parent : parent + path.sep);
  const rel = path.relative(parent, child);
  // "..x" is a name inside; only ".." itself or a path through it leaves.
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

/** `child` relative to `parent` when it is inside it ("" for `parent` itself), null when it is not. For display. */
export function relativeInside(parent: string, child: string): string | null {
  return isInside(parent, child) ? path.relative(parent, child) : null;
}
