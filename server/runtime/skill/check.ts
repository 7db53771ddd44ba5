// One entry per source of a SKILL.md: text or bytes in memory (the editor's unsaved buffer) or a folder on disk.
// The folder path reads the file once, with the size checked on the open descriptor before any byte is read.
import { isUtf8 } from "node:buffer";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { Diagnostic, FileLookup, RuleSet, SkillCheck } from "./types";
import { diag, hasErrors } from "./diagnostics";
import { decode, MAX_SKILL_FILE_BYTES, parseSkillText } from "./parse";
import { extractProperties, validateFrontmatter } from "./validate";
import { checkBody } from "./body";
import type { ListedEntry } from "./discover";
import { folderLookup, isInside } from "./folder-lookup";

export interface CheckSourceOptions {
  /** The skill folder; its basename is the directory name for the name rule. */
  dir: string;
  /** Name of the file the source came from; "skill.md" gets the lowercase-name diagnostic. */
  fileName?: string;
  rules?: RuleSet;
  /** Whether a folder-relative path (already confined, POSIX separators) exists; enables missing-file warnings. */
  fileExists?: FileLookup;
}

const encoder = new TextEncoder();
/**
 * SHA-256 of SKILL.md, one-shot (no streaming Hash object). node:crypto loads on the first digest, like the YAML
 * parser: `skill validate` asks for none, and loading it was 2% of a validation of 600 skills.
 */
let crypto: typeof import("node:crypto") | null = null;
const sha256Hex = (bytes: Uint8Array): string => (crypto ??= createRequire(import.meta.url)("node:crypto") as typeof import("node:crypto")).hash("sha256", bytes, "hex");

/** Pure: parses and validates a SKILL.md given as bytes or text. No I/O except the fileExists callback. */
export function checkSkillSource(source: Uint8Array | string, opts: CheckSourceOptions): SkillCheck {
  const dir = path.resolve(/*turbopackIgnore: true*/ opts.dir);
  const fileName = opts.fileName ?? "SKILL.md";
  const bytes = typeof source === "string" ? encoder.encode(source) : source;
  return checkBytes(bytes, typeof source === "string" ? source : null, dir, path.join(/*turbopackIgnore: true*/ dir, fileName), fileName, opts.rules ?? "spec", opts.fileExists);
}

function checkBytes(
  bytes: Uint8Array,
  text: string | null,
  dir: string,
  file: string,
  fileName: string,
  rules: RuleSet,
  fileExists?: FileLookup,
  body = true,
  hash = true,
): SkillCheck {
  const diagnostics: Diagnostic[] = [];
  const digest = hash ? sha256Hex(bytes) : "";
  const result: SkillCheck = { ...emptyCheck(dir, file), digest, diagnostics };
  if (fileName !== "SKILL.md") {
    diagnostics.push(
      diag(
        rules === "spec" ? "error" : "warning",
        "file.name-case",
        `The file is named ${fileName}; the spec requires SKILL.md in capitals. Rename it so every agent finds it.`,
      ),
    );
  }
  if (bytes.length > MAX_SKILL_FILE_BYTES) {
    diagnostics.push(tooLarge(bytes.length));
    return result;
  }
  // Without body checks only the frontmatter is decoded: the bytes are still checked to be UTF-8 (a file that is
  // not does not load, whoever lists it), but the body never becomes a string.
  const utf8Bytes = text === null && isUtf8(bytes);
  const decoded = text ?? (utf8Bytes ? (body ? utf8Text(bytes, bytes.length) : decodeFrontmatter(bytes)) : decode(bytes, diagnostics));
  if (decoded !== null) {
    const parsed = parseSkillText(decoded, rules, diagnostics);
    const dirName = path.basename(dir) || null;
    if (parsed.raw) {
      validateFrontmatter(parsed, { rules, dirName, fileExists });
      if (body && parsed.body !== null) checkBody(parsed.body, parsed.bodyStartLine, rules, diagnostics, fileExists);
    }
    result.raw = parsed.raw;
    result.body = parsed.raw && body ? parsed.body : null;
    result.bodyStartLine = parsed.bodyStartLine;
    result.properties = extractProperties(parsed.raw);
  }
  result.loadable = result.properties !== null;
  result.valid = !hasErrors(diagnostics);
  return result;
}

/**
 * Bytes already known to be valid UTF-8, as text: Buffer's decoder (simdutf) is several times faster than a
 * TextDecoder on the same bytes, and like ours (ignoreBOM) it keeps a byte order mark as a character.
 */
