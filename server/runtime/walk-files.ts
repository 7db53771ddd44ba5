// Listing the files of a folder tree for callers that each decide which folders to enter and which files to
// keep (the doctor's view of a skill, the build's inputs). A folder that cannot be read is skipped: a listing
// is a best effort, and what it could not read is simply not there.
import fs from "node:fs";
import path from "node:path";

export interface WalkRules {
  /** Whether to go into a folder; rel is its "/"-separated path from the root. */
  enter: (rel: string, entry: fs.Dirent) => boolean;
  /** Whether to list a file. */
  keep: (rel: string, entry: fs.Dirent) => boolean;
  /** Stop after this many files. */
  max?: number;
}

/** The kept files under root/start, as "/"-separated paths relative to root, sorted. */
export function listFiles(root: string, rules: WalkRules, start = ""): string[] {
  const out: string[] = [];
  const max = rules.max ?? Infinity;
  const walk = (rel: string) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(path.join(root, rel), { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (out.length >= max) return;
      const child = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (rules.enter(child, e)) walk(child);
      } else if (e.isFile() && rules.keep(child, e)) out.push(child);
    }
  };
  walk(start);
  return out.sort();
}
