// Skill archives (.zip, .tar.gz, .tar), checked completely before anything is written: every entry stays
// inside the target (no "..", absolute paths, drive letters or backslashes), no links of any kind, no
// devices, size and count limits, a compression-ratio guard against bombs, exactly one skill root.
// inspectArchive lists; extractArchive returns the files in memory so any caller can write them to any layer.
// Parsing is yauzl's (zip.ts) and tar-stream's (tar.ts); the checks here are ours and run on the listing.
import zlib from "node:zlib";
import { Gunzip } from "fflate";
import { readTar, TarFormatError, type TarEntry } from "./tar";
import { openZip, type OpenZip, type ZipEntry } from "./zip";
import { concatBytes } from "../bytes";

export type ArchiveFormat = "zip" | "tar.gz" | "tar";

export interface ArchiveLimits {
  maxFileBytes: number;
  maxTotalBytes: number;
  maxFiles: number;
  /** Largest uncompressed/compressed ratio accepted for files (or a whole .tar.gz) above ratioMinBytes. */
  maxRatio: number;
  ratioMinBytes: number;
  maxArchiveBytes: number;
}

const MiB = 1024 * 1024;
export const DEFAULT_ARCHIVE_LIMITS: ArchiveLimits = {
  maxFileBytes: 10 * MiB,
  maxTotalBytes: 50 * MiB,
  maxFiles: 1000,
  maxRatio: 100,
  ratioMinBytes: 1 * MiB,
  maxArchiveBytes: 50 * MiB,
};

export type ArchiveErrorCode =
  | "archive.format"
  | "archive.corrupt"
  | "archive.path"
  | "archive.link"
  | "archive.type"
  | "archive.duplicate"
  | "archive.too-many-files"
  | "archive.file-too-large"
  | "archive.too-large"
  | "archive.ratio"
  | "archive.no-skill"
  | "archive.encrypted";

export class ArchiveError extends Error {
  constructor(
    readonly code: ArchiveErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "ArchiveError";
  }
}

export interface ArchiveFile {
  /** Path relative to the skill root, "/"-separated, already checked. */
  path: string;
  size: number;
  executable: boolean;
}

export interface ArchiveInspection {
  format: ArchiveFormat;
  /** The top folder that holds SKILL.md ("" when SKILL.md is at the top). */
  root: string;
  files: ArchiveFile[];
  totalBytes: number;
  /** Entries left out on purpose (macOS resource forks), for the report. */
  skipped: string[];
}

export interface ExtractedArchive extends ArchiveInspection {
  contents: Map<string, Uint8Array>;
}

interface RawEntry {
  name: string;
  /** CRC-32 from the zip central directory (zip only). */
  crc?: number;
  type: "file" | "dir" | "symlink" | "hardlink" | "other";
  size: number;
  compressedSize?: number;
  mode: number;
  /** Index in the container (zip central directory order / tar entry order). */
  index: number;
}

/** Recognises an archive by its bytes (and the file name as a hint), or returns null. */
export function detectArchiveFormat(bytes: Uint8Array, fileName = ""): ArchiveFormat | null {
  if (bytes[0] === 0x50 && bytes[1] === 0x4b && (bytes[2] === 3 || bytes[2] === 5)) return "zip";
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) return "tar.gz";
  if (bytes.length >= 262 && String.fromCharCode(...bytes.subarray(257, 262)) === "ustar") return "tar";
  if (/\.tar$/i.test(fileName) && bytes.length % 512 === 0) return "tar";
  return null;
}

/** Checks one entry name and returns it normalised ("a/b"), "" for the archive's own top (e.g. "./"). */
/**
 * Control characters, line and paragraph separators and bidi overrides in a file name: a newline forges lines in
 * every listing that prints it, an escape sequence drives the terminal of whoever lists the folder (sync copies
 * the files into agents' folders), and a right-to-left override makes "txt.exe" read as "exe.txt".
 */
const UNPRINTABLE_NAME = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