const utf8Text = (bytes: Uint8Array, end: number) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8", 0, end);

/**
 * The text of valid UTF-8 bytes up to the end of the line holding the frontmatter's closing "---" (the first
 * "---" after line 1, as parseSkillText finds it), or all of it when there is none. Cut after an ASCII byte, so
 * never inside a character.
 */
function decodeFrontmatter(bytes: Uint8Array): string {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const lf = buf.indexOf(0x0a);
  const cr = buf.indexOf(0x0d);
  const firstBreak = lf < 0 ? cr : cr < 0 ? lf : Math.min(lf, cr);
  let end = bytes.length;
  if (firstBreak >= 0) {
    const close = buf.indexOf("---", firstBreak + 1, "latin1");
    if (close >= 0) {
      const nl = buf.indexOf(0x0a, close + 3);
      const r = buf.indexOf(0x0d, close + 3);
      const lineEnd = nl < 0 ? r : r < 0 ? nl : Math.min(nl, r);
      if (lineEnd >= 0) end = lineEnd;
    }
  }
  return utf8Text(bytes, end);
}

function tooLarge(size: number): Diagnostic {
  return diag(
    "error",
    "file.too-large",
    `SKILL.md is ${(size / 1024 / 1024).toFixed(1)} MiB; the limit is ${MAX_SKILL_FILE_BYTES / 1024 / 1024} MiB. ` +
      "Keep instructions short and move material into references/.",
  );
}

/** A check that found nothing loadable (yet): the start of every check, and the answer when there is no file. */
function emptyCheck(dir: string, file: string | null, diagnostic?: Diagnostic): SkillCheck {
  return {
    dir,
    file,
    digest: "",
    raw: null,
    properties: null,
    body: null,
    bodyStartLine: 1,
    valid: false,
    loadable: false,
    diagnostics: diagnostic ? [diagnostic] : [],
  };
}


/**
 * Reads and checks the SKILL.md (or, failing that, skill.md) of a skill folder. Never throws: a missing folder,
 * a missing file, a directory named SKILL.md, a symlink leaving the folder or an oversized file are diagnostics.
 * The common case costs one open, fstat, read and close; realpath only runs for symlinks and referenced files.
 */
export interface CheckDirOptions {
  rules?: RuleSet;
  /**
   * Look up the files the body and hooks reference (default true). Only warnings depend on it
   * (body.missing-reference, hooks.missing-script), never `valid` or `loadable`, so a bulk index load can
   * pass false to save a few file-system lookups per skill.
   */
  checkFiles?: boolean;
  /**
   * Check the body (length, links, referenced files) as well as the frontmatter (default true). A listing shows
   * what the frontmatter says; `false` leaves the body checks to `skill validate` and the editor.
   */
  checkBody?: boolean;
  /**
   * Folder listings taken moments ago (findSkillDirs' `listings`), keyed by absolute path. File lookups in a
   * listed folder answer from it: a plain file or folder there is found, a name absent from it is missing.
   * Links, other entry types and unlisted folders still go to the file system.
   */
  listings?: ReadonlyMap<string, readonly ListedEntry[]>;
  /**
   * Compute the SKILL.md's sha256 (default true). `false` leaves `digest` "": a validation that prints no digest
   * skips hashing every file it reads. Nothing else in the check depends on it.
   */
  digest?: boolean;
  /**
   * The folder's SKILL.md as readPlainSkillFile read it moments ago (a walk's helper thread, walk-read.ts); null when
   * it found no regular file there. Undefined: read it now.
   */
  read?: SkillFileRead | null;
}

export function checkSkillDir(dir: string, opts: CheckDirOptions = {}): SkillCheck {
  return checkSkillDirWithStat(dir, opts).check;
}

/** path.resolve(dir), skipping its work for the usual input: an absolute POSIX path with nothing to normalise. */
function resolved(dir: string): string {
  const plain = path.sep === "/" && dir.charCodeAt(0) === 0x2f && dir.length > 1 && !dir.endsWith("/") && !dir.includes("//") && !hasDotSegment(dir);
  return plain ? dir : path.resolve(dir);
}

/**
 * Whether a "/"-separated path has a "." or ".." segment. Names that merely start with a dot (a project's
 * .agents/skills, .claude/skills) need no normalising: every project skill has one, so they skip path.resolve.
 */
