// Path confinement for every file tool, in one place. A path is accepted only when both its spelling
// (after resolving "..") and its realpath (after following symlinks) stay inside an allowed root:
// the active skills' folders, the session scratch, and any extra read roots of the context.
// Files under a skill's script folders (scripts/, bin/, tools/) are refused for reading, whichever spelling reaches them.
import fs from "node:fs";
import path from "node:path";
import { isScriptFolder } from "../../domain/skill-protocol";
import { isInside } from "../registry/layers";
import type { ToolContext } from "./types";

/** A path the tools will not touch; the message says why, for the model and for a person. */
export class PathError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PathError";
  }
}

/** Reading a skill script: the model is told to run it instead. */
export class ScriptReadBlockedError extends Error {
  constructor(
    readonly skill: string,
    /** The script path relative to its skill folder, e.g. "scripts/report.py". */
    readonly script: string,
  ) {
    super(`${script} is a script of skill '${skill}': run it with run_script instead of reading it`);
    this.name = "ScriptReadBlockedError";
  }
}

// One containment check for the whole runtime, with one argument order: isInside(parent, child).
export { isInside };

function realOrNull(p: string): string | null {
  try {
    return fs.realpathSync(p);
  } catch {
    return null;
  }
}

export interface Root {
  /** As given (absolute, normalised). */
  dir: string;
  /** realpath of dir. */
  real: string;
  kind: "skill" | "scratch" | "extra";
  /** For skill roots: the skill name. */
  skill?: string;
}

/** The roots a call may read: active skills (top first), the scratch, then extra read roots. */
export function readRoots(ctx: ToolContext): Root[] {
  const roots: Root[] = [];
  const add = (dir: string, kind: Root["kind"], skill?: string) => {
    if (typeof dir !== "string" || !path.isAbsolute(dir)) return;
    const real = realOrNull(dir);
    if (real) roots.push({ dir: path.resolve(dir), real, kind, ...(skill ? { skill } : {}) });
  };
  for (const s of ctx.stack.list().reverse()) add(s.baseDir, "skill", s.name);
  add(ctx.scratchDir, "scratch");
  for (const r of ctx.readRoots ?? []) add(r, "extra");
  return roots;
}

function checkSpelling(p: unknown): string {
  if (typeof p !== "string" || p.trim() === "") throw new PathError("A path is required");
  if (p.includes("\0")) throw new PathError("The path contains a NUL byte");
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(p)) throw new PathError(`"${p}" is a URL; file tools read files of the active skills and the scratch folder`);
  return p.replace(/\\/g, "/");
}

/** The folder relative paths start from: the top skill's folder, or the scratch when no skill is active. */
export function baseDirFor(ctx: ToolContext): string {
  return ctx.stack.top()?.baseDir ?? ctx.scratchDir;
}

function hasSkillMd(dir: string): boolean {
  return fs.existsSync(path.join(dir, "SKILL.md")) || fs.existsSync(path.join(dir, "skill.md"));
}

/**
 * If `abs` lies under a script folder (scripts, bin or tools, any case) whose parent is a skill folder (holds SKILL.md or is
 * an active skill), returns that skill and the script's path relative to it.
 */
export function scriptOwner(abs: string, ctx: ToolContext): { skill: string; script: string } | null {
  const active = ctx.stack.list();
  let dir = path.dirname(abs);
  while (true) {
    const parent = path.dirname(dir);
    if (parent === dir) return null;
    if (isScriptFolder(path.basename(dir))) {
      const realParent = realOrNull(parent);
      const owner = active.find((s) => path.resolve(s.baseDir) === parent || realOrNull(s.baseDir) === realParent);
      if (owner || hasSkillMd(parent)) {
        return { skill: owner?.name ?? path.basename(parent), script: path.relative(parent, abs).split(path.sep).join("/") };
      }
    }
    dir = parent;
  }
}

export interface ResolvedPath {
  /** Lexical absolute path (".." resolved, symlinks not followed). */
  abs: string;
  /** realpath, inside a root. */
  real: string;
  root: Root;
  /** For messages and patterns: relative to the top skill folder when inside it, else absolute. */
  display: string;
}

