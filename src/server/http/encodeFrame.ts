/** One event as the UTF-8 bytes of its SSE frame, with its cursor as the `id:` (docs/http.md, "Shared frames"). */
import type { Event } from "../../protocol/events";
import { excerpt } from "../../protocol/describeFailure";
import { encodeSse } from "../../wire/encodeSse";
import { TextFrame } from "./TextFrame";

const utf8 = new TextEncoder();

/**
 * Encodes `event` as one SSE frame in UTF-8: `id: <cursor>\n` first when there is a cursor, then
 * `data: <json>\n\n`. Throws an `Error` saying what was wrong when the event cannot be encoded as
 * JSON (a cycle, a `BigInt`) or the cursor cannot be an SSE id (an id line ends at the first CR
 * or LF, and one with NUL is ignored).
 *
 * @example
 * new TextDecoder().decode(encodeFrame(ev.runStarted("t1", "r1"), "c7"));
 * // 'id: c7\ndata: {"type":"RUN_STARTED","threadId":"t1","runId":"r1"}\n\n'
 */
export function encodeFrame(event: Event, cursor?: string): Uint8Array {
  return utf8.encode(frameText(event, cursor));
}

/**
 * The frame of `event` (and `cursor`) as a `TextFrame`: its text and UTF-8 size now, its bytes
 * when a read takes it (one encoding for all the frames of the read). `json`, when given, is the
 * event's JSON text (`StoredEvent.json`), written instead of serializing the event. Throws what
 * `encodeFrame` throws.
 *
 * @example
 * textFrame(ev.runStarted("t1", "r1")).size; // 61
 */
export function textFrame(event: Event, cursor?: string, json?: string): TextFrame {
  return new TextFrame(frameText(event, cursor, json));
}

/**
 * The SSE text of `event`'s frame, `id: <cursor>` first when there is one; `json`, when given, is
 * the event's JSON text (exactly `JSON.stringify(event)`, as a store measured it), written as it
 * is. Throws what `encodeFrame` throws.
 *
 * @example
 * frameText(ev.runStarted("t1", "r1"), "c7"); // 'id: c7\ndata: {"type":"RUN_STARTED","threadId":"t1","runId":"r1"}\n\n'
 */
export function frameText(event: Event, cursor: string | undefined, json?: string): string {
  let frame: string;
  try {
    frame = json === undefined ? encodeSse(event) : `data: ${json}\n\n`;
  } catch (error) {
    throw new Error(`a ${event.type} event could not be encoded as JSON (${error instanceof Error ? error.message : excerpt(error)})`, { cause: error });
  }
  if (cursor === undefined) return frame;
  if (/[\r\n\0]/.test(cursor)) throw new Error(`expected a cursor that can be an SSE id (no CR, LF or NUL), but got ${JSON.stringify(cursor)}`);
  return `id: ${cursor}\n${frame}`;
}