function hasDotSegment(p: string): boolean {
  for (let i = p.indexOf("/."); i >= 0; i = p.indexOf("/.", i + 2)) {
    let j = i + 2;
    if (p.charCodeAt(j) === 0x2e) j++; // ".."
    if (j === p.length || p.charCodeAt(j) === 0x2f) return true;
  }
  return false;
}

/** Size and mtime of the SKILL.md that was read (fstat of the open file), for an index's change detection. */
export interface SkillFileStat {
  mtimeMs: number;
  size: number;
  /** Moves on every change to the file, also one that puts size and mtime back (tar, rsync -t, cp -p). */
  ctimeMs: number;
}

/**
 * checkSkillDir plus the stat of the file it read, so an index needs no second stat. `stat` is null whenever the
 * common case (a regular SKILL.md, not a link) did not apply; the caller then stats the way it always did.
 */
export function checkSkillDirWithStat(dir: string, opts: CheckDirOptions = {}): { check: SkillCheck; stat: SkillFileStat | null } {
  const rules = opts.rules ?? "spec";
  const abs = resolved(dir);
  let realDir: string | null = null;
  const realDirOf = () => (realDir ??= fs.realpathSync.native(abs));
  const lookup = () => (opts.checkFiles === false ? undefined : folderLookup(abs, realDirOf, opts.listings));
  // abs is resolved (normalised, absolute): appending the name is path.join without its normalising pass.
  const file = abs.endsWith(path.sep) ? abs + "SKILL.md" : abs + path.sep + "SKILL.md";
  const direct = opts.read !== undefined ? opts.read : readPlainSkillFile(file);
  if (direct) {
    const check = checkBytes(direct.bytes, null, abs, file, "SKILL.md", rules, lookup(), opts.checkBody !== false, opts.digest !== false);
    return { check, stat: direct.stat };
  }
  return { check: checkSkillDirSlow(abs, rules, realDirOf, lookup, opts.checkBody !== false, opts.digest !== false), stat: null };
}

/** Reused read buffer: the bytes are hashed and decoded at once and never kept, so one buffer serves every file. */
let readBuffer = Buffer.allocUnsafeSlow(64 * 1024);
const DIRECT_FLAGS = fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0) | (fs.constants.O_NOFOLLOW ?? 0);

/** A SKILL.md read by the common case (readPlainSkillFile): its bytes and the stat of the open file. */
export interface SkillFileRead {
  bytes: Uint8Array;
  stat: SkillFileStat;
}

/**
 * The common case in one open, fstat, read and close: `file` is a regular file (not a link: O_NOFOLLOW), not
 * empty and within the size limit. Anything else (missing, link, folder, FIFO, too large, read error) is null
 * and the careful path below runs, with its diagnostics. `keep`: bytes of their own (to keep or send), not a view
 * of the reused read buffer.
 */
export function readPlainSkillFile(file: string, keep = false): SkillFileRead | null {
  let fd: number;
  try {
    fd = fs.openSync(file, DIRECT_FLAGS);
  } catch {
    return null;
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile() || st.size === 0 || st.size > MAX_SKILL_FILE_BYTES) return null;
    if (readBuffer.length < st.size) readBuffer = Buffer.allocUnsafeSlow(Math.min(MAX_SKILL_FILE_BYTES, 2 ** Math.ceil(Math.log2(st.size))));
    // Like readFileSync: up to the size fstat reported, stopping early at end of file.
    let pos = 0;
    for (let n = -1; n !== 0 && pos < st.size; pos += n) n = fs.readSync(fd, readBuffer, pos, st.size - pos, pos);
    return { bytes: keep ? Uint8Array.prototype.slice.call(readBuffer, 0, pos) : readBuffer.subarray(0, pos), stat: { mtimeMs: st.mtimeMs, size: st.size, ctimeMs: st.ctimeMs } };
  } catch {
    return null;
  } finally {
    fs.closeSync(fd);
  }
}

