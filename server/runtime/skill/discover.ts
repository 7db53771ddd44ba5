// Finding skill folders below a root. Real collections nest skills inside skills (qdrant-scaling/...), so the
// walk does not stop at the first SKILL.md. Lowercase skill.md folders are found too, and so is a SKILL.md that is
// no regular file (a FIFO, a device): checkSkillDir then reports the name or the kind (never reading a FIFO), so
// discovery never hides a skill. A folder the walk cannot read could hold skills: it is returned as found, and
// checkSkillDir says it cannot be read, so a walk's count never drops it silently.
// Symlinked folders are not followed: one that leaves root must not pull outside files in, and one that stays
// inside points at a folder the walk reaches anyway (following it would list the same skill twice, and
// could loop).
import fs from "node:fs";
import path from "node:path";

const SKIP = new Set(["node_modules", ".git", ".hg", ".svn", "__pycache__", ".venv"]);
const SKILL_FILES = new Set(["SKILL.md", "skill.md"]);

/** What a walk keeps of a folder entry: its name and kind (an fs.Dirent, or the same read by a helper thread). */
export type ListedEntry = Pick<fs.Dirent, "name" | "isFile" | "isDirectory" | "isSymbolicLink">;

export interface FindSkillDirsOptions {
  /** Folder levels below root to look at (root is depth 0). Default 12. */
  maxDepth?: number;
  /**
   * Filled with the entries of every folder read that is a skill folder or inside one, so checking the skills
   * right after the walk can answer file lookups without a stat each (checkSkillDir's `listings`).
   */
  listings?: Map<string, readonly ListedEntry[]>;
  /**
   * Told about every symbolic link the walk meets outside skill folders (a linked skill or collection folder), and
   * about a skill file that is itself a link (`inSkill` true: its target must stay inside its skill). None is followed.
   */
  onLink?: (link: string, kind: "folder" | "skill-file") => void;
  /** Root sits inside a skill folder (a refresh of one folder of a skill): its links are that skill's files. */
  inSkill?: boolean;
  /** Told about each folder not entered because it lies at maxDepth, so a caller can say where the walk stopped. */
  onDepthLimit?: (dir: string) => void;
}

/** Folder levels below the root a walk looks at unless told otherwise. */
export const DEFAULT_MAX_DEPTH = 12;

/**
 * Every folder at or below root holding a SKILL.md (or skill.md), plus every folder outside skill folders that
 * cannot be read (it may hold some: checkSkillDir says why it cannot be read), sorted; symlinked folders are not
 * followed.
 */
export function findSkillDirs(root: string, opts: FindSkillDirsOptions = {}): string[] {
  const abs = walkRoot(root);
  if (!abs) return [];
  const found: string[] = [];
  walkSkillTree({ dir: abs, depth: 0, inSkill: opts.inSkill ?? false }, opts, found);
  return found.sort();
}

/**
 * Whether `dir` or a folder above it, up to `root`, holds a SKILL.md (or skill.md) as the walk counts them: what
 * `inSkill` is for a folder the walk would reach. A path looked at alone (a watcher's event) is judged by it, so
 * a link met there is what a whole walk makes of it.
 */
export function insideSkillFolder(root: string, dir: string): boolean {
  const top = path.resolve(root);
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    if (d !== top && !d.startsWith(top.endsWith(path.sep) ? top : top + path.sep)) return false;
    for (const name of SKILL_FILES) {
      let st: fs.Stats | undefined;
      try {
        st = fs.lstatSync(childOf(d, name), { throwIfNoEntry: false });
      } catch {
        st = undefined; // EACCES: the walk cannot tell either
      }
      if (st && !st.isDirectory()) return true;
    }
    if (d === top) return false;
  }
}

/** A folder of a walk with where it sits: its depth below the walk's root and whether a skill folder holds it. */
export interface SkillTreeUnit {
  dir: string;
  depth: number;
  inSkill: boolean;
}

/**
 * findSkillDirs cut in pieces: the root folder is read here (a skill folder itself lands in `found`), and each
 * folder below it that the walk would enter is returned as a unit for walkSkillTree, in any order and on any
 * thread. The units' finds plus `found` are exactly findSkillDirs' (once sorted).
 */
export function skillTreeUnits(root: string, opts: FindSkillDirsOptions = {}): { found: string[]; units: SkillTreeUnit[] } {
  const found: string[] = [];
  const units: SkillTreeUnit[] = [];
  const abs = walkRoot(root);
  if (abs) walkSkillTree({ dir: abs, depth: 0, inSkill: false }, opts, found, units);
  return { found, units };
}

/** The absolute root when it is a folder, else null. */
function walkRoot(root: string): string | null {
  const abs = path.resolve(root);
  try {
    return fs.statSync(abs).isDirectory() ? abs : null;
  } catch {
    return null;
  }
}

/**
 * Walks `unit` and every folder below it (to opts.maxDepth), appending the skill folders it finds to `found`
 * (unsorted). `split`: the folders below `unit` are appended there instead of walked.
 */
export function walkSkillTree(unit: SkillTreeUnit, opts: FindSkillDirsOptions, found: string[], split?: SkillTreeUnit[]): void {
  walk(unit.dir, unit.depth, unit.inSkill, opts, found, split);
}

function walk(dir: string, depth: number, inSkill: boolean, opts: FindSkillDirsOptions, found: string[], split?: SkillTreeUnit[]): void {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch (e) {
    // Gone since its parent was listed (or not a folder after all): nothing to find. Any other failure (EACCES,
    // EIO) may hide skills, so the folder counts as found and its check says it cannot be read. Inside a skill it
    // is that skill's folder, and its reference checks say so.
    const code = (e as NodeJS.ErrnoException).code;
    if (!inSkill && code !== "ENOENT" && code !== "ENOTDIR") found.push(dir);
    return;
  }
  const maxDepth = opts.maxDepth ?? DEFAULT_MAX_DEPTH;
  let isSkill = false;
  const subdirs: string[] = [];
  let links: string[] | null = null;
  for (const entry of entries) {
    if (SKILL_FILES.has(entry.name) && !entry.isDirectory()) {
      isSkill = true;
      if (entry.isSymbolicLink()) opts.onLink?.(childOf(dir, entry.name), "skill-file");
    } else if (entry.isDirectory() && !SKIP.has(entry.name)) {
      if (depth < maxDepth) subdirs.push(childOf(dir, entry.name));
      else opts.onDepthLimit?.(childOf(dir, entry.name));
    } else if (entry.isSymbolicLink() && !inSkill && opts.onLink) (links ??= []).push(childOf(dir, entry.name));
  }
  // Links beside SKILL.md are the skill's own files (confined when read); only links between skills are reported.
  if (!isSkill && links) for (const l of links) opts.onLink!(l, "folder");
  if (isSkill) found.push(dir);
  if (opts.listings && (isSkill || inSkill)) opts.listings.set(dir, entries);
  for (const sub of subdirs) {
    if (split) split.push({ dir: sub, depth: depth + 1, inSkill: isSkill || inSkill });
    else walk(sub, depth + 1, isSkill || inSkill, opts, found);
  }
}

/** path.join for a normalised folder and a name readdir returned (never "", ".", ".." or containing a separator). */
const childOf = (dir: string, name: string) => (dir.endsWith(path.sep) ? dir + name : dir + path.sep + name);
