// The fileExists answer for a skill folder on disk: whether a file a SKILL.md mentions is there, and when it is not
// simply missing, why (a link leaving the skill, a folder that denies access).
import fs from "node:fs";
import path from "node:path";
import type { FileLookup } from "./types";
import type { ListedEntry } from "./discover";

export const isInside = (root: string, p: string) => p === root || p.startsWith(root.endsWith(path.sep) ? root : root + path.sep);

/**
 * fileExists for a folder on disk: one lstat per reference plus one per distinct parent folder (cached), never an
 * exception on the common missing-file path. Symlinks, at any level, count only when they resolve inside (real
 * path against the skill folder's real path): one that leaves it is "outside", a folder that denies access on the
 * way "unreadable", so neither is reported as merely missing.
 */
export function folderLookup(abs: string, realDirOf: () => string, listings?: ReadonlyMap<string, readonly ListedEntry[]>): FileLookup {
  type Kind = "file" | "dir" | null | "outside" | "unreadable";
  const dirs = new Map<string, Kind>();
  // From a listing: "file"/"dir" for a plain entry, null when absent, undefined when the file system must say.
  const listed = (rel: string): "file" | "dir" | null | undefined => {
    const slash = rel.lastIndexOf("/");
    // rel is normalised (resolveInsideSkill): no empty, "." or ".." segments, so joining is concatenation.
    const list = listings!.get(slash < 0 ? abs : joinRel(abs, rel.slice(0, slash)));
    if (!list) return undefined;
    const name = rel.slice(slash + 1);
    for (const d of list) {
      if (d.name !== name) continue;
      return d.isFile() ? "file" : d.isDirectory() ? "dir" : undefined; // links resolve below
    }
    // Absent by exact name. A case-insensitive or normalising file system could still open it: let it decide.
    const folded = name.normalize("NFC").toLowerCase();
    return list.some((d) => d.name.normalize("NFC").toLowerCase() === folded) ? undefined : null;
  };
  // A link: "outside" when its real path leaves the real skill folder, null when it points nowhere.
  const linked = (rel: string): Kind => {
    let real: string;
    try {
      real = fs.realpathSync.native(path.join(abs, rel));
    } catch (e) {
      return (e as NodeJS.ErrnoException).code === "EACCES" ? "unreadable" : null;
    }
    if (!isInside(realDirOf(), real)) return "outside";
    return fs.statSync(real, { throwIfNoEntry: false })?.isDirectory() ? "dir" : "file";
  };
  const entry = (rel: string): Kind => {
    if (listings) {
      const known = listed(rel);
      if (known !== undefined) return known;
    }
    let st: fs.Stats | undefined;
    try {
      st = fs.lstatSync(path.join(abs, rel), { throwIfNoEntry: false });
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      return code === "EACCES" || code === "EPERM" ? "unreadable" : null; // ENOTDIR: a file where a folder should be
    }
    if (!st) return null;
    if (st.isSymbolicLink()) return linked(rel);
    return st.isDirectory() ? "dir" : "file";
  };
  // A folder on the way: "dir" when it can be entered, else what stops it.
  const folder = (rel: string): Kind => {
    let kind = dirs.get(rel);
    if (kind === undefined) {
      const slash = rel.lastIndexOf("/");
      const above = slash < 0 ? "dir" : folder(rel.slice(0, slash));
      kind = above === "dir" ? entry(rel) : above;
      if (kind === "file") kind = null;
      dirs.set(rel, kind);
    }
    return kind;
  };
  return (rel) => {
    try {
      const slash = rel.lastIndexOf("/");
      const above = slash < 0 ? "dir" : folder(rel.slice(0, slash));
      const kind = above === "dir" ? entry(rel) : above;
      return kind === "file" || kind === "dir" ? true : kind === null ? false : kind;
    } catch {
      return false; // anything else: not a file the skill can use
    }
  };
}

const joinRel = (abs: string, rel: string) =>
  (abs.endsWith(path.sep) ? abs : abs + path.sep) + (path.sep === "/" ? rel : rel.replaceAll("/", path.sep));
