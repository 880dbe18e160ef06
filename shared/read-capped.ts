/**
 * A stream's bytes, reading no more than `max`: past it the stream is cancelled and `over()` thrown,
 * so a hostile body is never held whole.
 */
export async function readAtMost(
  stream: ReadableStream<Uint8Array> | null,
  max: number,
  over: () => Error,
): Promise<Uint8Array> {
  if (!stream) return new Uint8Array();
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      throw over();
    }
    chunks.push(value);
  }
  return concatBytes(chunks, size);
}

/** The chunks, `size` bytes in all, as one array. */
export function concatBytes(chunks: Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}
