/** One Server-Sent Events frame as the reader hands it on (docs/wire.md#6): what lies between two blank lines. */

/**
 * One dispatched SSE event block: its joined `data:` lines and, when the block had them, `id:` and `event:`.
 *
 * @example
 * // "event: update\nid: 7\ndata: a\ndata: b\n\n" is the frame
 * const frame: SseFrame = { event: "update", id: "7", data: "a\nb" };
 */
export interface SseFrame {
  /** The value of this frame's own `id:` line (not carried over from earlier frames). */
  readonly id?: string;
  /** The value of this frame's `event:` line, as written. */
  readonly event?: string;
  /** The frame's `data:` lines joined with `\n`. */
  readonly data: string;
}
