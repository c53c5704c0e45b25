/** Reads a request body with a size limit enforced while the bytes arrive. */

/** The body's bytes, that it went over the limit (nothing past the limit is kept), or that it took too long. */
export type BodyRead =
  { readonly kind: "ok"; readonly bytes: Uint8Array } | { readonly kind: "too-large"; readonly limit: number } | { readonly kind: "timeout" };

/**
 * Reads `request.body` to the end, failing as soon as more than `limit` bytes have arrived (the
 * rest is cancelled, never buffered), so a huge or endless upload costs at most `limit` bytes of
 * memory; and failing with `timeout` when `deadline` aborts first (the upload is cancelled too),
 * so a body that never finishes cannot hold the request forever. A request without a body reads
 * as zero bytes.
 *
 * @example
 * const read = await readBody(request, 10 * 1024 * 1024, AbortSignal.timeout(30_000));
 * if (read.kind === "too-large") return errorResponse(413, …);
 */
export async function readBody(request: Request, limit: number, deadline?: AbortSignal): Promise<BodyRead> {
  if (request.body === null) return { kind: "ok", bytes: new Uint8Array(0) };
  const reader = request.body.getReader();
  // Stop the upload here: the sender learns it was refused instead of pushing the rest.
  const stop = (): void => void reader.cancel().catch(() => undefined);
  if (deadline?.aborted) {
    stop();
    return { kind: "timeout" };
  }
  let onDeadline: (() => void) | undefined;
  const expired = new Promise<"timeout">((resolve) => {
    onDeadline = () => resolve("timeout");
    deadline?.addEventListener("abort", onDeadline, { once: true });
  });
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const next = await Promise.race([reader.read(), expired]);
      if (next === "timeout") {
        stop();
        return { kind: "timeout" };
      }
      if (next.done) break;
      size += next.value.byteLength;
      if (size > limit) {
        stop();
        return { kind: "too-large", limit };
      }
      chunks.push(next.value);
    }
  } finally {
    if (onDeadline) deadline?.removeEventListener("abort", onDeadline);
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
