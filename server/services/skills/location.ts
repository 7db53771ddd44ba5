// Which folder a skill definition is, who may read or write it, and confinement of every file path inside it.
// Rights live here (not in the UI): viewers read; authors write the project layer and their own personal layer;
// admins also the enterprise and plugin layers, and read (never write) every user's personal layer, as reviewing
// them is their job. Nobody writes someone else's personal layer.
import fs from "node:fs";
import path from "node:path";
import type { Role } from "../../../db/schema";
import type { DataHome } from "../../config";
import {
  isInside,
  isSafeSegment,
  layerBoundary,
  makeLayerConfig,
  PROJECT_SKILL_DIRS,
  writableRoot,
  type LayerName,
  type SkillEntry,
} from "../../runtime/registry";
import { hasUnprintableName } from "../../runtime/registry/archive";
import { assertInsideLayer, assertLayerFolder, ConfinementError } from "../../runtime/registry/confine";
import { sourceRootDir, type SourceProvenance } from "../../runtime/sources/roots";
import { badRequest, forbidden, notFound } from "./errors";
import { LAYERS } from "../../domain/vocabulary";

export interface SkillActor {
  id: string;
  email: string;
  role: Role;
  /** An administrator whom the policy lets change other users' personal skills (adminsEditPersonal). */
  mayEditPersonal?: boolean;
  /**
   * An admin of some tenants (issue #40): the enterprise and plugin layers, whose unscoped skills reach every tenant,
   * are the global admin's to write.
   */
  tenantAdmin?: boolean;
  /** The actor's tenants when the request already read them (the session); absent, the doors read them. */
  tenants?: readonly string[];
}

/** Writes the layers that reach every tenant (enterprise, plugin): an admin, unless one of some tenants. */
const writesSharedLayers = (actor: SkillActor) => actor.role === "admin" && actor.tenantAdmin !== true;

/** Identifies one skill definition (a folder in one layer), independent of its frontmatter name. */
export interface SkillRef {
  layer: LayerName;
  /** Folder path relative to its layer root, "/"-separated ("pdf-tools", or "collection/pdf" when nested). */
  skill: string;
  /** Plugin layer: which plugin. */
  plugin?: string;
  /** Personal layer: whose (defaults to the acting user). */
  ownerId?: string;
  /** Project layer: which of PROJECT_SKILL_DIRS holds it (default ".omniforge/skills"). */
  base?: ProjectBase;
  /** The git source whose pinned checkout holds it (enterprise or plugin layer): read-only, changed in git. */
  source?: string;
}

export type ProjectBase = (typeof PROJECT_SKILL_DIRS)[number];

export const DEFAULT_PROJECT_BASE: ProjectBase = ".omniforge/skills";

/** Checks the ref's parts and fills defaults (the personal owner is the actor when absent). */
export function normaliseRef(ref: SkillRef, actor: SkillActor): Required<Pick<SkillRef, "layer" | "skill">> & SkillRef {
  const segments = ref.skill.split("/");
  if (!ref.skill || segments.some((s) => !isSafeSegment(s))) {
    throw badRequest(`"${ref.skill}" is not a valid skill folder name: use letters, digits, dot, dash or underscore.`);
  }
  const out: SkillRef = { layer: ref.layer, skill: segments.join("/") };
  if (ref.source !== undefined) {
    if (!isSafeSegment(ref.source) || (ref.layer !== "enterprise" && ref.layer !== "plugin")) throw badRequest("Invalid git source of the skill.");
    out.source = ref.source;
  }
  if (ref.layer === "plugin") {
    if (!ref.plugin || !isSafeSegment(ref.plugin)) throw badRequest("The plugin layer needs a valid plugin name.");
    out.plugin = ref.plugin;
  }
  if (ref.layer === "personal") {
    const owner = ref.ownerId ?? actor.id;
    if (!isSafeSegment(owner)) throw badRequest("Invalid owner of the personal layer.");
    out.ownerId = owner;
  }
  if (ref.layer === "project") {
    const base = ref.base ?? DEFAULT_PROJECT_BASE;
    if (!(PROJECT_SKILL_DIRS as readonly string[]).includes(base)) throw badRequest(`"${String(base)}" is not a project skill folder.`);
    out.base = base;
  }
  return out as SkillRef & { layer: LayerName; skill: string };
}

export function canRead(actor: SkillActor, ref: SkillRef): boolean {
  if (ref.layer === "personal") return ref.ownerId === actor.id || actor.role === "admin";
  return true;
}

export function canWrite(actor: SkillActor, ref: SkillRef): boolean {
  // A checkout is what the pinned commit holds: an edit here would be lost at the next update, and agents
  // elsewhere would not get it. It changes in git (or as a copy in a layer the actor writes).
  if (actor.role === "viewer" || ref.source !== undefined) return false;
  switch (ref.layer) {
    case "personal":
      return ref.ownerId === actor.id || (actor.role === "admin" && actor.mayEditPersonal === true);
    case "project":
      return true;
    case "enterprise":
    case "plugin":
      return writesSharedLayers(actor);
  }
}

