import type { OperatorFunction } from "rxjs";
import type { Event } from "../protocol/events";
import { DecodeError } from "./DecodeError";
import { decodeEventValue } from "./decodeEvent";
import { readSseFrames, type DecodeSseOptions, type SseFrame } from "./decodeSseFrames";

/** How much of a payload that is not JSON an error message quotes. */
const QUOTED = 80;

/**
 * An operator from an SSE body (text or UTF-8 byte chunks) to AG-UI events: each frame's data is
 * parsed as JSON and decoded with `decodeEvent` (lenient on nulls, defaults filled, unknown members
 * kept). Framing and the frame-size limit are those of `decodeSseFrames()`. The stream errors with
 * a `DecodeError` at the first frame that fails: code `json` when the data is not JSON (the message
 * quotes its start), otherwise the code `decodeEvent` gave (`unknown-type`, `invalid-event`,
 * `not-an-event`). Events before it are delivered. `event:` and `id:` fields are ignored, as the
 * reference client does: every data frame is an event. Cold, with per-subscription state;
 * unsubscribing unsubscribes the source.
 *
 * @example
 * of('data: {"type":"RUN_STARTED","threadId":"t1","runId":"r1"}\n\n').pipe(decodeSse())
 * // emits { type: "RUN_STARTED", threadId: "t1", runId: "r1" }
 */
export function decodeSse(options: DecodeSseOptions = {}): OperatorFunction<string | Uint8Array, Event> {
  return readSseFrames<Event>(options, (frame, subscriber) => {
    const result = decodeFrame(frame);
    if (result instanceof DecodeError) subscriber.error(result);
    else subscriber.next(result);
  });
}

/** One frame's data to an event, or the reason it is not one. */
function decodeFrame(frame: SseFrame): Event | DecodeError {
  let json: unknown;
  try {
    json = JSON.parse(frame.data);
  } catch (cause) {
    const quoted = frame.data.length > QUOTED ? `${frame.data.slice(0, QUOTED)}…` : frame.data;
    const reason = cause instanceof Error ? ` (${cause.message})` : "";
    return new DecodeError(
      "json",
      `SSE data is not JSON${reason}: expected one JSON event object, got ${JSON.stringify(quoted)}`,
      undefined,
      "",
      "a JSON value",
      quoted,
    );
  }
  return decodeEventValue(json);
}
