/** Where a client run's events come from. */
import type { Observable } from "rxjs";
import type { Event } from "../../protocol/events";
import type { RunAgentInput } from "../../protocol/input";
import type { DecodeWarning } from "../../wire/DecodeWarning";

/**
 * How the Session asks a transport to run: with `warnings`, a transport that decodes interleaves
 * its `DecodeWarning`s (material it stripped, AG-UI 1.1) right before the event they concern.
 *
 * @example
 * transport.run(input, { warnings: true })
 */
export interface TransportRunOptions {
  readonly warnings?: boolean;
}

/**
 * Runs an agent for one input and streams its events: cold (nothing happens before subscription),
 * cancelled by unsubscribing. A failure below the event layer (HTTP status, network, bad bytes) is
 * the Observable's error, preferably a `ClientError`; the Session turns any error into an `error`
 * update and `done` failed. The Session calls `run(input, { warnings: true })`: a transport that
 * decodes then interleaves `DecodeWarning`s, which the Session reports as `error` updates of kind
 * `warning`; one that ignores the option (a plain `(input) => Observable<Event>`) still fits. The
 * library's transports narrow the type: called without options they emit events only.
 *
 * @example
 * const transport: Transport = { run: (input) => of(ev.runStarted(input.threadId, input.runId), ev.runFinished(input.threadId, input.runId)) };
 */
export interface Transport {
  run(input: RunAgentInput, options?: TransportRunOptions): Observable<Event | DecodeWarning>;
}