export function displayPath(abs: string, ctx: ToolContext): string {
  const top = ctx.stack.top();
  if (top) {
    const base = path.resolve(top.baseDir);
    if (isInside(base, abs)) return path.relative(base, abs).split(path.sep).join("/") || ".";
  }
  return abs;
}

/** Lexical absolute form of a tool's path argument (relative to the top skill folder). */
export function lexicalPath(ctx: ToolContext, p: unknown, base?: string): string {
  const spelled = checkSpelling(p);
  return path.resolve(base ?? baseDirFor(ctx), spelled);
}

/**
 * Resolves a path for reading or listing. Refuses paths outside every root (by spelling or through a
 * symlink) and, unless `allowScripts` (listing), files under a skill's scripts/ folder.
 */
export function resolveForRead(ctx: ToolContext, p: unknown, opts: { allowScripts?: boolean; base?: string } = {}): ResolvedPath {
  const abs = lexicalPath(ctx, p, opts.base);
  const roots = readRoots(ctx);
  if (roots.length === 0) throw new PathError("No folder is readable: no skill is active and the scratch folder does not exist");
  const root = roots.find((r) => isInside(r.dir, abs) || isInside(r.real, abs));
  if (!root) {
    throw new PathError(`"${String(p)}" is outside the folders this session may read (the active skills' folders and the scratch folder)`);
  }
  // Spelling first: SCRIPTS/x.py on a case-insensitive disk, or a script that does not exist, is still a script.
  if (!opts.allowScripts) {
    const owner = scriptOwner(abs, ctx);
    if (owner) throw new ScriptReadBlockedError(owner.skill, owner.script);
  }
  const real = realOrNull(abs);
  if (real === null) {
    // Distinguish a dangling symlink (which may point anywhere) from a missing file.
    let isLink = false;
    try {
      isLink = fs.lstatSync(abs).isSymbolicLink();
    } catch {}
    throw new PathError(isLink ? `"${String(p)}" is a symlink whose target does not exist` : `File not found: ${displayPath(abs, ctx)}`);
  }
  const realRoot = roots.find((r) => isInside(r.real, real));
  if (!realRoot) throw new PathError(`"${String(p)}" leaves the allowed folders through a symlink`);
  if (!opts.allowScripts) {
    const owner = scriptOwner(real, ctx);
    if (owner) throw new ScriptReadBlockedError(owner.skill, owner.script);
  }
  return { abs, real, root: realRoot, display: displayPath(abs, ctx) };
}

/**
 * Files the server writes into the scratch belong to the scratch's owner (the sandbox user, once the
 * sandbox has taken the folder over), so a later script can change them. Only root can chown; others skip.
 */
export function giveToScratchOwner(p: string, scratchReal: string): void {
  if (process.getuid?.() !== 0) return;
  const st = fs.statSync(scratchReal);
  if (st.uid !== 0) fs.lchownSync(p, st.uid, st.gid);
}

/**
 * Resolves a path for writing: inside the session scratch only. Relative paths start at the scratch.
 * Missing parent folders are created; an existing folder on the way must not lead out through a symlink.
 */
export function resolveForWrite(ctx: ToolContext, p: unknown): { target: string; realParent: string; display: string; scratchReal: string } {
  const spelled = checkSpelling(p);
  const scratch = path.resolve(ctx.scratchDir);
  fs.mkdirSync(scratch, { recursive: true });
  const scratchReal = fs.realpathSync(scratch);
  const abs = path.isAbsolute(spelled) ? path.resolve(spelled) : path.resolve(scratch, spelled);
  const inScratch = isInside(scratch, abs) ? scratch : isInside(scratchReal, abs) ? scratchReal : null;
  if (!inScratch || abs === inScratch) {
    throw new PathError(`write_file writes only inside the session scratch folder; "${String(p)}" is not a file there`);
  }
  // Walk down from the scratch, refusing a symlink at any existing level, creating what is missing.
  const rel = path.relative(inScratch, abs).split(path.sep);
  let cur = scratchReal;
  for (const part of rel.slice(0, -1)) {
    cur = path.join(cur, part);
    let st: fs.Stats | null = null;
    try {
      st = fs.lstatSync(cur);
    } catch {}
    if (!st) {
      fs.mkdirSync(cur);
      giveToScratchOwner(cur, scratchReal);
    }
    else if (st.isSymbolicLink()) throw new PathError(`"${String(p)}" goes through a symlink (${path.relative(scratchReal, cur)}); write_file does not follow links`);
    else if (!st.isDirectory()) throw new PathError(`"${path.relative(scratchReal, cur)}" is a file, not a folder`);
  }
  const target = path.join(cur, rel[rel.length - 1]!);
  return { target, realParent: cur, scratchReal, display: path.relative(scratchReal, target).split(path.sep).join("/") };
}

