// Reading a skill folder into memory and writing one atomically (a staging folder beside the target, then a
// rename), so a layer never shows a half-copied skill and a refused copy leaves nothing behind.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { DEFAULT_ARCHIVE_LIMITS, hasUnprintableName, type ArchiveLimits } from "./archive";
import { isInside } from "./layers";

export interface SkillFile {
  /** "/"-separated path relative to the skill folder. */
  path: string;
  data: Uint8Array;
  executable: boolean;
}

export class SkillCopyError extends Error {}

/** A refusal with a stable code for callers (install.*, deploy.*): one shape for the registry's operations. */
export class RegistryError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** Folders never copied: version-control metadata and dependency caches are not part of a skill. */
const SKIP = new Set([".git", "node_modules", ".DS_Store"]);

/** Whether readSkillFolder leaves an entry of this name out (so a folder digest does not see it either). */
export const isSkippedEntry = (name: string) => SKIP.has(name) || name.startsWith(".staging-") || name.startsWith(".trash-");

/**
 * Reads every file of a skill folder, within the archive limits. Symlinks to files inside the folder are
 * copied as files; links that leave the folder, and linked folders, are refused.
 */
export function readSkillFolder(dir: string, limits: ArchiveLimits = DEFAULT_ARCHIVE_LIMITS): SkillFile[] {
  const root = fs.realpathSync(dir);
  const out: SkillFile[] = [];
  let total = 0;
  const walk = (abs: string, rel: string) => {
    for (const d of fs.readdirSync(abs, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (isSkippedEntry(d.name)) continue;
      const childAbs = path.join(abs, d.name);
      const childRel = rel ? `${rel}/${d.name}` : d.name;
      // A copy lands in agents' folders and listings (export, the catalog, sync): refused as an import refuses it.
      if (hasUnprintableName(d.name)) throw new SkillCopyError(`${JSON.stringify(childRel)} has a control or direction character in its name; rename the file`);
      let target = childAbs;
      if (d.isSymbolicLink()) {
        let real: string;
        try {
          real = fs.realpathSync(childAbs);
        } catch {
          throw new SkillCopyError(`"${childRel}" is a broken symbolic link`);
        }
        if (!isInside(root, real)) throw new SkillCopyError(`"${childRel}" is a symbolic link that leaves the skill folder; refused`);
        if (fs.statSync(real).isDirectory()) throw new SkillCopyError(`"${childRel}" links to a folder; copy the folder instead`);
        target = real;
      } else if (d.isDirectory()) {
        walk(childAbs, childRel);
        continue;
      } else if (!d.isFile()) {
        throw new SkillCopyError(`"${childRel}" is not a regular file; refused`);
      }
      const st = fs.statSync(target);
      if (!st.isFile()) throw new SkillCopyError(`"${childRel}" is not a regular file; refused`); // FIFOs would hang a read
      if (st.size > limits.maxFileBytes) throw new SkillCopyError(`"${childRel}" is ${st.size} bytes; the limit is ${limits.maxFileBytes}`);
      total += st.size;
      if (total > limits.maxTotalBytes) throw new SkillCopyError(`the skill folder is larger than ${limits.maxTotalBytes} bytes`);
      if (out.length + 1 > limits.maxFiles) throw new SkillCopyError(`the skill folder has more than ${limits.maxFiles} files`);
      out.push({ path: childRel, data: fs.readFileSync(target), executable: (st.mode & 0o111) !== 0 });
    }
  };
  walk(root, "");
  return out;
}

const token = () => randomBytes(6).toString("hex");

/** A new hidden folder beside `target` (same file system, so the final rename is atomic). */
export function makeStaging(target: string): string {
  const parent = path.dirname(target);
  fs.mkdirSync(parent, { recursive: true });
  const staging = path.join(parent, `.staging-${path.basename(target)}-${token()}`);
  fs.mkdirSync(staging);
  return staging;
}

/** Writes files under `dir` (which exists). Every path is checked again: nothing lands outside `dir`. */
export function writeFilesInto(dir: string, files: Iterable<SkillFile>): void {
  for (const f of files) {
    const abs = path.resolve(dir, ...f.path.split("/"));
    if (!isInside(dir, abs) || abs === dir) throw new SkillCopyError(`refused to write "${f.path}" outside the target folder`);
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    fs.writeFileSync(abs, f.data, { flag: "wx", mode: f.executable ? 0o755 : 0o644 });
  }
}

/**
 * Moves a fully written staging folder to `target`. With `replace`, an existing target is moved aside first
 * and removed after the swap; without it, an existing target is an error (and staging is removed).
 */
export function commitStaging(staging: string, target: string, replace: boolean): { replaced: boolean } {
  let trash: string | null = null;
  try {
    if (fs.existsSync(target)) {
      if (!replace) throw new SkillCopyError(`${target} already exists; use force to replace it`);
      trash = path.join(path.dirname(target), `.trash-${path.basename(target)}-${token()}`);
      fs.renameSync(target, trash);
    }
    fs.renameSync(staging, target);
  } catch (e) {
    if (trash && !fs.existsSync(target)) fs.renameSync(trash, target); // put the old one back
    fs.rmSync(staging, { recursive: true, force: true });
    throw e;
  }
  if (trash) fs.rmSync(trash, { recursive: true, force: true });
  return { replaced: trash !== null };
}

/** Writes a whole skill folder atomically. */
export function writeSkillFolder(target: string, files: SkillFile[], opts: { force?: boolean } = {}): { replaced: boolean } {
  if (fs.existsSync(target) && !opts.force) throw new SkillCopyError(`${target} already exists; use force to replace it`);
  const staging = makeStaging(target);
  try {
    writeFilesInto(staging, files);
  } catch (e) {
    fs.rmSync(staging, { recursive: true, force: true });
    throw e;
  }
  return commitStaging(staging, target, opts.force === true);
}
