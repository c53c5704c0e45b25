/** Bytes or text of an SSE body to events, for custom transports. */
import type { Observable } from "rxjs";
import type { Event } from "../../protocol/events";
import type { DecodeWarning } from "../../wire/DecodeWarning";
import { decodeSse, type DecodeSseEventOptions } from "../../wire/decodeSse";

/**
 * Decodes an SSE response body, given as chunks of text or UTF-8 bytes split anywhere, into events
 * (`decodeSse(options)`); the stream errors with a `DecodeError` at the first bad frame (an unknown
 * type is named in its message; a body cut inside a frame is `truncated`), after delivering the
 * events before it. `options` sets the frame-size and nesting limits, and with `warnings: true`
 * (what a transport passes on when the Session asks for it) the decoder's `DecodeWarning`s come
 * in-band.
 *
 * @example
 * decodeEvents(of('data: {"type":"RUN_STARTED","threadId":"t","runId":"r"}\n\n')).subscribe(console.log);
 */
export function decodeEvents(
  chunks$: Observable<string | Uint8Array>,
  options: DecodeSseEventOptions & { readonly warnings: true },
): Observable<Event | DecodeWarning>;
export function decodeEvents(
  chunks$: Observable<string | Uint8Array>,
  options?: DecodeSseEventOptions & { readonly warnings?: false | undefined },
): Observable<Event>;
export function decodeEvents(chunks$: Observable<string | Uint8Array>, options?: DecodeSseEventOptions): Observable<Event | DecodeWarning>;
export function decodeEvents(chunks$: Observable<string | Uint8Array>, options: DecodeSseEventOptions = {}): Observable<Event | DecodeWarning> {
  return chunks$.pipe(decodeSse(options));
}