/** Layers the actor may create skills in (the plugin layer needs an installed plugin, see writableTargets). */
export function writableLayers(actor: SkillActor): LayerName[] {
  if (actor.role === "viewer") return [];
  return writesSharedLayers(actor) ? [...LAYERS] : ["personal", "project"];
}

export function assertRead(actor: SkillActor, ref: SkillRef): void {
  if (!canRead(actor, ref)) throw forbidden("You may only read your own personal skills.");
}

/** Looking at another user's personal layer as a whole (the skills list): administrators only. */
export function assertMayReview(actor: SkillActor, owner: string): void {
  if (!isSafeSegment(owner)) throw badRequest("Invalid owner of the personal layer.");
  if (owner !== actor.id && actor.role !== "admin") throw forbidden("Only administrators can look at another user's personal skills.");
}

export function assertWrite(actor: SkillActor, ref: SkillRef): void {
  if (canWrite(actor, ref)) return;
  if (ref.source !== undefined) {
    throw forbidden(`"${ref.skill}" comes from the git source "${ref.source}": change it there, or copy it to a layer you write.`, { code: "skill.from-git" });
  }
  if (actor.role === "viewer") throw forbidden("Viewers can read skills but not change them; ask an administrator for the author role.");
  if (ref.layer === "personal") throw forbidden("You can only change your own personal skills.");
  if (actor.role === "admin") {
    throw forbidden(`The ${ref.layer} layer reaches every tenant, so only the global admin (an admin of no tenant) changes it; you write the project layer and your personal layer.`, { code: "tenant.global-admin-only" });
  }
  throw forbidden(`Only administrators can change skills in the ${ref.layer} layer; authors write the project layer and their personal layer.`);
}

/** The folder that holds the layer's skill folders for this ref. */
export function layerRootOf(dataHome: DataHome, ref: SkillRef): string {
  if (ref.source !== undefined) {
    const dir = sourceRootDir(dataHome.home, ref.source, ref.layer === "plugin" ? ref.plugin : undefined);
    if (!dir) throw notFound(`There is no git source "${ref.source}"${ref.plugin ? ` with the plugin "${ref.plugin}"` : ""} (any more).`);
    return dir;
  }
  if (ref.layer === "project") return path.join(dataHome.projectRoot, ...(ref.base ?? DEFAULT_PROJECT_BASE).split("/"));
  const config = makeLayerConfig({ home: dataHome.home, projectRoot: dataHome.projectRoot, userId: ref.layer === "personal" ? ref.ownerId : undefined });
  return writableRoot(config, ref.layer, ref.plugin);
}

/**
 * The skill folder (absolute; may not exist), refused when it, or a folder on the way, is a link that resolves
 * outside the layer root's real path: every file procedure starts here, so none reads or writes through such a link.
 */
export function skillDirOf(dataHome: DataHome, ref: SkillRef): string {
  const dir = skillPathOf(dataHome, ref);
  try {
    // A personal layer root is itself a folder under <home>/users: a link there must not lead out of it either.
    const config = makeLayerConfig({ home: dataHome.home, projectRoot: dataHome.projectRoot, userId: ref.layer === "personal" ? ref.ownerId : undefined });
    // The layer folder first: `.claude/skills -> /` would make every path below it "inside" its own real path.
    assertLayerFolder({ dir: layerRootOf(dataHome, ref), boundary: layerBoundary(config, ref.layer) });
    if (ref.layer === "personal") assertInsideLayer(path.join(dataHome.home, "users"), layerRootOf(dataHome, ref), "The personal skills folder");
    assertInsideLayer(layerRootOf(dataHome, ref), dir, ref.skill);
  } catch (e) {
    if (e instanceof ConfinementError) throw forbidden(e.message, { code: e.code });
    throw e;
  }
  return dir;
}

/** The skill folder's path as written, not checked against links: only for removing a link itself. */
export function skillPathOf(dataHome: DataHome, ref: SkillRef): string {
  const root = layerRootOf(dataHome, ref);
  const dir = path.resolve(root, ...ref.skill.split("/"));
  if (!isInside(root, dir) || dir === root) throw badRequest("The skill folder must be inside its layer.");
  return dir;
}

/** The columns that identify the skill in skill_versions. Non-default project folders keep their base in `skill`. */
export function historyKey(ref: SkillRef): { layer: LayerName; ownerId: string | null; plugin: string | null; skill: string } {
  // A git source's skill has no console history (it is never written here); its key must not be the history of the
  // layer folder's own skill of the same folder name. ":" is in no skill folder name.
  const skill =
    ref.source !== undefined ? `${ref.source}:${ref.skill}` : ref.layer === "project" && ref.base && ref.base !== DEFAULT_PROJECT_BASE ? `${ref.base}/${ref.skill}` : ref.skill;
  return { layer: ref.layer, ownerId: ref.layer === "personal" ? (ref.ownerId ?? null) : null, plugin: ref.plugin ?? null, skill };
}

