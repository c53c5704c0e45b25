/** A read's frames to bytes without allocating a buffer per read: chunks are cut from a shared slab, as Node's `Buffer.allocUnsafe` cuts small buffers from its pool. */

const utf8 = new TextEncoder();

/**
 * The size of a slab; a chunk larger than this gets a buffer of its own. Node's own pool size: a
 * chunk a slow reader holds keeps its whole slab alive, so a small slab bounds what each held chunk
 * can pin beyond its own bytes (a read as large as `MAX_CHUNK_BYTES` pays one allocation for many
 * events anyway).
 */
const SLAB_BYTES = 8 * 1024;

/** Where the next chunks are cut from; each chunk is the slab's next unused bytes, never written again once handed out. */
let slab = new Uint8Array(SLAB_BYTES);
let used = 0;

/**
 * The UTF-8 bytes of `text`, whose UTF-8 size the caller counted (`size`), as a chunk cut from the
 * current slab (a fresh one when it has no room). An `ArrayBuffer` per read costs more than encoding
 * its text (issue #27); a slab is kept alive by its chunks, so a chunk a reader holds pins at most
 * 8 KiB beyond its own bytes, as a small `Buffer` pins Node's pool. Chunks share a buffer but never overlap, and each is written once, before it
 * is returned: a reader may keep a chunk as long as it likes. A reader that transfers the buffer
 * detaches the slab; the next chunk then starts a fresh one.
 *
 * @example
 * new TextDecoder().decode(encodeChunk("data: 1\n\n", 9)); // "data: 1\n\n"
 */
export function encodeChunk(text: string, size: number): Uint8Array {
  if (size > SLAB_BYTES) return utf8.encode(text);
  if (slab.byteLength === 0 || size > SLAB_BYTES - used) {
    slab = new Uint8Array(SLAB_BYTES);
    used = 0;
  }
  const { written } = utf8.encodeInto(text, slab.subarray(used, used + size));
  if (written !== size) throw new Error(`expected ${size} bytes of UTF-8 for a chunk of ${text.length} characters, but encoded ${written}`);
  const chunk = slab.subarray(used, used + size);
  used += size;
  return chunk;
}
