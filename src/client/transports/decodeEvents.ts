/** Bytes or text of an SSE body to events, for custom transports. */
import type { Observable } from "rxjs";
import type { Event } from "../../protocol/events";
import { decodeSse } from "../../wire/decodeSse";

/**
 * Decodes an SSE response body, given as chunks of text or UTF-8 bytes split anywhere, into
 * events (`decodeSse()`); the stream errors with a `DecodeError` at the first bad frame (an
 * unknown type is named in its message), after delivering the events before it.
 *
 * @example
 * decodeEvents(of('data: {"type":"RUN_STARTED","threadId":"t","runId":"r"}\n\n')).subscribe(console.log);
 */
export function decodeEvents(chunks$: Observable<string | Uint8Array>): Observable<Event> {
  return chunks$.pipe(decodeSse());
}
