/**
 * The client side of the pipeline for one run (docs/architecture.md#shape, docs/client.md#session-and-updates): transport items through
 * `normalizeChunks` and `verifyEvents` (report mode, fused) into the session's reducer, across
 * the transport's reconnects (`followConnection`), each update handed to `notify` before it goes on.
 */
import type { Observable } from "rxjs";
import type { Event } from "../protocol/events";
import { debugEvents, type DebugOption } from "../operators/logEvents";
import { normalizeAndVerify } from "../operators/normalizeAndVerify";
import type { DecodeWarning } from "../wire/DecodeWarning";
import { applyEvents } from "./applyEvents";
import { followConnection } from "./followConnection";
import type { ClientState } from "../thread/reducers/ClientState";
import type { ConnectionNotice } from "./transports/ConnectionNotice";
import type { Update } from "../thread/Update";

/**
 * How `followRun` checks and reports.
 *
 * @example
 * const options: FollowRunOptions<Board> = { debug: undefined, newId: () => crypto.randomUUID(), threadId: "board-1", notify: (update) => views.notifyUpdate(update) };
 */
export interface FollowRunOptions<S> {
  /** Logs every event before it is checked (`SessionOptions.debug`). */
  readonly debug: DebugOption | undefined;
  /** Mints the ids the THINKING_* mapping needs. */
  readonly newId: () => string;
  /** The thread the session sent: a RUN_STARTED or RUN_FINISHED on another is a violation, reported in-band and not applied (docs/rules.md#R7a). */
  readonly threadId?: string;
  /** Hears of every update, before the subscriber does (the session's views). */
  readonly notify: (update: Update<S>) => void;
}

/**
 * `events` (one run's, as a transport delivers them) as the Update stream of applying them to
 * `state`. Cold; one subscription follows one run.
 *
 * @example
 * followRun(transport.run(input, { warnings: true, connection: true }), store, options).subscribe(render);
 */
export function followRun<S>(
  events: Observable<Event | DecodeWarning | ConnectionNotice>,
  state: ClientState<S>,
  options: FollowRunOptions<S>,
): Observable<Update<S>> {
  return events.pipe(
    followConnection(
      (segment) =>
        segment.pipe(
          debugEvents(options.debug, "client"),
          // normalizeChunks({ mode: "report", newId }) then verifyEvents({ mode: "report", threadId }), fused into one subscriber
          normalizeAndVerify(options.threadId === undefined ? { newId: options.newId } : { newId: options.newId, threadId: options.threadId }),
          applyEvents({ state }),
        ),
      options.notify,
    ),
  );
}
