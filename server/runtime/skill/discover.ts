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

export interface FindSkillDirsOptions {
  /** Folder levels below root to look at (root is depth 0). Default 12. */
  maxDepth?: number;
  /**
   * Filled with the entries of every folder read that is a skill folder or inside one, so checking the skills
   * right after the walk can answer file lookups without a stat each (checkSkillDir's `listings`).
   */
  listings?: Map<string, fs.Dirent[]>;
  /**
   * Told about every symbolic link the walk meets outside skill folders (a linked skill or collection folder), and
   * about a skill file that is itself a link (`inSkill` true: its target must stay inside its skill). None is followed.
   */
  onLink?: (link: string, kind: "folder" | "skill-file") => void;
}

/** Every folder at or below root holding a SKILL.md (or skill.md), sorted; symlinked folders are not followed. */
export function findSkillDirs(root: string, opts: FindSkillDirsOptions = {}): string[] {
  const maxDepth = opts.maxDepth ?? 12;
  const abs = path.resolve(root);
  try {
    if (!fs.statSync(abs).isDirectory()) return [];
  } catch {
    return [];
  }
  const found: string[] = [];
  const listings = opts.listings;
  const links: string[] = [];
  const walk = (dir: string, depth: number, inSkill: boolean) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return; // unreadable folder: nothing to find there
    }
    let isSkill = false;
    const subdirs: string[] = [];
    for (const entry of entries) {
      if (SKILL_FILES.has(entry.name) && (entry.isFile() || entry.isSymbolicLink())) {
        isSkill = true;
        if (entry.isSymbolicLink()) opts.onLink?.(childOf(dir, entry.name), "skill-file");
      } else if (entry.isDirectory() && depth < maxDepth && !SKIP.has(entry.name)) subdirs.push(childOf(dir, entry.name));
      else if (entry.isSymbolicLink() && !inSkill && opts.onLink) links.push(childOf(dir, entry.name));
    }
    // Links beside SKILL.md are the skill's own files (confined when read); only links between skills are reported.
    if (!isSkill) for (const l of links) opts.onLink!(l, "folder");
    links.length = 0;
    if (isSkill) found.push(dir);
    if (listings && (isSkill || inSkill)) listings.set(dir, entries);
    for (const sub of subdirs) walk(sub, depth + 1, isSkill || inSkill);
  };
  walk(abs, 0, false);
  return found.sort();
}

/** path.join for a normalised folder and a name readdir returned (never "", ".", ".." or containing a separator). */
const childOf = (dir: string, name: string) => (dir.endsWith(path.sep) ? dir + name : dir + path.sep + name);
