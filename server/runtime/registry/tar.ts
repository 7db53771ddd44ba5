// A small tar reader (ustar, pax extended headers, GNU long names) that only lists entries and slices their
// data out of an in-memory buffer. It never touches the disk: safety checks happen on the listing first.
export type TarEntryType = "file" | "dir" | "symlink" | "hardlink" | "other";

export interface TarEntry {
  name: string;
  type: TarEntryType;
  size: number;
  mode: number;
  linkName: string;
  /** Offset of the data in the buffer. */
  offset: number;
}

export class TarFormatError extends Error {}

const BLOCK = 512;
const decoder = new TextDecoder("utf-8");

function cString(buf: Uint8Array, start: number, length: number): string {
  const field = buf.subarray(start, start + length);
  const nul = field.indexOf(0);
  return decoder.decode(nul === -1 ? field : field.subarray(0, nul));
}

/** Octal ASCII (space/NUL padded), or GNU base-256 when the high bit of the first byte is set. */
function numeric(buf: Uint8Array, start: number, length: number): number {
  const field = buf.subarray(start, start + length);
  if (field[0]! & 0x80) {
    let value = field[0]! & 0x7f;
    for (let i = 1; i < field.length; i++) value = value * 256 + field[i]!;
    return value;
  }
  const text = cString(buf, start, length).trim();
  if (text === "") return 0;
  if (!/^[0-7]+$/.test(text)) throw new TarFormatError(`bad numeric field "${text}" in a tar header`);
  return parseInt(text, 8);
}

function checksumOk(h: Uint8Array): boolean {
  const stored = numeric(h, 148, 8);
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : h[i]!;
  return sum === stored;
}

/** pax records: "<len> <key>=<value>\n", len counting the whole record. */
function parsePax(data: Uint8Array): Record<string, string> {
  const out: Record<string, string> = {};
  let pos = 0;
  while (pos < data.length) {
    const space = data.indexOf(0x20, pos);
    if (space === -1) break;
    const len = parseInt(decoder.decode(data.subarray(pos, space)), 10);
    if (!Number.isFinite(len) || len <= 0 || pos + len > data.length) throw new TarFormatError("bad pax record");
    const record = decoder.decode(data.subarray(space + 1, pos + len - 1));
    const eq = record.indexOf("=");
    if (eq > 0) out[record.slice(0, eq)] = record.slice(eq + 1);
    pos += len;
  }
  return out;
}

const TYPES: Record<string, TarEntryType> = { "0": "file", "\0": "file", "7": "file", "5": "dir", "1": "hardlink", "2": "symlink" };

/** Lists the entries of an uncompressed tar. `maxEntries` bounds the work on hostile input. */
export function readTar(buf: Uint8Array, maxEntries: number): TarEntry[] {
  const entries: TarEntry[] = [];
  let pax: Record<string, string> | null = null;
  let longName: string | null = null;
  let longLink: string | null = null;
  let off = 0;
  let headers = 0;
  if (buf.length < BLOCK) throw new TarFormatError(`${buf.length} bytes is too short to be a tar archive`);
  while (off + BLOCK <= buf.length) {
    const h = buf.subarray(off, off + BLOCK);
    if (h.every((b) => b === 0)) break; // end of archive
    if (++headers > maxEntries * 3) throw new TarFormatError(`more than ${maxEntries} entries`);
    if (!checksumOk(h)) throw new TarFormatError(`bad header checksum at offset ${off}: not a tar file or corrupted`);
    const typeFlag = String.fromCharCode(h[156]!);
    let size = numeric(h, 124, 12);
    if ((typeFlag === "0" || typeFlag === "\0" || typeFlag === "7") && pax?.size !== undefined) {
      size = parseInt(pax.size, 10);
      if (!Number.isFinite(size) || size < 0) throw new TarFormatError("bad pax size");
    }
    const dataStart = off + BLOCK;
    if (dataStart + size > buf.length) throw new TarFormatError("the archive is truncated");
    const data = buf.subarray(dataStart, dataStart + size);
    off = dataStart + Math.ceil(size / BLOCK) * BLOCK;
    if (typeFlag === "x") {
      pax = parsePax(data);
      continue;
    }
    if (typeFlag === "g") continue; // global pax defaults carry nothing we use
    if (typeFlag === "L") {
      longName = cString(data, 0, data.length);
      continue;
    }
    if (typeFlag === "K") {
      longLink = cString(data, 0, data.length);
      continue;
    }
    const magic = cString(h, 257, 6);
    const prefix = magic.startsWith("ustar") ? cString(h, 345, 155) : "";
    const headerName = prefix ? `${prefix}/${cString(h, 0, 100)}` : cString(h, 0, 100);
    entries.push({
      name: pax?.path ?? longName ?? headerName,
      type: TYPES[typeFlag] ?? "other",
      size: TYPES[typeFlag] === "file" ? size : 0,
      mode: numeric(h, 100, 8),
      linkName: pax?.linkpath ?? longLink ?? cString(h, 157, 100),
      offset: dataStart,
    });
    pax = longName = longLink = null;
  }
  return entries;
}