/** The reverse of historyKey. */
export function refFromHistory(row: { layer: string; ownerId: string | null; plugin: string | null; skill: string }): SkillRef {
  const ref: SkillRef = { layer: row.layer as LayerName, skill: row.skill };
  if (row.plugin) ref.plugin = row.plugin;
  if (row.ownerId) ref.ownerId = row.ownerId;
  if (row.layer === "project") {
    const base = PROJECT_SKILL_DIRS.find((b) => b !== DEFAULT_PROJECT_BASE && row.skill.startsWith(b + "/"));
    ref.base = base ?? DEFAULT_PROJECT_BASE;
    if (base) ref.skill = row.skill.slice(base.length + 1);
  }
  return ref;
}

/**
 * The ref of an index entry, as seen by `userId` (whose personal layer the index reads); `sources` (sourceProvenance
 * of the data home) names the git source of an entry found in a source's checkout.
 */
export function refFromEntry(entry: SkillEntry, userId: string, sources?: Map<string, SourceProvenance>): SkillRef {
  const skill = path.relative(entry.root, entry.dir).split(path.sep).join("/");
  const ref: SkillRef = { layer: entry.layer, skill };
  const from = sources?.get(entry.root);
  if (from) ref.source = from.name;
  if (entry.layer === "plugin" && entry.plugin) ref.plugin = entry.plugin;
  if (entry.layer === "personal") ref.ownerId = userId;
  if (entry.layer === "project") {
    const base = PROJECT_SKILL_DIRS.find((b) => entry.root.endsWith(path.sep + path.join(...b.split("/"))));
    ref.base = base ?? DEFAULT_PROJECT_BASE;
  }
  return ref;
}

/** Folders that are version control or dependencies, never a skill's files (see registry/skill-files.ts). */
const NOT_SKILL_FILES = new Set([".git", "node_modules"]);

/**
 * Checks a path written by a client ("references/a.md") and returns it normalised. Refuses absolute paths, "..",
 * backslashes, NUL bytes and empty names: the path must name something inside the skill folder.
 */
export function safeRelPath(p: string): string {
  if (typeof p !== "string" || !p.trim()) throw badRequest("Give a file path inside the skill.");
  if (p.includes("\0")) throw badRequest("File paths cannot contain NUL bytes.");
  if (p.includes("\\")) throw badRequest(`"${p}" uses a backslash; use "/" between folders.`);
  if (p.startsWith("/") || /^[A-Za-z]:/.test(p)) throw badRequest(`"${p}" is an absolute path; give a path inside the skill.`);
  const segments = p.split("/").filter((s) => s !== "" && s !== ".");
  if (segments.some((s) => s === "..")) throw badRequest(`"${p}" leaves the skill folder ("..").`);
  if (!segments.length) throw badRequest("Give a file path inside the skill.");
  if (segments.some((s) => s.length > 255)) throw badRequest("A file or folder name is longer than 255 characters.");
  return segments.join("/");
}

/**
 * safeRelPath for a path about to be created (issue #35): what a skill can never hold is refused at write, while a
 * file that arrived on disk with such a name can still be opened, renamed and deleted.
 */
export function newRelPath(p: string): string {
  const clean = safeRelPath(p);
  // As an import refuses it: such a name drives the terminal of whoever lists the folder, or forges lines.
  if (hasUnprintableName(clean)) throw badRequest(`${JSON.stringify(clean)} has a control or direction character in its name; use another name.`);
  // Never copied by export or the catalog, and a synced copy holding one is someone's work sync will not replace.
  // Any case: on macOS and Windows, where sync writes, .GIT/ is a repository's .git/ (its config runs hooks).
  const kept = clean.split("/").find((s) => NOT_SKILL_FILES.has(s.toLowerCase()));
  if (kept) throw badRequest(`A skill cannot hold ${kept}/: it is not part of a skill (export and sync leave it out, and sync will not replace a copy holding one).`);
  return clean;
}

/**
 * Absolute path of `rel` inside `dir`, refusing any path that leaves the folder, including through a symbolic link
 * anywhere on the way (the deepest existing part must resolve inside the folder's real path).
 */
export function confine(dir: string, rel: string): string {
  const clean = safeRelPath(rel);
  const abs = path.resolve(dir, ...clean.split("/"));
  if (!isInside(dir, abs) || abs === dir) throw badRequest(`"${rel}" is not inside the skill folder.`);
  let realDir: string;
  try {
    realDir = fs.realpathSync(dir);
  } catch {
    return abs; // the skill does not exist yet: nothing to follow
  }
  let probe = abs;
  while (probe !== dir && !exists(probe)) probe = path.dirname(probe);
  let real: string;
  try {
    real = fs.realpathSync(probe);
  } catch {
    throw badRequest(`"${rel}" is a broken symbolic link; refused.`);
  }
  if (!isInside(realDir, real)) throw badRequest(`"${rel}" goes through a symbolic link that leaves the skill folder; refused.`);
  return abs;
}

function exists(p: string): boolean {
  try {
    fs.lstatSync(p);
    return true;
  } catch {
    return false;
  }
}
