// Reads a zip held in memory with yauzl: the central directory first (archive.ts checks the whole listing),
// then the data of the entries it picked. yauzl is asked for raw names, so archive.ts's path checks (not
// yauzl's own, which would rewrite backslashes) judge every name.
import { Readable } from "node:stream";
import yauzl from "yauzl";

export interface ZipEntry {
  name: string;
  type: "file" | "dir" | "symlink" | "other";
  size: number;
  compressedSize: number;
  crc: number;
  mode: number;
  /** Central directory order. */
  index: number;
  encrypted: boolean;
  /** Compression method: 0 stored, 8 deflate. */
  method: number;
}

export interface OpenZip {
  entryCount: number;
  /** The central directory, read whole. */
  entries(): Promise<ZipEntry[]>;
  /** One entry's data; yauzl fails the stream when it is longer or shorter than declared. */
  read(index: number): Promise<Uint8Array>;
}

const latin1 = (b: Buffer) => b.toString("latin1");

/** Opens a zip; a file that is not one rejects with yauzl's reason. */
export async function openZip(bytes: Uint8Array): Promise<OpenZip> {
  const zip = await yauzl.fromBufferPromise(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), {
    lazyEntries: true,
    decodeStrings: false,
    validateEntrySizes: true,
  });
  const raw: yauzl.Entry[] = [];
  let listing: Promise<ZipEntry[]> | null = null;
  const entries = () =>
    (listing ??= new Promise<ZipEntry[]>((resolve, reject) => {
      zip.on("entry", (e: yauzl.Entry) => {
        raw.push(e);
        zip.readEntry();
      });
      zip.on("end", () => resolve(raw.map(describe)));
      zip.on("error", reject);
      zip.readEntry();
    }));
  return {
    entryCount: zip.entryCount,
    entries,
    async read(index) {
      const stream: Readable = await zip.openReadStreamPromise(raw[index]!);
      const chunks: Buffer[] = [];
      for await (const c of stream) chunks.push(c as Buffer);
      return new Uint8Array(Buffer.concat(chunks));
    },
  };
}

function describe(e: yauzl.Entry, index: number): ZipEntry {
  const nameBytes = e.fileName as unknown as Buffer; // decodeStrings: false gives the raw bytes
  // UTF-8 when the entry says so, else one character per byte (what the zip tools of old wrote).
  const name = e.generalPurposeBitFlag & 0x800 ? nameBytes.toString("utf8") : latin1(nameBytes);
  const attrs = e.externalFileAttributes >>> 0;
  const unixMode = e.versionMadeBy >> 8 === 3 ? attrs >>> 16 : 0;
  const fmt = unixMode & 0o170000;
  let type: ZipEntry["type"] = "file";
  if (fmt === 0o120000) type = "symlink";
  else if (name.endsWith("/") || fmt === 0o040000 || attrs & 0x10) type = "dir";
  else if (fmt !== 0 && fmt !== 0o100000) type = "other";
  return {
    name,
    type,
    size: e.uncompressedSize,
    compressedSize: e.compressedSize,
    crc: e.crc32 >>> 0,
    mode: unixMode & 0o777,
    index,
    encrypted: (e.generalPurposeBitFlag & 1) !== 0,
    method: e.compressionMethod,
  };
}