const BINARY_KINDS: Record<string, string> = {
  ".png": "PNG image",
  ".jpg": "JPEG image",
  ".jpeg": "JPEG image",
  ".gif": "GIF image",
  ".webp": "WebP image",
  ".pdf": "PDF document",
  ".zip": "zip archive",
  ".gz": "gzip archive",
  ".ttf": "font",
  ".woff": "font",
  ".woff2": "font",
  ".docx": "Word document",
  ".xlsx": "Excel workbook",
  ".pptx": "PowerPoint deck",
};

/** NUL bytes or many control characters in the first 8 KiB: not text a model can use. */
export function looksBinary(sample: Buffer): boolean {
  if (sample.includes(0)) return true;
  let control = 0;
  for (const b of sample) if (b < 9 || (b > 13 && b < 32)) control++;
  return sample.length > 0 && control / sample.length > 0.1;
}

export function describeBinary(display: string, size: number): string {
  const kind = BINARY_KINDS[path.extname(display).toLowerCase()] ?? "binary data";
  return `[binary file ${display}: ${size} bytes, ${kind}; not shown as text]`;
}

export interface ReadTextResult {
  text: string;
  binary: boolean;
  truncated: boolean;
  size: number;
  lines?: { from: number; to: number; total: number };
}

const HARD_READ_LIMIT = 32 * 1024 * 1024;

/** Reads a confined file as text with a byte cap; `offset` (1-based line) and `limit` (lines) page through it. */
export function readTextCapped(real: string, display: string, maxBytes: number, offset?: number, limit?: number): ReadTextResult {
  const st = fs.statSync(real);
  if (st.isDirectory()) throw new PathError(`${display} is a folder; use list_files`);
  if (!st.isFile()) throw new PathError(`${display} is not a regular file`);
  // O_NOFOLLOW: if the final component was swapped for a symlink since it was checked, fail instead of following.
  const fd = fs.openSync(real, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
  try {
    const sample = Buffer.alloc(Math.min(8192, st.size));
    fs.readSync(fd, sample, 0, sample.length, 0);
    if (looksBinary(sample)) return { text: describeBinary(display, st.size), binary: true, truncated: false, size: st.size };
    const want = Math.min(st.size, offset || limit ? HARD_READ_LIMIT : maxBytes + 4);
    const buf = Buffer.alloc(want);
    fs.readSync(fd, buf, 0, want, 0);
    let text = buf.toString("utf8");
    let lines: ReadTextResult["lines"];
    if (offset || limit) {
      const all = text.split("\n");
      const from = Math.max(1, Math.floor(offset ?? 1));
      const to = Math.min(all.length, limit ? from + Math.floor(limit) - 1 : all.length);
      text = all.slice(from - 1, to).join("\n");
      lines = { from, to, total: all.length };
    }
    let truncated = false;
    if (Buffer.byteLength(text) > maxBytes) {
      const cut = Buffer.from(text).subarray(0, maxBytes).toString("utf8").replace(/\uFFFD$/, "");
      const shownLines = cut.split("\n").length;
      const nextLine = (lines?.from ?? 1) + shownLines - 1;
      text = `${cut}\n[... truncated: showed ${Buffer.byteLength(cut)} of ${st.size} bytes; read on with offset=${nextLine}]`;
      truncated = true;
    } else if (!lines && st.size > want) {
      truncated = true;
      text += `\n[... truncated at ${want} of ${st.size} bytes]`;
    }
    return { text, binary: false, truncated, size: st.size, ...(lines ? { lines } : {}) };
  } finally {
    fs.closeSync(fd);
  }
}
