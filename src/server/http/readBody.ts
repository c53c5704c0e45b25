/** Reads a request body with a size limit enforced while the bytes arrive. */

/** The body's bytes, or the fact that it went over the limit (nothing past the limit is kept). */
export type BodyRead = { readonly kind: "ok"; readonly bytes: Uint8Array } | { readonly kind: "too-large"; readonly limit: number };

/**
 * Reads `request.body` to the end, failing as soon as more than `limit` bytes have arrived (the
 * rest is cancelled, never buffered), so a huge or endless upload costs at most `limit` bytes of
 * memory. A request without a body reads as zero bytes.
 *
 * @example
 * const read = await readBody(request, 10 * 1024 * 1024);
 * if (read.kind === "too-large") return errorResponse(413, …);
 */
export async function readBody(request: Request, limit: number): Promise<BodyRead> {
  if (request.body === null) return { kind: "ok", bytes: new Uint8Array(0) };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      // Stop the upload here: the sender learns it was refused instead of pushing the rest.
      reader.cancel().catch(() => undefined);
      return { kind: "too-large", limit };
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return { kind: "ok", bytes: chunks[0] };
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { kind: "ok", bytes };
}
