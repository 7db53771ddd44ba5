// One `omniforge sync` at a time per folder: two runs writing the same folder would each stage, rename and rewrite
// the lock file from what they read before the other wrote (skills written but not recorded, staging folders left).
// The run lock is a file created with O_EXCL beside the lock file, naming its process; a run that died (its pid
// is gone on this host) leaves one behind, which the next run takes over.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { SyncFolderError } from "./lock";

const RUN_LOCK_FILE = ".omniforge-sync.lock";

/** A run lock with no holder written into it yet is being created; one still empty after this was left by a crash. */
const UNWRITTEN_GRACE_MS = 10_000;

/** Whether process `pid` exists on this host (EPERM: it does, as another user). */
export function isAlive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

interface Holder {
  raw: string;
  pid?: number;
  host?: string;
  /** Nobody will come back for it: its process is gone from this host, or it was never written and is old. */
  stale: boolean;
  /** Empty and young: its run made it a moment ago and is writing its pid into it. */
  unwritten?: boolean;
}

/** Who holds the run lock, or null when it is gone (released meanwhile). Only a small regular file is read. */
function holderOf(file: string): Holder | null {
  let raw: string;
  let st: fs.Stats;
  try {
    st = fs.lstatSync(file);
    // A link, a folder, a FIFO: not a run lock sync made; it stays in the way until someone removes it.
    if (!st.isFile() || st.size > 4096) return { raw: "", stale: false };
    raw = fs.readFileSync(file, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw e;
  }
  try {
    const { pid, host } = JSON.parse(raw) as { pid?: unknown; host?: unknown };
    if (typeof pid === "number" && typeof host === "string") return { raw, pid, host, stale: host === os.hostname() && !isAlive(pid) };
  } catch {
    /* not written yet, or not ours */
  }
  if (raw !== "") return { raw, stale: false };
  const old = Date.now() - st.mtimeMs > UNWRITTEN_GRACE_MS;
  return { raw, stale: old, unwritten: !old };
}

const pause = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

function busy(folder: string, file: string, h: Holder | null): SyncFolderError {
  const who = h?.pid === undefined ? "" : ` (pid ${h.pid}${h.host === os.hostname() ? "" : ` on ${h.host}`})`;
  return new SyncFolderError(`another omniforge sync is running on ${folder}${who}; let it finish, or remove ${file} if it is not running`);
}

/**
 * Removes a stale run lock, once: two runs finding the same stale lock must not both take it (the second would
 * delete the lock the first just made). A sibling made with O_EXCL decides who does it, and the lock is removed
 * only if it is still the stale one read before.
 */
function takeOver(file: string, stale: Holder): void {
  const guard = `${file}.takeover`;
  try {
    fs.closeSync(fs.openSync(guard, "wx"));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    throw new SyncFolderError(`another omniforge sync is taking over ${file} (left by a run that ended); try again, or remove ${guard} if none is running`);
  }
  try {
    if (holderOf(file)?.raw === stale.raw) fs.unlinkSync(file);
  } finally {
    fs.rmSync(guard, { force: true });
  }
}

/** Takes `folder`'s run lock (the folder exists) or throws SyncFolderError naming who holds it; returns release. */
export function acquireRunLock(folder: string): () => void {
  const file = path.join(folder, RUN_LOCK_FILE);
  const mine = JSON.stringify({ pid: process.pid, host: os.hostname(), startedAt: new Date().toISOString() }) + "\n";
  let last: Holder | null = null;
  // Rounds: a lock released or taken over between our open and our read is tried again, and one just made is given
  // a moment to name its run (the error names the pid).
  for (let round = 0; round < 50; round++) {
    let fd: number;
    try {
      fd = fs.openSync(file, "wx", 0o644);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      last = holderOf(file);
      if (last === null) continue;
      if (last.unwritten) {
        pause(10);
        continue;
      }
      if (!last.stale) throw busy(folder, file, last);
      takeOver(file, last);
      continue;
    }
    try {
      fs.writeSync(fd, mine);
    } catch (e) {
      fs.closeSync(fd);
      fs.rmSync(file, { force: true });
      throw e;
    }
    fs.closeSync(fd);
    return () => {
      // Only our own lock: were it taken over meanwhile (it should not be), the other run's stays.
      if (holderOf(file)?.raw === mine) fs.rmSync(file, { force: true });
    };
  }
  throw busy(folder, file, last);
}
