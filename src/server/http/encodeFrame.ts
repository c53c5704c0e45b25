/** One event as the UTF-8 bytes of its SSE frame, with its cursor as the `id:` (docs/http.md, "Shared frames"). */
import type { Event } from "../../protocol/events";
import { excerpt } from "../../protocol/describeFailure";
import { encodeSse } from "../../wire/encodeSse";

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
  let frame: string;
  try {
    frame = encodeSse(event);
  } catch (error) {
    throw new Error(`a ${event.type} event could not be encoded as JSON (${error instanceof Error ? error.message : excerpt(error)})`, { cause: error });
  }
  if (cursor === undefined) return utf8.encode(frame);
  if (/[\r\n\0]/.test(cursor)) throw new Error(`expected a cursor that can be an SSE id (no CR, LF or NUL), but got ${JSON.stringify(cursor)}`);
  return utf8.encode(`id: ${cursor}\n${frame}`);
}
