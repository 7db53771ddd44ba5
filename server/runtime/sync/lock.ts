// The lock file `omniforge sync` keeps in every folder it writes to: which skills it wrote, from which console,
// with which digest. It is how sync knows what is its own: a folder it did not record is never touched.
import fs from "node:fs";
import path from "node:path";

export const LOCK_FILE = ".omniforge-sync.json";

export interface LockEntry {
  /** The console it came from (the --from URL, without a trailing slash). */
  source: string;
  /** folderDigest of what sync wrote. */
  digest: string;
  syncedAt: string;
}

export interface SyncLock {
  version: 1;
  skills: Record<string, LockEntry>;
}

export function readLock(folder: string): SyncLock {
  let raw: string;
  try {
    raw = fs.readFileSync(path.join(folder, LOCK_FILE), "utf8");
  } catch {
    return { version: 1, skills: {} };
  }
  try {
    const parsed = JSON.parse(raw) as Partial<SyncLock>;
    if (parsed.version !== 1 || typeof parsed.skills !== "object" || !parsed.skills) throw new Error("shape");
    return { version: 1, skills: parsed.skills };
  } catch {
    // A damaged lock must not make sync forget what it owns and start overwriting: stop instead.
    throw new Error(`${path.join(folder, LOCK_FILE)} is not a lock file omniforge sync can read; fix or remove it`);
  }
}

export function writeLock(folder: string, lock: SyncLock): void {
  const file = path.join(folder, LOCK_FILE);
  const tmp = `${file}.${process.pid}.tmp`;
  const sorted = Object.fromEntries(Object.entries(lock.skills).sort(([a], [b]) => (a < b ? -1 : 1)));
  fs.writeFileSync(tmp, JSON.stringify({ version: 1, skills: sorted }, null, 2) + "\n");
  fs.renameSync(tmp, file);
}
