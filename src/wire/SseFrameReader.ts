import { DecodeError } from "./DecodeError";
import type { SseFrame } from "./SseFrame";

const LF = 0x0a;
const CR = 0x0d;
const COLON = 0x3a;
const SPACE = 0x20;
const BOM = 0xfeff;

/**
 * What the reader reports besides frames: the SSE fields a reconnecting client needs. Both are
 * optional; a reader without them parses `id:` and `retry:` as before (the frame's own `id`).
 *
 * @example
 * const fields: SseFieldHandlers = { onId: (id) => (lastEventId = id), onRetry: (ms) => (retryMs = ms) };
 */
export interface SseFieldHandlers {
  /**
   * A block with an `id:` line was dispatched (its blank line arrived), with data or without: the
   * stream's last event ID is now `id` (`""` for an empty `id:` line, which clears it). Called
   * before the block's frame, if it has one. Ids with NUL are ignored, as the spec says.
   */
  readonly onId?: (id: string) => void;
  /** A `retry:` line of ASCII digits arrived: the reconnection time in ms. Other values are ignored (spec). */
  readonly onRetry?: (ms: number) => void;
}

/** Whether `text` has `data:` at `pos`; compared by character codes, which V8 inlines (a `startsWith` call it does not). */
function startsWithData(text: string, pos: number): boolean {
  return (
    text.charCodeAt(pos) === 0x64 && // d
    text.charCodeAt(pos + 1) === 0x61 && // a
    text.charCodeAt(pos + 2) === 0x74 && // t
    text.charCodeAt(pos + 3) === 0x61 && // a
    text.charCodeAt(pos + 4) === COLON
  );
}

/** Whether `text` has `id:` at `pos` (see `startsWithData`). */
function startsWithId(text: string, pos: number): boolean {
  return text.charCodeAt(pos) === 0x69 && text.charCodeAt(pos + 1) === 0x64 && text.charCodeAt(pos + 2) === COLON; // i d :
}

/** The value of a field line that starts at `pos` with a name `nameLength` long and its colon, up to `end` (one leading space stripped). */
function fieldValue(text: string, pos: number, nameLength: number, end: number): string {
  const start = text.charCodeAt(pos + nameLength + 1) === SPACE ? pos + nameLength + 2 : pos + nameLength + 1;
  return text.slice(start, end);
}

/**
 * The pure step of `decodeSseFrames()`: splits decoded text, fed in pieces, into SSE frames (the
 * HTML "event stream" interpretation): lines end at LF, CR or CRLF; a blank line dispatches the
 * frame to `emit`. Each `feed` scans only the new text: an unfinished line is kept as a list of
 * pieces and joined once, when its end arrives, so a large frame delivered in many chunks costs
 * linear time, and the frame-size limit is checked before anything is kept. With `fields`, it also
 * reports the stream's last event ID at every dispatched block that set one (data or not) and each
 * `retry:` value (eventsource-parser's `onId`/`onRetry`); `reset()` starts over for a new body (a
 * reconnect). Not re-exported from the package root; use `decodeSseFrames()`.
 *
 * @example
 * const frames: SseFrame[] = [];
 * const reader = new SseFrameReader(1024, (frame) => frames.push(frame), () => false);
 * reader.feed("data: a\r");
 * reader.feed("\n\r\n");
 * // frames: [{ data: "a" }]
 */
export class SseFrameReader {
  /** Pieces of the line whose end has not arrived yet. */
  private pieces: string[] = [];
  /** Characters of the current frame so far (finished lines and pieces, line ends not counted). */
  private size = 0;
  private data: string[] | undefined;
  private id: string | undefined;
  private event: string | undefined;
  /** The previous text ended in CR: an LF at the start of the next one belongs to that line end. */
  private afterCR = false;
  private atStart = true;

  constructor(
    private readonly max: number,
    private readonly emit: (frame: SseFrame) => void,
    private readonly closed: () => boolean,
    private readonly fields: SseFieldHandlers = {},
  ) {}

