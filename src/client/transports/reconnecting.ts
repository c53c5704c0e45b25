/**
 * Resuming a run's stream after a cut (docs/durability.md#stores-and-routes): the transport's connection is resubscribed
 * through `{url}/connect` with the last `id:` it saw, bounded, with backoff, so that the consumer
 * sees one continuous run. Shaped like RxJS `retry({ count, delay, resetOnSuccess })`, where each
 * resubscription is a cold source made with the new position.
 */
import { Observable } from "rxjs";
import type { Event } from "../../protocol/events";
import type { DecodeWarning } from "../../wire/DecodeWarning";
import type { ConnectionNotice } from "./ConnectionNotice";
import type { QueueNoticeItem } from "./QueueNoticeItem";
import type { ReconnectPlan } from "./ReconnectPlan";
import { RunFollower } from "./RunFollower";

export { DEFAULT_RECONNECT_ATTEMPTS, reconnectDelay, type ReconnectConfig, type ReconnectPlan, type ResumePosition } from "./ReconnectPlan";

/**
 * Follows one run across connections: the first connection's items, then after each cut (a body
 * that fails, ends inside a frame, or ends before the run's terminal event; a request that gets
 * no answer) another connection made by `plan.again` after the last `id:` seen, until the run's
 * terminal event. Events are passed on exactly once and in order: a resumed answer continues
 * after the cursor; a snapshot answer (the cursor was not kept) is announced with a restart
 * notice when events of the run were already passed on. A queued message's stream (docs/queue.md#on-the-wire)
 * cut before its run passed an event is asked for again by the message's id; its `cancelled` and
 * `taken` notices end it.
 *
 * Resumes only a server that can: one whose answer said `AGUI-Resumable: true` or carried an
 * `id:`; when a request got no answer at all, one that `plan.resumable()` says is (what earlier
 * answers showed, else its capabilities). An answer with neither is a server that keeps no
 * threads: its cut ends the run exactly as without reconnects, and nothing more is asked. A reconnect answered 404 or 405 (no store, no such thread)
 * ends the run with the first cut, exactly as without reconnects; other failed attempts are
 * retried up to `count`, then the run fails with a `transport` error naming the attempts.
 * Per-subscription state; unsubscribing stops the connection and any pending wait.
 *
 * @example
 * reconnecting(plan).subscribe((item) => (isConnectionNotice(item) ? showStatus(item) : apply(item)));
 */
export function reconnecting(plan: ReconnectPlan): Observable<Event | DecodeWarning | ConnectionNotice | QueueNoticeItem> {
  return new Observable<Event | DecodeWarning | ConnectionNotice | QueueNoticeItem>((subscriber) => {
    const follower = new RunFollower(plan, subscriber);
    follower.start();
    return () => follower.teardown();
  });
}
