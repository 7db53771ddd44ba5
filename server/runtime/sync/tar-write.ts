// A small tar writer (ustar, with a pax header for paths over 100 bytes), the counterpart of the reader in
// registry/tar.ts (tar-stream): enough to stream skill folders to `omniforge sync`, one block at a time.
const BLOCK = 512;
const enc = new TextEncoder();

export interface TarFileIn {
  path: string;
  data: Uint8Array;
  mode: number;
}

function octal(buf: Uint8Array, at: number, width: number, value: number): void {
  const s = value.toString(8).padStart(width - 1, "0");
  buf.set(enc.encode(s), at);
  buf[at + width - 1] = 0;
}

function header(name: string, size: number, mode: number, type: string, mtime: number): Uint8Array {
  const h = new Uint8Array(BLOCK);
  h.set(enc.encode(name).subarray(0, 100), 0);
  octal(h, 100, 8, mode);
  octal(h, 108, 8, 0);
  octal(h, 116, 8, 0);
  octal(h, 124, 12, size);
  octal(h, 136, 12, mtime);
  h.fill(0x20, 148, 156);
  h[156] = type.charCodeAt(0);
  h.set(enc.encode("ustar\u000000"), 257);
  let sum = 0;
  for (const b of h) sum += b;
  const cs = sum.toString(8).padStart(6, "0");
  h.set(enc.encode(cs), 148);
  h[154] = 0;
  h[155] = 0x20;
  return h;
}

const pad = (n: number) => new Uint8Array((BLOCK - (n % BLOCK)) % BLOCK);

function paxRecord(key: string, value: string): Uint8Array {
  const body = ` ${key}=${value}\n`;
  const n = enc.encode(body).length;
  // The length counts its own digits: settle it.
  let len = n + String(n).length;
  while (n + String(len).length !== len) len = n + String(len).length;
  return enc.encode(`${len}${body}`);
}

/** The archive's blocks, one file at a time (a mtime fixed by the caller keeps the bytes reproducible). */
export function* tarBlocks(files: Iterable<TarFileIn>, mtime = 0): Generator<Uint8Array> {
  for (const f of files) {
    if (enc.encode(f.path).length > 100) {
      const rec = paxRecord("path", f.path);
      yield header("PaxHeader", rec.length, 0o644, "x", mtime);
      yield rec;
      yield pad(rec.length);
    }
    yield header(f.path, f.data.length, f.mode, "0", mtime);
    yield f.data;
    yield pad(f.data.length);
  }
  yield new Uint8Array(BLOCK * 2);
}