  /** Consumes decoded text; returns an error as soon as the current frame passes the limit. */
  feed(text: string): DecodeError | undefined {
    const length = text.length;
    if (length === 0) return undefined;
    let pos = 0;
    if (this.atStart) {
      this.atStart = false;
      if (text.charCodeAt(0) === BOM) pos = 1; // a byte-order mark may open the stream (spec)
    }
    if (this.afterCR) {
      this.afterCR = false;
      if (text.charCodeAt(pos) === LF) pos++;
    }
    // Next LF and CR at or after `pos`; -1 once there is none left, so each is searched for once per position.
    let lf = -2;
    let cr = -2;
    while (pos < length && !this.closed()) {
      if (lf !== -1 && lf < pos) lf = text.indexOf("\n", pos);
      if (cr !== -1 && cr < pos) cr = text.indexOf("\r", pos);
      // The fast path for the shape nearly every producer sends: a whole frame of one `data: `
      // line ending in LF LF, at the start of a frame with nothing buffered. It emits the value
      // straight away, without the line, field and data-line list the general path builds (about
      // a fifth of the decoding time per event). Anything else takes the general path below.
      if (
        lf !== -1 &&
        (cr === -1 || cr > lf) &&
        text.charCodeAt(lf + 1) === LF &&
        this.size === 0 && // nothing of this frame yet: no earlier line, no comment, no id or event
        this.pieces.length === 0 &&
        startsWithData(text, pos)
      ) {
        if (lf - pos > this.max) {
          this.size = lf - pos;
          return this.tooLarge();
        }
        const data = fieldValue(text, pos, 4, lf);
        pos = lf + 2;
        this.emit({ data });
        continue;
      }
      // The same for `id: <cursor>` then one `data: ` line, what a store-backed server sends.
      if (lf !== -1 && (cr === -1 || cr > lf) && this.size === 0 && this.pieces.length === 0 && startsWithId(text, pos) && startsWithData(text, lf + 1)) {
        const next = text.indexOf("\n", lf + 1);
        if (next !== -1 && (cr === -1 || cr > next) && text.charCodeAt(next + 1) === LF) {
          if (lf - pos + next - lf - 1 > this.max) {
            this.size = lf - pos + next - lf - 1;
            return this.tooLarge();
          }
          const id = fieldValue(text, pos, 2, lf);
          const data = fieldValue(text, lf + 1, 4, next);
          pos = next + 2;
          if (id.includes("\0")) this.emit({ data });
          else {
            this.fields.onId?.(id);
            if (!this.closed()) this.emit({ id, data });
          }
          continue;
        }
      }
      const end = lf === -1 ? cr : cr === -1 ? lf : Math.min(lf, cr);
      if (end === -1) {
        if (!this.grow(length - pos)) return this.tooLarge();
        this.pieces.push(pos === 0 ? text : text.slice(pos));
        return undefined;
      }
      if (!this.grow(end - pos)) return this.tooLarge();
      let line = text.slice(pos, end);
      if (this.pieces.length > 0) {
        this.pieces.push(line);
        line = this.pieces.join("");
        this.pieces = [];
      }
      pos = end + 1;
      if (text.charCodeAt(end) === CR) {
        if (pos === length) this.afterCR = true;
        else if (text.charCodeAt(pos) === LF) pos++;
      }
      this.line(line);
    }
    return undefined;
  }

  /**
   * The stream ended. A frame is dispatched only by the blank line that ends it, so a last frame
   * without one is discarded, as the SSE spec says ("if the file ends in the middle of an event,
   * the incomplete event is not dispatched"). Returns the discarded frame's data when it had any
   * (a last line without its line end counts as a line), so the caller can report the truncation.
   */
  finish(): { readonly data: string } | undefined {
    if (this.pieces.length > 0) {
      const line = this.pieces.join("");
      this.pieces = [];
      this.line(line);
    }
    const data = this.data;
    this.clear();
    this.id = undefined;
    this.event = undefined;
    return data === undefined ? undefined : { data: data.join("\n") };
  }

  /** Drops everything buffered (after an error or unsubscription). */
  clear(): void {
    this.pieces = [];
    this.data = undefined;
    this.size = 0;
  }

  /**
   * Starts over as for a new body (a reconnect's response): nothing buffered, the next text may
   * open with a byte-order mark. The last event ID is the caller's to keep (the spec keeps it
   * across connections); the reader holds none.
   */
  reset(): void {
    this.clear();
    this.id = undefined;
    this.event = undefined;
    this.afterCR = false;
    this.atStart = true;
  }

  private grow(characters: number): boolean {
    this.size += characters;
    return this.size <= this.max;
  }

  private tooLarge(): DecodeError {
    const arrived = this.size;
    this.clear();
    return new DecodeError(
      "frame-too-large",
      `SSE frame too large: expected at most ${this.max} characters before the blank line that ends a frame, ` +
        `got ${arrived} and no end yet (raise maxFrameBytes if the producer sends frames this large)`,
      undefined,
      "",
      `a frame of at most ${this.max} characters`,
      arrived,
    );
  }

  private line(line: string): void {
    if (line.length === 0) return this.dispatch();
    if (line.charCodeAt(0) === COLON) return; // a comment (keep-alive)
    const colon = line.indexOf(":");
    let field = line;
    let value = "";
    if (colon !== -1) {
      field = line.slice(0, colon);
      const start = line.charCodeAt(colon + 1) === SPACE ? colon + 2 : colon + 1;
      value = line.slice(start);
    }
    switch (field) {
      case "data":
        (this.data ??= []).push(value);
        break;
      case "event":
        this.event = value;
        break;
      case "id":
        if (!value.includes("\0")) this.id = value; // the spec ignores ids containing NUL
        break;
      case "retry":
        if (/^[0-9]+$/.test(value)) this.fields.onRetry?.(Number(value)); // anything but ASCII digits is ignored (spec)
        break;
      // unknown fields are tolerated and ignored.
    }
  }

  private dispatch(): void {
    const { data, id, event } = this;
    this.data = undefined;
    this.id = undefined;
    this.event = undefined;
    this.size = 0;
    if (id !== undefined) this.fields.onId?.(id); // the last event ID is set at dispatch, data or not (spec)
    if (data === undefined || this.closed()) return; // a frame without data lines (e.g. only comments) is skipped
    const frame: { id?: string; event?: string; data: string } = { data: data.length === 1 ? data[0] : data.join("\n") };
    if (id !== undefined) frame.id = id;
    if (event !== undefined) frame.event = event;
    this.emit(frame);
  }
}
