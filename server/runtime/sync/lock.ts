// The lock file `omniforge sync` keeps in every folder it writes to: which skills it wrote, from which console,
// with which digest. It is how sync knows what is its own: a folder it did not record is never touched.
import fs from "node:fs";
import path from "node:path";
import { readRegularTextFile } from "../read-file";
import { z } from "zod";

export const LOCK_FILE = ".omniforge-sync.json";

/** A problem with a target folder that sync states in one line (its lock file unreadable, another run holding it). */
export class SyncFolderError extends Error {}

/** Where a skill of the catalog comes from when a git source feeds it (the console's provenance, #39). */
export interface LockProvenance {
  /** The source's name in the console. */
  name: string;
  /** The repository, as the console shows it (never with a password). */
  url: string;
  /** The folder of the repository the source reads skills from (its sub-path; empty for the root). */
  path: string;
  /** The pinned commit the console served it from. */
  commit: string;
}

export interface LockEntry {
  /** The console it came from (the --from URL, without a trailing slash). */
  source: string;
  /** folderDigest of what sync wrote. */
  digest: string;
  syncedAt: string;
  /** The git repository and commit behind it, when the console took it from a source: a lock that says what was installed. */
  provenance?: LockProvenance;
}

export interface SyncLock {
  version: 1;
  skills: Record<string, LockEntry>;
}

const lockSchema = z.object({
  version: z.literal(1),
  skills: z.record(
    z.string(),
    z.object({
      source: z.string(),
      digest: z.string(),
      syncedAt: z.string(),
      provenance: z.object({ name: z.string(), url: z.string(), path: z.string(), commit: z.string() }).optional(),
    }),
  ),
});

/**
 * The lock's text, or null when there is none. Anything but a regular file (a folder, a FIFO, a device, a link
 * leaving `folder`) is an error, not "no lock"; the FIFO is opened without blocking.
 */
function readLockText(folder: string, file: string): string | null {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT" || (e as NodeJS.ErrnoException).code === "ENOTDIR") return null;
    throw e;
  }
  let real = file;
  if (stat.isSymbolicLink()) {
    real = fs.realpathSync(file);
    if (!real.startsWith(fs.realpathSync(folder) + path.sep)) throw new Error("a link leaving the folder");
  }
  // The one bounded reader (read-file.ts): a folder, FIFO or device in its place is refused before a byte is read.
  return readRegularTextFile(real, MAX_LOCK_BYTES);
}

/** A lock entry is about 150 bytes: this holds a hundred thousand skills; more is not a lock this sync wrote. */
const MAX_LOCK_BYTES = 16 * 1024 * 1024;

export function readLock(folder: string): SyncLock {
  const file = path.join(folder, LOCK_FILE);
  try {
    const raw = readLockText(folder, file);
    // Entries by skill name on an object with no prototype: a catalog skill named "toString" or "constructor" must
    // find no entry, not Object.prototype's function (it read as "written by a sync from undefined").
    const skills: Record<string, LockEntry> = Object.create(null);
    if (raw === null) return { version: 1, skills };
    const parsed = lockSchema.parse(JSON.parse(raw));
    return { ...parsed, skills: Object.assign(skills, parsed.skills) };
  } catch {
    // A damaged lock must not make sync forget what it owns and start overwriting: stop instead.
    throw new SyncFolderError(`${file} is not a lock file omniforge sync can read; fix or remove it`);
  }
}

export function writeLock(folder: string, lock: SyncLock): void {
  const file = path.join(folder, LOCK_FILE);
  const tmp = `${file}.${process.pid}.tmp`; // matches LOCK_TMP
  const sorted = Object.fromEntries(Object.entries(lock.skills).sort(([a], [b]) => (a < b ? -1 : 1)));
  try {
    fs.writeFileSync(tmp, JSON.stringify({ version: 1, skills: sorted }, null, 2) + "\n");
    fs.renameSync(tmp, file);
  } catch (e) {
    // A full disk leaves a partial file: gone, so the lock beside it is the one truth. (Not recursive: a folder in
    // that place is not ours to delete.)
    try {
      fs.rmSync(tmp, { force: true });
    } catch {
      /* the write's own error says more */
    }
    throw e;
  }
}

/** The lock's temporary files' names (`.omniforge-sync.json.<pid>.tmp`), the pid in group 1: for leftovers. */
export const LOCK_TMP = /^\.omniforge-sync\.json\.(\d+)\.tmp$/;
