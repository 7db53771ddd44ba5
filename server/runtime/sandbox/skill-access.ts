// The skill folder must be readable by the sandbox uid (SANDBOX.md §4.10). When only the way in is closed (a
// private data home above it), the run binds it in a mount namespace of its own, as the scratch folder; when
// something inside is unreadable (a 0700 folder, a 0600 file), the run gets a world-readable private copy
// instead of weakening the original's permissions: the copy lives in the server's runtime dir and is deleted
// after the run.
import fs from "node:fs";
import path from "node:path";
import { SandboxRefusal } from "./script-path";

const MAX_COPY_BYTES = 64 * 1024 * 1024;
const MAX_COPY_ENTRIES = 20_000;

function allowed(st: fs.Stats, uid: number, gid: number, need: number): boolean {
  const shift = st.uid === uid ? 6 : st.gid === gid ? 3 : 0;
  return ((st.mode >> shift) & need) === need;
}

/** bwrap binds folders as the sandbox uid, so every ancestor must be searchable; the first one that is not. */
export function blockedAncestor(dir: string, uid: number, gid: number): string | null {
  for (let p = path.dirname(dir); ; p = path.dirname(p)) {
    if (!allowed(fs.statSync(p), uid, gid, 0o1)) return p;
    if (p === path.dirname(p)) return null;
  }
}

/**
 * null when uid:gid can read everything from dir down (its ancestors are blockedAncestor's); else the first
 * offending path. A tree holding anything the sandbox uid owns (the scratch, when no skill is active) is bound as
 * is and never copied: the sandbox could swap its own entries for symlinks while root copies them.
 */
export function unreadableInside(dir: string, uid: number, gid: number): string | null {
  const stack = [dir];
  let seen = 0;
  while (stack.length > 0) {
    const current = stack.pop()!;
    const st = fs.lstatSync(current);
    if (++seen > MAX_COPY_ENTRIES) return null; // too big to audit; the script will get EACCES at worst
    if (st.uid === uid) return null;
    if (st.isSymbolicLink()) continue;
    if (st.isDirectory()) {
      if (!allowed(st, uid, gid, 0o5)) return current;
      for (const name of fs.readdirSync(current)) stack.push(path.join(current, name));
    } else if (st.isFile() && !allowed(st, uid, gid, 0o4)) {
      return current;
    }
  }
  return null;
}

/** Copies the skill folder into dest with modes 0755/0644 (0755 when executable); no special files. */
export function readableCopy(src: string, dest: string): void {
  let bytes = 0;
  let entries = 0;
  const walk = (p: string) => {
    const st = fs.lstatSync(p);
    if (++entries > MAX_COPY_ENTRIES) throw new SandboxRefusal(`The skill folder has more than ${MAX_COPY_ENTRIES} entries`);
    if (st.isDirectory()) for (const name of fs.readdirSync(p)) walk(path.join(p, name));
    else if (st.isFile()) bytes += st.size;
  };
  walk(src);
  if (bytes > MAX_COPY_BYTES) {
    throw new SandboxRefusal(
      `The skill folder ${src} is not readable by the sandbox user and too large to copy (${bytes} bytes); make it world-readable (chmod -R o+rX)`,
    );
  }
  fs.cpSync(src, dest, {
    recursive: true,
    verbatimSymlinks: true,
    dereference: false,
    filter: (p) => {
      const st = fs.lstatSync(p);
      return st.isDirectory() || st.isFile() || st.isSymbolicLink();
    },
  });
  const fix = (p: string) => {
    const st = fs.lstatSync(p);
    if (st.isSymbolicLink()) return;
    if (st.isDirectory()) {
      fs.chmodSync(p, 0o755);
      for (const name of fs.readdirSync(p)) fix(path.join(p, name));
    } else {
      fs.chmodSync(p, st.mode & 0o111 ? 0o755 : 0o644);
    }
  };
  fix(dest);
}
