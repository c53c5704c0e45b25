/** A transport that answers every run with the same recorded events or SSE body. */
import { Observable, of } from "rxjs";
import type { Event } from "../../protocol/events";
import type { RunAgentInput } from "../../protocol/input";
import { DecodeWarning } from "../../wire/DecodeWarning";
import { decodeEventValue, Dropped } from "../../wire/decodeEvent";
import { DecodeError } from "../../wire/DecodeError";
import { DEFAULT_MAX_JSON_DEPTH } from "../../protocol/jsonDepth";
import type { Stripped } from "../../protocol/unrecognised";
import { decodeEvents } from "./decodeEvents";
import type { Transport, TransportRunOptions } from "./Transport";

/**
 * Replays a recording for every run, ignoring the input: either events or an SSE body. Both go
 * through the decoder, so the same recording gives the same result either way (B5): defaults
 * filled, `null`s dropped, material the protocol does not describe stripped (with an in-band
 * `DecodeWarning` when run with `{ warnings: true }`, as the Session does), and a bad one fails
 * the run where it stands (a `DecodeError`, as over HTTP).
 * Events are emitted synchronously, in order. For tests, demos and stored threads.
 *
 * @example
 * const session = new Session(new ReplayTransport([ev.runStarted("t", "r"), ev.runFinished("t", "r")]), { threadId: "t" });
 */
export class ReplayTransport implements Transport {
  constructor(private readonly recording: readonly Event[] | string) {}

  run(input: RunAgentInput): Observable<Event>;
  run(input: RunAgentInput, options: TransportRunOptions): Observable<Event | DecodeWarning>;
  run(_input: RunAgentInput, options: TransportRunOptions = {}): Observable<Event | DecodeWarning> {
    const recording = this.recording;
    const warnings = options.warnings === true;
    if (typeof recording === "string") return decodeEvents(of(recording), { warnings });
    return new Observable<Event | DecodeWarning>((subscriber) => {
      let index = 0;
      const decoding = {
        maxDepth: DEFAULT_MAX_JSON_DEPTH,
        checkDepth: true,
        onStripped: warnings ? (stripped: Stripped, type: string) => subscriber.next(DecodeWarning.of(stripped, type, index)) : undefined,
      };
      for (; index < recording.length && !subscriber.closed; index++) {
        const result = decodeEventValue(recording[index], decoding);
        if (result instanceof DecodeError) {
          subscriber.error(result);
          return;
        }
        if (!(result instanceof Dropped)) subscriber.next(result);
        else if (warnings) subscriber.next(DecodeWarning.of({ code: "unknown-member", path: "", reason: result.reason }, result.eventType, index));
      }
      subscriber.complete();
    });
  }
}
