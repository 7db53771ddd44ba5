// Each runner keeps its mount points and cgroup files in a folder of the system temp folder. The folder's
// name carries the owning process id, so a server that exits removes its own and the next start can tell a
// stale folder (owner gone, e.g. after SIGKILL or a crash) from one a live process still uses. The sandbox user
// must pass through the temp folder to reach its files: a private TMPDIR (pam_tmpdir's per-user folder, a
// mktemp -d of one's own, 0700) is passed over for /tmp.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const PREFIX = "omniforge-sandbox-";
const NAME = /^omniforge-sandbox-(\d+)-[A-Za-z0-9]+$/;

/** Whether every folder from / down to `dir` lets other users pass through (o+x), following links. */
function searchableByOthers(dir: string): boolean {
  try {
    let d = fs.realpathSync(dir);
    for (;;) {
      if ((fs.statSync(d).mode & 0o001) === 0) return false;
      const up = path.dirname(d);
      if (up === d) return true;
      d = up;
    }
  } catch {
    return false;
  }
}

/** A world-writable folder with the sticky bit, as /tmp is: nobody else can remove or rename what we make in it. */
function sharedTemp(dir: string): boolean {
  try {
    const st = fs.statSync(dir);
    return st.isDirectory() && (st.mode & 0o1003) === 0o1003 && searchableByOthers(dir);
  } catch {
    return false;
  }
}

/**
 * The temp folder the runner folders go in: `tmp` (the system's, TMPDIR) when the sandbox user can pass through it,
 * else /tmp when that is a shared temp folder; `tmp` otherwise, and the self-test says what to fix.
 */
export function sandboxTempRoot(tmp: string = os.tmpdir(), fallback = "/tmp"): string {
  return searchableByOthers(tmp) || !sharedTemp(fallback) ? tmp : fallback;
}

/** mkdtemp prefix for a runner of this process. */
export function sandboxDirPrefix(pid: number = process.pid, tmp: string = sandboxTempRoot()): string {
  return path.join(tmp, `${PREFIX}${pid}-`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it exists but belongs to someone else.
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

function remove(tmp: string, keep: (pid: number) => boolean): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(tmp);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const m = NAME.exec(name);
    if (!m || keep(Number(m[1]))) continue;
    const dir = path.join(tmp, name);
    try {
      // Only folders we own: the temp folder is shared with every user of the machine.
      const st = fs.lstatSync(dir);
      if (!st.isDirectory() || (typeof process.getuid === "function" && st.uid !== process.getuid())) continue;
      fs.rmSync(dir, { recursive: true, force: true });
      removed.push(dir);
    } catch {
      // A mount still busy or a file of the sandbox user: the next sweep tries again.
    }
  }
  return removed;
}

/** Removes this process's runner folders (on exit; synchronous so it can run in an exit handler). */
export function removeOwnSandboxDirs(pid: number = process.pid, tmp: string = sandboxTempRoot()): string[] {
  return remove(tmp, (p) => p !== pid);
}

/** Removes runner folders whose owning process is gone (at start). */
export function sweepStaleSandboxDirs(tmp: string = sandboxTempRoot(), alive: (pid: number) => boolean = isAlive): string[] {
  return remove(tmp, (p) => p === process.pid || alive(p));
}
