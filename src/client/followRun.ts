/**
 * The client side of the pipeline for one run (docs/architecture.md#shape, docs/client.md#session-and-updates): transport items through
 * `normalizeChunks` and `verifyEvents` (report mode, fused) into the session's reducer, across
 * the transport's reconnects (`followConnection`), each update handed to `notify` before it goes on.
 */
import { defer, tap, type MonoTypeOperatorFunction, type Observable } from "rxjs";
import type { Event } from "../protocol/events";
import type { Message } from "../protocol/messages";
import { debugEvents, type DebugOption } from "../operators/logEvents";
import { normalizeAndVerify } from "../operators/normalizeAndVerify";
import { isInBandReport, type InBandReport } from "../operators/ProtocolError";
import type { DecodeWarning } from "../wire/DecodeWarning";
import { applyEvents } from "./applyEvents";
import { followConnection } from "./followConnection";
import type { ClientState } from "../thread/reducers/ClientState";
import type { MessageList } from "../thread/reducers/MessageList";
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
  return defer(() => {
    // The messages held when the run's first stream opened (a send's own message included), what a restart takes the list back to.
    let before: readonly Message[] | undefined;
    return events.pipe(
      followConnection((segment) => {
        const restart = before !== undefined;
        before ??= state.messages.snapshot();
        const checked = segment.pipe(
          debugEvents(options.debug, "client"),
          // normalizeChunks({ mode: "report", newId }) then verifyEvents({ mode: "report", threadId }), fused into one subscriber
          normalizeAndVerify(options.threadId === undefined ? { newId: options.newId } : { newId: options.newId, threadId: options.threadId }),
        );
        return (restart ? checked.pipe(takeBackAtSnapshot(state.messages, before)) : checked).pipe(applyEvents({ state }));
      }, options.notify),
    );
  });
}

/**
 * A restart's stream (a snapshot answer after the cut streams of the run applied events,
 * `followConnection`): just before its first MESSAGES_SNAPSHOT is applied, the list goes back to
 * `before`, so that the snapshot merges into what the session held before the run, as a first
 * join's does, and replaces what the cut left half-built. Merged into the half-built list instead
 * (docs/rules.md#A10 keeps held messages where they are and appends the new ones), a message the
 * server had put between two the client held came last: `complete_task`'s result, which the
 * reducer inserts after its call's other results, after a researcher's message that was streamed
 * before it (the concurrent-cuts test). Taken back at the snapshot, not at the reconnect, so no
 * view reads a list without the run between the two, and `HistoryWindow.widen` still reads the
 * held messages. Older pages `loadOlder` put in front while the run was live stay in front (see
 * `withPagesInFront`). Later snapshots of the stream merge as any does.
 */
function takeBackAtSnapshot(list: MessageList, before: readonly Message[]): MonoTypeOperatorFunction<Event | InBandReport> {
  let pending = true;
  return tap((item) => {
    if (!pending || isInBandReport(item) || item.type !== "MESSAGES_SNAPSHOT") return;
    pending = false;
    list.reset(withPagesInFront(list, before));
  });
}

/**
 * `before` with what the list now holds in front of its first message: the older pages
 * `loadOlder` read while the run was live, which only ever go in front of what is held. Left out,
 * they were appended after the run's messages when the snapshot (widened with them, as a windowed
 * join's is) merged into `before`. `before` as it is when it is empty or its first message is
 * no longer held.
 */
function withPagesInFront(list: MessageList, before: readonly Message[]): readonly Message[] {
  const first = before.length === 0 ? -1 : list.indexOf(before[0].id);
  return first <= 0 ? before : [...list.snapshot().slice(0, first), ...before];
}
