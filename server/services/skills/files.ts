// Files inside one skill folder: the tree, reading text (binary files are reported with their size, never
// decoded), and atomic writes (temp file in the same folder, fsync, rename) so a reader never sees half a file.
import { isUtf8 } from "node:buffer";
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { FILE_CLOCK_SETTLE_MS } from "../../domain/vocabulary";

export interface TreeNode {
  /** "/"-separated path relative to the skill folder. */
  path: string;
  type: "file" | "dir";
  size: number;
  /** Files only: not UTF-8 text (or too large to edit); listed, never opened in the editor. */
  binary: boolean;
  executable: boolean;
}

export interface FileContent {
  path: string;
  size: number;
  binary: boolean;
  /** The text, or null for binary files. */
  text: string | null;
  /** sha256 of the bytes on disk: what a save sends back to prove it edited this version. */
  digest: string;
  language: string;
}

/** Text files above this size are listed but not opened in the browser editor. */
export const MAX_EDITABLE_BYTES = 2 * 1024 * 1024;
const MAX_TREE_ENTRIES = 2000;
const HIDDEN = new Set([".git", "node_modules", ".DS_Store"]);

export const sha256 = (data: Uint8Array | string) => createHash("sha256").update(data).digest("hex");

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** Text is valid UTF-8 with no NUL byte in its first 8 KiB; anything else is shown as binary. */
const isText = (bytes: Uint8Array) => !bytes.subarray(0, 8192).includes(0) && isUtf8(bytes);

/** Null when the bytes are not text a person should edit (NUL bytes, invalid UTF-8). */
export function decodeText(bytes: Uint8Array): string | null {
  return bytes.length <= MAX_EDITABLE_BYTES && isText(bytes) ? utf8.decode(bytes) : null;
}

/** Monaco language id for a file name. */
export function languageOf(file: string): string {
  const base = path.posix.basename(file).toLowerCase();
  const ext = base.includes(".") ? base.slice(base.lastIndexOf(".") + 1) : "";
  switch (ext) {
    case "md":
    case "markdown":
      return "markdown";
    case "yaml":
    case "yml":
      return "yaml";
    case "py":
      return "python";
    case "sh":
    case "bash":
    case "zsh":
      return "shell";
    case "js":
    case "mjs":
    case "cjs":
    case "ts":
    case "jsx":
    case "tsx":
      return "javascript";
    case "json":
      return "json";
    default:
      return "plaintext";
  }
}

function isBinaryFile(abs: string, size: number): boolean {
  if (size > MAX_EDITABLE_BYTES) return true;
  const fd = fs.openSync(abs, "r");
  try {
    const buf = Buffer.allocUnsafe(size);
    const bytes = buf.subarray(0, fs.readSync(fd, buf, 0, size, 0));
    return !isText(bytes); // decodeText's verdict without making the string
  } finally {
    fs.closeSync(fd);
  }
}

// Path -> what the file was when it was last judged. Opening a skill's page lists its tree, and reading every
// file to tell text from binary was most of what skill.info cost under load (and most of what it allocated).
// A file whose size, times and inode are unchanged keeps its verdict. A write changes the times only at the
// clock's coarse tick, so a file changed in the last seconds is read every time (git's "racy" entries).
interface Verdict {
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
  binary: boolean;
}
const verdicts = new Map<string, Verdict>();
const VERDICTS_MAX = 50_000;

function isBinaryCached(abs: string, st: fs.Stats): boolean {
  const v = verdicts.get(abs);
  if (v && v.size === st.size && v.mtimeMs === st.mtimeMs && v.ctimeMs === st.ctimeMs && v.ino === st.ino) return v.binary;
  const binary = isBinaryFile(abs, st.size);
  if (Date.now() - Math.max(st.mtimeMs, st.ctimeMs) < FILE_CLOCK_SETTLE_MS) return binary;
  if (!v && verdicts.size >= VERDICTS_MAX) verdicts.delete(verdicts.keys().next().value!);
  verdicts.set(abs, { size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs, ino: st.ino, binary });
  return binary;
}

/** Every file and folder of the skill, folders first at each level. Symbolic links are listed as their target when it stays inside. */
export function listTree(dir: string): TreeNode[] {
  const out: TreeNode[] = [];
  const realDir = fs.realpathSync(dir);
  const walk = (abs: string, rel: string) => {
    const entries = fs.readdirSync(abs, { withFileTypes: true }).filter((d) => !HIDDEN.has(d.name) && !d.name.startsWith(".staging-") && !d.name.startsWith(".trash-") && !d.name.startsWith(".omniforge-tmp-"));
    entries.sort((a, b) => Number(b.isDirectory()) - Number(a.isDirectory()) || (a.name < b.name ? -1 : 1));
    for (const d of entries) {
      if (out.length >= MAX_TREE_ENTRIES) return;
      const childAbs = path.join(abs, d.name);
      const childRel = rel ? `${rel}/${d.name}` : d.name;
      let st: fs.Stats;
      try {
        st = fs.statSync(childAbs);
        if (d.isSymbolicLink() && !fs.realpathSync(childAbs).startsWith(realDir + path.sep)) continue; // leaves the folder: not shown
      } catch {
        continue;
      }
      if (st.isDirectory()) {
        out.push({ path: childRel, type: "dir", size: 0, binary: false, executable: false });
        if (!d.isSymbolicLink()) walk(childAbs, childRel);
      } else if (st.isFile()) {
        out.push({ path: childRel, type: "file", size: st.size, binary: isBinaryCached(childAbs, st), executable: (st.mode & 0o111) !== 0 });
      }
    }
  };
  walk(dir, "");
  return out;
}

/** Reads a file (already confined by the caller). */
export function readFileAt(abs: string, rel: string): FileContent {
  const st = fs.statSync(abs);
  if (!st.isFile()) throw new Error(`${rel} is not a file`);
  if (st.size > MAX_EDITABLE_BYTES) return { path: rel, size: st.size, binary: true, text: null, digest: "", language: "plaintext" };
  const bytes = fs.readFileSync(abs);
  const text = decodeText(bytes);
  return { path: rel, size: bytes.length, binary: text === null, text, digest: sha256(bytes), language: languageOf(rel) };
}

/** sha256 of the file now, or null when it does not exist. */
export function currentDigest(abs: string): string | null {
  try {
    return sha256(fs.readFileSync(abs));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw e;
  }
}

/** Atomic replace: temp file beside the target, fsync, rename. Keeps the previous mode. */
export function writeFileAtomic(abs: string, data: string | Uint8Array, mode?: number): void {
  const dir = path.dirname(abs);
  fs.mkdirSync(dir, { recursive: true });
  let keep = mode;
  if (keep === undefined) {
    try {
      keep = fs.statSync(abs).mode & 0o777;
    } catch {
      keep = 0o644;
    }
  }
  const tmp = path.join(dir, `.omniforge-tmp-${path.basename(abs)}-${randomBytes(6).toString("hex")}`);
  const fd = fs.openSync(tmp, "wx", keep);
  try {
    fs.writeSync(fd, typeof data === "string" ? Buffer.from(data, "utf8") : data);
    fs.fsyncSync(fd);
  } catch (e) {
    fs.closeSync(fd);
    fs.rmSync(tmp, { force: true });
    throw e;
  } finally {
    try {
      fs.closeSync(fd);
    } catch {
      // already closed on the error path
    }
  }
  try {
    fs.renameSync(tmp, abs);
  } catch (e) {
    fs.rmSync(tmp, { force: true });
    throw e;
  }
}