/** Whether a file name holds such a character (the same rule for imports, writes, the catalog and sync). */
export const hasUnprintableName = (name: string): boolean => UNPRINTABLE_NAME.test(name);

export function safeEntryPath(name: string): string {
  if (name.includes("\0")) throw new ArchiveError("archive.path", `entry name contains a NUL byte: ${JSON.stringify(name)}`);
  if (UNPRINTABLE_NAME.test(name)) {
    throw new ArchiveError("archive.path", `entry ${JSON.stringify(name)} has a control or direction character in its name; rename the file`);
  }
  if (name.includes("\\")) {
    throw new ArchiveError("archive.path", `entry "${name}" uses backslashes; archives must use "/" (refused: could escape on Windows)`);
  }
  if (/^[A-Za-z]:/.test(name)) throw new ArchiveError("archive.path", `entry "${name}" has a drive letter; only relative paths are allowed`);
  if (name.startsWith("/")) throw new ArchiveError("archive.path", `entry "${name}" is an absolute path; only relative paths are allowed`);
  const segments = name.split("/").filter((s) => s !== "" && s !== ".");
  if (segments.includes("..")) throw new ArchiveError("archive.path", `entry "${name}" climbs out of the archive with ".." (zip-slip)`);
  return segments.join("/");
}

// ---------- zip ----------

async function zipEntries(bytes: Uint8Array, limits: ArchiveLimits): Promise<{ zip: OpenZip; entries: ZipEntry[] }> {
  let zip: OpenZip;
  let entries: ZipEntry[];
  try {
    zip = await openZip(bytes);
    if (zip.entryCount > limits.maxFiles * 2) {
      throw new ArchiveError("archive.too-many-files", `the archive has ${zip.entryCount} entries; the limit is ${limits.maxFiles} files`);
    }
    entries = await zip.entries();
  } catch (e) {
    if (e instanceof ArchiveError) throw e;
    throw new ArchiveError("archive.corrupt", `not a zip file or damaged: ${(e as Error).message}`);
  }
  for (const e of entries) {
    if (e.encrypted) throw new ArchiveError("archive.encrypted", `entry "${e.name}" is encrypted; encrypted archives are not supported`);
    if (e.type === "file" && e.method !== 0 && e.method !== 8) {
      throw new ArchiveError("archive.format", `entry "${e.name}" uses compression method ${e.method}; only stored and deflate are supported`);
    }
  }
  return { zip, entries };
}

// ---------- tar.gz ----------

/** Streams gunzip in small slices and stops as soon as the output passes the budget (no bomb ever fits in memory). */
function gunzipGuarded(bytes: Uint8Array, limits: ArchiveLimits): Uint8Array {
  const budget = limits.maxTotalBytes + (limits.maxFiles * 2 + 16) * 1024;
  const chunks: Uint8Array[] = [];
  let total = 0;
  const ratioError = () =>
    new ArchiveError(
      "archive.ratio",
      `the archive expands more than ${limits.maxRatio}x (${bytes.length} bytes compressed); refused as a possible zip bomb`,
    );
  const g = new Gunzip((chunk) => {
    total += chunk.length;
    if (total > budget) {
      throw new ArchiveError("archive.too-large", `the archive expands beyond ${limits.maxTotalBytes} bytes; refused`);
    }
    if (total > limits.ratioMinBytes && total / bytes.length > limits.maxRatio) throw ratioError();
    chunks.push(chunk);
  });
  const SLICE = 4096; // at most ~4 MiB of output per push, even at deflate's maximum ratio
  try {
    if (bytes.length === 0) throw new Error("empty file");
    for (let i = 0; i < bytes.length; i += SLICE) g.push(bytes.subarray(i, i + SLICE), i + SLICE >= bytes.length);
  } catch (e) {
    if (e instanceof ArchiveError) throw e;
    throw new ArchiveError("archive.corrupt", `the gzip data is damaged: ${(e as Error).message}`);
  }
  return concatBytes(chunks);
}