function checkSkillDirSlow(
  abs: string,
  rules: RuleSet,
  realDirOf: () => string,
  lookup: () => FileLookup | undefined,
  body: boolean,
  hash: boolean,
): SkillCheck {
  let fileName: string | null = null;
  let st: fs.Stats | undefined;
  let denied: NodeJS.ErrnoException | null = null;
  for (const candidate of ["SKILL.md", "skill.md"]) {
    try {
      const candidatePath = path.join(/*turbopackIgnore: true*/ abs, candidate);
      st = fs.lstatSync(/*turbopackIgnore: true*/ candidatePath, { throwIfNoEntry: false });
    } catch (e) {
      st = undefined; // ENOTDIR and friends: the folder itself is the problem, reported below
      if ((e as NodeJS.ErrnoException).code !== "ENOTDIR") denied ??= e as NodeJS.ErrnoException;
    }
    if (st) {
      fileName = candidate;
      break;
    }
  }
  if (!fileName || !st) {
    let isDir = false;
    try {
      isDir = fs.statSync(abs).isDirectory();
    } catch {
      return emptyCheck(abs, null, diag("error", "file.missing", `Skill folder ${abs} does not exist.`));
    }
    // Not "missing" when the folder cannot be searched (no x), or its SKILL.md is absent but the folder cannot be
    // listed either (no r): the skills in it, if any, are out of reach, and that is what to say.
    if (isDir && !denied) denied = unlistable(abs);
    if (isDir && denied) return emptyCheck(abs, null, folderUnreadable(abs, denied));
    return emptyCheck(
      abs,
      null,
      diag("error", "file.missing", isDir ? `Missing required file SKILL.md in ${abs}.` : `${abs} is not a folder; a skill is a folder containing SKILL.md.`),
    );
  }
  const file = path.join(/*turbopackIgnore: true*/ abs, fileName);
  let target = file;
  let size = st.size;
  if (st.isSymbolicLink()) {
    try {
      target = fs.realpathSync.native(file);
      const tst = fs.statSync(/*turbopackIgnore: true*/ target);
      if (!tst.isFile()) return emptyCheck(abs, file, diag("error", "file.not-a-file", `${fileName} links to something that is not a regular file.`));
      size = tst.size;
      if (!isInside(realDirOf(), target)) {
        return emptyCheck(abs, file, diag("error", "file.symlink-escape", `${fileName} is a symbolic link to ${target}, outside the skill folder; it is not read.`));
      }
    } catch {
      return emptyCheck(abs, file, diag("error", "file.unreadable", `${fileName} is a broken symbolic link.`));
    }
  } else if (!st.isFile()) {
    return emptyCheck(abs, file, diag("error", "file.not-a-file", `${fileName} is ${st.isDirectory() ? "a directory" : "not a regular file"}; it must be a Markdown file.`));
  }
  if (size > MAX_SKILL_FILE_BYTES) return emptyCheck(abs, file, tooLarge(size));

  let bytes: Buffer;
  try {
    // O_NOFOLLOW: target is already resolved; O_NONBLOCK: a file swapped for a FIFO cannot hang the loader.
    const flags = fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0) | (fs.constants.O_NOFOLLOW ?? 0);
    bytes = fs.readFileSync(/*turbopackIgnore: true*/ target, { flag: flags as unknown as string }); // numeric flags are accepted at runtime
  } catch (e) {
    return emptyCheck(abs, file, diag("error", "file.unreadable", `${fileName} cannot be read: ${errnoText(e as NodeJS.ErrnoException)}.`));
  }
  if (bytes.length > MAX_SKILL_FILE_BYTES) return emptyCheck(abs, file, tooLarge(bytes.length)); // grew after lstat
  return checkBytes(bytes, null, abs, file, fileName, rules, lookup(), body, hash);
}

/** The error of listing a folder, or null when it can be listed (the extra look a missing SKILL.md costs). */
function unlistable(abs: string): NodeJS.ErrnoException | null {
  try {
    fs.opendirSync(abs).closeSync();
    return null;
  } catch (e) {
    return e as NodeJS.ErrnoException;
  }
}

/** An errno as words a person reads ("permission denied (EACCES)"), the code kept for searching. */
function errnoText(e: NodeJS.ErrnoException): string {
  const words: Record<string, string> = { EACCES: "permission denied", EPERM: "operation not permitted", EIO: "input/output error", ELOOP: "too many symbolic links" };
  const w = e.code ? words[e.code] : undefined;
  return w ? `${w} (${e.code})` : (e.code ?? e.message);
}

function folderUnreadable(abs: string, e: NodeJS.ErrnoException): Diagnostic {
  return diag(
    "error",
    "folder.unreadable",
    `Cannot read ${abs}: ${errnoText(e)}. Its SKILL.md, and any skill folders in it, cannot be checked or loaded; ` +
      "give the user running this read and search permission on it (chmod u+rx), or move it out of the skills folder.",
  );
}
