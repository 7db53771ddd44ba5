// Byte helpers for code that collects a stream in chunks while counting it against a limit.

/** The chunks joined in one new array with its own buffer (offset 0), unlike Buffer.concat's pooled slices. */
export function concatBytes(chunks: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.byteLength, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}