async function tarEntries(tar: Uint8Array, limits: ArchiveLimits): Promise<TarEntry[]> {
  try {
    return await readTar(tar, limits.maxFiles);
  } catch (e) {
    if (e instanceof TarFormatError) {
      if (e.message.startsWith("more than")) {
        throw new ArchiveError("archive.too-many-files", `the archive has ${e.message}; the limit is ${limits.maxFiles} files`);
      }
      throw new ArchiveError("archive.corrupt", e.message);
    }
    throw e;
  }
}

// ---------- shared checks ----------

/** All safety checks on a listing. Returns the files (relative to the skill root) and the root. */
function checkListing(format: ArchiveFormat, raw: RawEntry[], limits: ArchiveLimits): ArchiveInspection & { picked: Map<number, string> } {
  const skipped: string[] = [];
  const files: (ArchiveFile & { index: number; full: string })[] = [];
  const seen = new Map<string, "file" | "dir">();
  let total = 0;
  for (const r of raw) {
    const full = safeEntryPath(r.name);
    if (r.type === "symlink" || r.type === "hardlink") {
      throw new ArchiveError("archive.link", `entry "${r.name}" is a ${r.type === "symlink" ? "symbolic" : "hard"} link; links are refused in skill archives`);
    }
    if (r.type === "other") throw new ArchiveError("archive.type", `entry "${r.name}" is a device, FIFO or other special file; refused`);
    if (full === "" ) continue;
    if (full === "__MACOSX" || full.startsWith("__MACOSX/")) {
      skipped.push(r.name);
      continue;
    }
    if (r.type === "dir") {
      if (seen.get(full) === "file") throw new ArchiveError("archive.duplicate", `"${full}" is both a file and a folder`);
      seen.set(full, "dir");
      continue;
    }
    if (seen.has(full)) throw new ArchiveError("archive.duplicate", `"${full}" appears twice in the archive`);
    seen.set(full, "file");
    if (files.length + 1 > limits.maxFiles) {
      throw new ArchiveError("archive.too-many-files", `the archive has more than ${limits.maxFiles} files`);
    }
    if (r.size > limits.maxFileBytes) {
      throw new ArchiveError("archive.file-too-large", `"${full}" is ${r.size} bytes; the limit is ${limits.maxFileBytes} bytes per file`);
    }
    total += r.size;
    if (total > limits.maxTotalBytes) {
      throw new ArchiveError("archive.too-large", `the files add up to more than ${limits.maxTotalBytes} bytes uncompressed`);
    }
    if (r.compressedSize !== undefined && r.size > limits.ratioMinBytes && r.size / Math.max(1, r.compressedSize) > limits.maxRatio) {
      throw new ArchiveError(
        "archive.ratio",
        `"${full}" expands ${Math.round(r.size / Math.max(1, r.compressedSize))}x (${r.compressedSize} -> ${r.size} bytes); refused as a possible zip bomb`,
      );
    }
    files.push({ path: full, full, size: r.size, executable: (r.mode & 0o111) !== 0, index: r.index });
  }
  // A path used as a folder by one entry and as a file by another would fail half-way through writing.
  for (const f of files) {
    const parts = f.full.split("/");
    for (let i = 1; i < parts.length; i++) {
      if (seen.get(parts.slice(0, i).join("/")) === "file") {
        throw new ArchiveError("archive.duplicate", `"${parts.slice(0, i).join("/")}" is both a file and a folder`);
      }
    }
  }
  let root = "";
  if (!files.some((f) => f.full === "SKILL.md")) {
    const tops = new Set(files.map((f) => f.full.split("/")[0]!));
    const [top] = [...tops];
    if (tops.size !== 1 || !files.some((f) => f.full === `${top}/SKILL.md`)) {
      throw new ArchiveError(
        "archive.no-skill",
        tops.size > 1
          ? `the archive must hold one skill: SKILL.md at the top or in a single top folder (found ${tops.size} top-level entries and no SKILL.md at the top)`
          : "the archive has no SKILL.md at the top or in its top folder",
      );
    }
    root = `${top}/`;
  }
  const picked = new Map<number, string>();
  for (const f of files) {
    f.path = f.full.slice(root.length);
    picked.set(f.index, f.path);
  }
  return {
    format,
    root,
    files: files.map(({ path, size, executable }) => ({ path, size, executable })),
    totalBytes: total,
    skipped,
    picked,
  };
}

