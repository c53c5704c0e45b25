/** A frame held as its SSE text and its exact UTF-8 size, encoded to bytes only when a read takes it (docs/http.md, "Shared frames"). */

const utf8 = new TextEncoder();

/** Where `utf8Size` lets `encodeInto` count, piece by piece for a longer text: written, never read. */
const scratch = new Uint8Array(64 * 1024);

/** Node's `Buffer`, where the runtime has one: its `byteLength` counts natively without a result object (a third of `encodeInto`'s cost). */
const nodeBuffer = (globalThis as { Buffer?: { byteLength(text: string, encoding: "utf8"): number } }).Buffer;

/**
 * The number of bytes `text` takes in UTF-8, exactly what `TextEncoder.encode(text).byteLength`
 * would be, without allocating per call (one `Uint8Array` per frame would cost several times
 * more, issue #27): Node's `Buffer.byteLength` where there is one, else `encodedUtf8Size`.
 *
 * @example
 * utf8Size("é"); // 2
 */
export const utf8Size: (text: string) => number = nodeBuffer === undefined ? encodedUtf8Size : (text) => nodeBuffer.byteLength(text, "utf8");

/**
 * `utf8Size` in any runtime: `encodeInto` a reused buffer counts it, piece by piece for a longer text.
 *
 * @example
 * encodedUtf8Size("😀"); // 4
 */
export function encodedUtf8Size(text: string): number {
  let size = 0;
  let rest = text;
  for (;;) {
    // `encodeInto` stops before a character that does not fit, so `read` never splits a surrogate pair.
    const { read, written } = utf8.encodeInto(rest, scratch);
    size += written;
    if (read === rest.length) return size;
    rest = rest.slice(read);
  }
}

/**
 * One SSE frame as text with its UTF-8 `size`; `bytes` encodes it on first use and keeps that.
 * A read of many frames joins their text and encodes once (`FrameQueue.takeChunk`): one
 * `Uint8Array` per read instead of one per event, which is most of what encoding a frame cost.
 * A `Frame` (by its `bytes`), read-only like every one.
 *
 * @example
 * const frame = new TextFrame('data: {"type":"RUN_STARTED","threadId":"t1","runId":"r1"}\n\n');
 * frame.size; // 61
 */
export class TextFrame {
  /** The UTF-8 bytes of `text`, once something asked for them. */
  private encoded: Uint8Array | undefined;
  /** The bytes `text` takes in UTF-8. */
  readonly size: number;

  constructor(readonly text: string) {
    this.size = utf8Size(text);
  }

  get bytes(): Uint8Array {
    return (this.encoded ??= utf8.encode(this.text));
  }
}

/**
 * The size in bytes of `frame`: a `TextFrame`'s counted size (without encoding it), any other frame's `bytes.byteLength`.
 *
 * @example
 * frameSize({ bytes: new Uint8Array(3) }); // 3
 */
export function frameSize(frame: { readonly bytes: Uint8Array }): number {
  return frame instanceof TextFrame ? frame.size : frame.bytes.byteLength;
}
