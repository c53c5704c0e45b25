/** Where a client run's events come from. */
import type { Observable } from "rxjs";
import type { Event } from "../../protocol/events";
import type { RunAgentInput } from "../../protocol/input";

/**
 * Runs an agent for one input and streams its events: cold (nothing happens before subscription),
 * cancelled by unsubscribing. A failure below the event layer (HTTP status, network, bad bytes) is
 * the Observable's error, preferably a `ClientError`; the Session turns any error into an `error`
 * update and `done` failed.
 *
 * @example
 * const transport: Transport = { run: (input) => of(ev.runStarted(input.threadId, input.runId), ev.runFinished(input.threadId, input.runId)) };
 */
export interface Transport {
  run(input: RunAgentInput): Observable<Event>;
}
