// Finding skill folders below a root. Real collections nest skills inside skills (qdrant-scaling/...), so the
// walk does not stop at the first SKILL.md. Lowercase skill.md folders are found too: checkSkillDir then
// reports the file name (an error under spec, a warning under omniforge), so discovery never hides a skill.
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
}

/** Every folder at or below root holding a SKILL.md (or skill.md), sorted; symlinked folders are not followed. */
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
      const st = fs.lstatSync(childOf(d, name), { throwIfNoEntry: false });
      if (st && (st.isFile() || st.isSymbolicLink())) return true;
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
  } catch {
    return; // unreadable folder: nothing to find there
  }
  const maxDepth = opts.maxDepth ?? 12;
  let isSkill = false;
  const subdirs: string[] = [];
  let links: string[] | null = null;
  for (const entry of entries) {
    if (SKILL_FILES.has(entry.name) && (entry.isFile() || entry.isSymbolicLink())) {
      isSkill = true;
      if (entry.isSymbolicLink()) opts.onLink?.(childOf(dir, entry.name), "skill-file");
    } else if (entry.isDirectory() && depth < maxDepth && !SKIP.has(entry.name)) subdirs.push(childOf(dir, entry.name));
    else if (entry.isSymbolicLink() && !inSkill && opts.onLink) (links ??= []).push(childOf(dir, entry.name));
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
