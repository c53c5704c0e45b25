/** A transport that answers every run with the same recorded events or SSE body. */
import { from, of, type Observable } from "rxjs";
import type { Event } from "../../protocol/events";
import type { RunAgentInput } from "../../protocol/input";
import { decodeEvents } from "./decodeEvents";
import type { Transport } from "./Transport";

/**
 * Replays a recording for every run, ignoring the input: either events (emitted synchronously, in
 * order) or an SSE body (decoded with `decodeEvents`, so bad bytes fail the run as they would over
 * HTTP). For tests, demos and stored threads.
 *
 * @example
 * const session = new Session(new ReplayTransport([ev.runStarted("t", "r"), ev.runFinished("t", "r")]), { threadId: "t" });
 */
export class ReplayTransport implements Transport {
  constructor(private readonly recording: readonly Event[] | string) {}

  run(_input: RunAgentInput): Observable<Event> {
    return typeof this.recording === "string" ? decodeEvents(of(this.recording)) : from(this.recording);
  }
}