function checkSize(bytes: Uint8Array, limits: ArchiveLimits): void {
  if (bytes.length > limits.maxArchiveBytes) {
    throw new ArchiveError("archive.too-large", `the archive is ${bytes.length} bytes; the limit is ${limits.maxArchiveBytes} bytes`);
  }
}

/** Lists and checks an archive without extracting it (a .tar.gz is decompressed in memory, within the limits). */
export async function inspectArchive(bytes: Uint8Array, format: ArchiveFormat, limits: ArchiveLimits = DEFAULT_ARCHIVE_LIMITS): Promise<ArchiveInspection> {
  const { format: f, root, files, totalBytes, skipped } = await listArchive(bytes, format, limits);
  return { format: f, root, files, totalBytes, skipped };
}

async function listArchive(bytes: Uint8Array, format: ArchiveFormat, limits: ArchiveLimits) {
  checkSize(bytes, limits);
  if (format === "zip") {
    const { zip, entries } = await zipEntries(bytes, limits);
    const listing = checkListing(format, entries, limits);
    // The whole zip's ratio too, as a .tar.gz's: many files each under ratioMinBytes (49 of 1 MiB of zeros in a
    // 55 KB zip) pass the per-file check one by one.
    if (listing.totalBytes > limits.ratioMinBytes && listing.totalBytes / Math.max(1, bytes.length) > limits.maxRatio) {
      throw new ArchiveError(
        "archive.ratio",
        `the files expand ${Math.round(listing.totalBytes / Math.max(1, bytes.length))}x (${bytes.length} -> ${listing.totalBytes} bytes); refused as a possible zip bomb`,
      );
    }
    return { ...listing, read: (index: number) => zip.read(index), crcs: entries };
  }
  const tar = format === "tar.gz" ? gunzipGuarded(bytes, limits) : bytes;
  const entries = await tarEntries(tar, limits);
  const raw = entries.map((t, index): RawEntry => ({ name: t.name, type: t.type, size: t.size, mode: t.mode, index }));
  return { ...checkListing(format, raw, limits), read: async (index: number) => entries[index]!.data!, crcs: [] as RawEntry[] };
}

/** Checks the whole archive, then returns its files in memory (paths relative to the skill root). */
export async function extractArchive(bytes: Uint8Array, format: ArchiveFormat, limits: ArchiveLimits = DEFAULT_ARCHIVE_LIMITS): Promise<ExtractedArchive> {
  const { picked, read, crcs, ...inspection } = await listArchive(bytes, format, limits);
  const contents = new Map<string, Uint8Array>();
  for (const [index, rel] of picked) {
    try {
      contents.set(rel, await read(index));
    } catch (e) {
      // yauzl fails an entry whose data is longer or shorter than its header says.
      throw new ArchiveError("archive.corrupt", `"${rel}" is damaged: ${(e as Error).message}`);
    }
  }
  const crcByPath = new Map<string, number>();
  for (const r of crcs) {
    const rel = picked.get(r.index);
    if (rel !== undefined && r.crc !== undefined) crcByPath.set(rel, r.crc);
  }
  for (const f of inspection.files) {
    const data = contents.get(f.path);
    if (!data || data.length !== f.size) {
      throw new ArchiveError("archive.corrupt", `"${f.path}" does not decompress to its declared size (${f.size} bytes)`);
    }
    // yauzl does not check CRC-32: a file altered after the directory was written shows here.
    const crc = crcByPath.get(f.path);
    if (crc !== undefined && zlib.crc32(data) >>> 0 !== crc) {
      throw new ArchiveError("archive.corrupt", `"${f.path}" fails its CRC-32 check: the archive is damaged or was tampered with`);
    }
  }
  return { ...inspection, contents };
}
