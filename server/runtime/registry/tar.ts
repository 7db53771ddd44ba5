// Lists a tar (ustar, pax, GNU long names: tar-stream parses them) held in memory and keeps each file's
// data beside its entry. It never touches the disk: archive.ts checks the whole listing before anyone
// writes a file.
import { extract } from "tar-stream";

export type TarEntryType = "file" | "dir" | "symlink" | "hardlink" | "other";

export interface TarEntry {
  name: string;
  type: TarEntryType;
  size: number;
  mode: number;
  /** The file's bytes (files only). */
  data: Uint8Array | null;
}

export class TarFormatError extends Error {}

const TYPES: Record<string, TarEntryType> = { file: "file", "contiguous-file": "file", directory: "dir", symlink: "symlink", link: "hardlink" };

/** Lists the entries of an uncompressed tar. `maxEntries` bounds the work on hostile input. */
export async function readTar(buf: Uint8Array, maxEntries: number): Promise<TarEntry[]> {
  if (buf.length < 512) throw new TarFormatError(`${buf.length} bytes is too short to be a tar archive`);
  const ex = extract();
  ex.end(Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength));
  const entries: TarEntry[] = [];
  try {
    for await (const entry of ex) {
      if (entries.length >= maxEntries * 3) throw new TarFormatError(`more than ${maxEntries} entries`);
      const h = entry.header;
      const type = TYPES[h.type ?? ""] ?? "other";
      const chunks: Buffer[] = [];
      for await (const chunk of entry) if (type === "file") chunks.push(chunk as Buffer);
      const data = type === "file" ? new Uint8Array(Buffer.concat(chunks)) : null;
      entries.push({ name: h.name, type, size: data?.length ?? 0, mode: h.mode ?? 0, data });
    }
  } catch (e) {
    if (e instanceof TarFormatError) throw e;
    throw new TarFormatError(`not a tar file or corrupted: ${(e as Error).message}`);
  }
  return entries;
}
