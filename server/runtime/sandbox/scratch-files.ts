// Reading what a script left in scratch, as the root server, without following anything it planted
// (SANDBOX.md §5.1: `scratch/out -> /etc/shadow` must not be read). lstat for listing; for reading,
// O_NOFOLLOW plus a check of where the opened descriptor really points.
import fs from "node:fs";
import path from "node:path";
import { SandboxRefusal } from "./script-path";

export interface ScratchEntry {
  /** Relative to the scratch folder, "/" separators. */
  path: string;
  type: "file" | "dir" | "symlink" | "other";
  size: number;
}

/** Lists scratch without following symlinks (they are reported as symlinks, never entered). */
export function listScratch(scratchDir: string, maxEntries = 1000): ScratchEntry[] {
  const out: ScratchEntry[] = [];
  const walk = (rel: string) => {
    let names: string[];
    try {
      names = fs.readdirSync(path.join(scratchDir, rel)).sort();
    } catch {
      return;
    }
    for (const name of names) {
      if (out.length >= maxEntries) return;
      const r = rel ? `${rel}/${name}` : name;
      const st = fs.lstatSync(path.join(scratchDir, r));
      const type = st.isSymbolicLink() ? "symlink" : st.isDirectory() ? "dir" : st.isFile() ? "file" : "other";
      out.push({ path: r, type, size: type === "file" ? st.size : 0 });
      if (type === "dir") walk(r);
    }
  };
  if (fs.lstatSync(scratchDir).isDirectory()) walk("");
  return out;
}

/** Reads one regular file under scratch; refuses symlinks anywhere on the way, special files and big files. */
export function readScratchFile(scratchDir: string, rel: string, maxBytes = 1024 * 1024): Buffer {
  if (typeof rel !== "string" || rel === "" || rel.includes("\0") || path.isAbsolute(rel) || rel.split(/[\\/]+/).includes("..")) {
    throw new SandboxRefusal(`"${String(rel)}" is not a path inside the scratch folder`);
  }
  const root = fs.realpathSync(scratchDir);
  let fd: number;
  try {
    // O_NONBLOCK: a FIFO planted by the script must not hang the server.
    fd = fs.openSync(path.join(root, rel), fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ELOOP") throw new SandboxRefusal(`${rel} is a symlink; it is not followed`);
    if (code === "ENOENT") throw new SandboxRefusal(`${rel} does not exist in scratch`);
    throw new SandboxRefusal(`${rel} cannot be read: ${code ?? (err as Error).message}`);
  }
  try {
    // A symlinked directory earlier in the path is caught here: the descriptor's real path must stay inside.
    const real = fs.readlinkSync(`/proc/self/fd/${fd}`);
    if (!real.startsWith(root + path.sep)) throw new SandboxRefusal(`${rel} leads outside the scratch folder; refused`);
    const st = fs.fstatSync(fd);
    if (!st.isFile()) throw new SandboxRefusal(`${rel} is not a regular file`);
    if (st.size > maxBytes) throw new SandboxRefusal(`${rel} is ${st.size} bytes, more than the ${maxBytes} allowed`);
    const buf = Buffer.alloc(st.size);
    let n = 0;
    while (n < st.size) {
      const got = fs.readSync(fd, buf, n, st.size - n, n);
      if (got === 0) break;
      n += got;
    }
    return buf.subarray(0, n);
  } finally {
    fs.closeSync(fd);
  }
}
