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

/**
 * A stream's bytes, read only while they stay within `limit`: past it the stream is cancelled and null is returned,
 * so an answer that never ends (or is far larger than any real one) costs at most `limit` bytes of memory.
 * `onChunk` is told of each chunk (a read timeout starts again).
 */
export async function readStreamWithin(stream: ReadableStream<Uint8Array> | null, limit: number, onChunk?: () => void): Promise<Uint8Array | null> {
  if (!stream) return new Uint8Array(0);
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    onChunk?.();
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  return concatBytes(chunks);
}
