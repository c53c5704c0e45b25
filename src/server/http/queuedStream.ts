/** A waiting message's own stream (docs/queue.md#on-the-wire): its notices as its status changes, then its run's frames once it started. */
import { concat, EMPTY, from, mergeMap, Observable, type Subscription } from "rxjs";
import { QUEUE_NOTICE_EVENT, QUEUED_HEADER, type QueueNotice } from "../../protocol/queueMeta";
import { RESUMABLE_HEADER } from "../../protocol/connectMode";
import { planConnect } from "../store/connectStream";
import { listedQueued } from "../store/QueuedRun";
import { queueStatusOf } from "../store/queueStatus";
import type { Cursor, StoreScope, ThreadStore } from "../store/ThreadStore";
import { cutOnStoreFailure } from "./cutOnStoreFailure";
import { drainQueue } from "./drainQueue";
import type { CursorFrame, DataFrame } from "./EventStreamOptions";
import type { HandlerContext } from "./HandlerContext";
import { runFramesAfter } from "./queuedRunFrames";
import { eventStreamResponse } from "./streamResponse";
import { tailStreamOptions } from "./tailLimits";
import { toEventStream } from "./toEventStream";

/**
 * Where a waiting message's stream is read from: its thread and id, the caller's scope, and `since`,
 * a cursor logged before its run can have started (the read that preceded `enqueue`), when known.
 *
 * @example
 * const wait: QueuedWait = { threadId: "t1", id: "r3", scope: { owner }, since: read.snapshot.cursor };
 */
export interface QueuedWait {
  readonly threadId: string;
  readonly id: string;
  readonly scope: StoreScope;
  readonly since?: Cursor;
}

/**
 * The answer for a waiting message (docs/queue.md#on-the-wire): `200 text/event-stream` with
 * `AGUI-Queued: <id>` and `AGUI-Resumable: true`, its body `queuedFrames`, bounded as every
 * store-backed response is (the client going away ends it, the send-buffer cap, the idle-write
 * timeout).
 *
 * @example
 * return queuedResponse(request, context, store, { threadId, id: input.runId, scope: caller.scope, since });
 */
export function queuedResponse(request: Request, context: HandlerContext, store: ThreadStore, wait: QueuedWait): Response {
  const body = toEventStream(queuedFrames(store, wait, context).pipe(cutOnStoreFailure()), {
    ...context.stream,
    ...tailStreamOptions(context.tails),
    gatherWrites: false,
    signal: request.signal,
    slowConsumer: "end",
  });
  return eventStreamResponse(body, context.headers, { [QUEUED_HEADER]: wait.id, [RESUMABLE_HEADER]: "true" });
}

/**
 * A waiting message's frames: an `agui-rx-queue` notice (`QueueNotice`) at once and on each change
 * of its status (`queued`, `waiting`, `steering`), looked at again on each change of the thread's
 * queue (`queueChanges`) and every `queueRecheckMs` on the handler's clock; each recheck, and each
 * run end or cancel announced, tries to start the queue (`drainQueue`). How the wait ends:
 *
 * - `started`: the notice, then the run's frames from its RUN_STARTED through its terminal, each
 *   with `id:` (followed from `since`, or from the first read when the wait was seen before the
 *   start); a stream opened after the run started (a `/connect` with `queued`) sends the thread's
 *   prelude for that run instead (from RUN_STARTED, as a reconnecting client gets it), or only the
 *   notice when a later run followed it;
 * - `taken` (with the run that took the steer), `cancelled` (with its `reason`), or an id the store
 *   does not know (a `cancelled` notice saying so): the notice, then the end.
 *
 * Cold; unsubscribing stops every watch and timer.
 *
 * @example
 * queuedFrames(store, { threadId: "t1", id: "r3", scope: {} }, context).subscribe(send);
 */
export function queuedFrames(store: ThreadStore, wait: QueuedWait, context: HandlerContext): Observable<CursorFrame | DataFrame> {
  const { threadId, id, scope } = wait;
  return new Observable<CursorFrame | DataFrame>((subscriber) => {
    let shown: string | undefined; // the status last told
    let since = wait.since;
    let over = false;
    let looking = false;
    let lookAgain = false;
    let run: Subscription | undefined;
    let cancelTimer = (): void => undefined;
    let waitingCounted: string | undefined; // the policy it was counted waiting under (agui_rx.server.queue.waiting), until its wait ends
    const notify = (notice: QueueNotice): void => subscriber.next({ name: QUEUE_NOTICE_EVENT, data: JSON.stringify(notice) });
    const drain = (): void => void drainQueue(store, threadId, scope, context);
    const stopWatching = (): void => {
      if (waitingCounted !== undefined) context.metrics.queueWaiting(-1, waitingCounted);
      waitingCounted = undefined;
      over = true;
      changes.unsubscribe();
      cancelTimer();
    };
    const end = (notice: QueueNotice): void => {
      stopWatching();
      notify(notice);
      subscriber.complete();
    };
    const started = (runId: string): void => {
      stopWatching();
      notify({ id, status: "started", runId });
      const frames = since !== undefined ? runFramesAfter(store, threadId, id, since, scope) : preludeOf(store, threadId, id, scope);
      run = frames.subscribe(subscriber);
    };
    // One look at a time; a change that arrives meanwhile is looked at once the look is done.
    const look = async (): Promise<void> => {
      const read = await store.read(threadId, undefined, scope);
      if (over) return;
      const snapshot = read?.kind === "snapshot" ? read.snapshot : undefined;
      const where = await store.queueEntry(threadId, id, scope);
      if (over) return;
      switch (where.state) {
        case "waiting": {
          // Read before the entry was seen waiting: its run's RUN_STARTED comes after this cursor.
          since ??= snapshot?.cursor;
          const status = queueStatusOf(where.entry, snapshot);
          if (status !== shown) notify({ id, status, queued: listedQueued(where.entry, status) });
          if (waitingCounted === undefined) {
            waitingCounted = where.entry.policy;
            context.metrics.queueWaiting(1, waitingCounted);
          }
          shown = status;
          return;
        }
        case "started":
          return started(where.runId);
        case "taken":
          return end({ id, status: "taken", runId: where.runId });
        case "cancelled":
          return end({ id, status: "cancelled", reason: where.reason });
        case "unknown":
          return end({
            id,
            status: "cancelled",
            reason: `expected a waiting message ${JSON.stringify(id)} on thread ${JSON.stringify(threadId)}, but the store knows none`,
          });
        default: {
          const unexpected: never = where;
          return unexpected;
        }
      }
    };
    const check = (): void => {
      if (over) return;
      if (looking) {
        lookAgain = true;
        return;
      }
      looking = true;
      lookAgain = false;
      look().then(
        () => {
          looking = false;
          if (lookAgain) check();
        },
        (error: unknown) => {
          stopWatching();
          subscriber.error(error);
        },
      );
    };
    const changes = store.queueChanges(threadId, scope).subscribe({
      next: (change) => {
        if (change.kind === "ended" || change.kind === "cancelled") drain();
        check();
      },
      error: () => undefined, // the rechecks still look
    });
    const recheck = (): void => {
      cancelTimer = context.tails.clock.setTimer(context.queue.recheckMs, () => {
        if (over) return;
        drain();
        check();
        recheck();
      });
    };
    recheck();
    check();
    return () => {
      stopWatching();
      run?.unsubscribe();
    };
  });
}

/** A run that started before its stream was opened: the thread's prelude while it is the thread's last run (as a reconnecting client reads it), else nothing more. */
function preludeOf(store: ThreadStore, threadId: string, runId: string, scope: StoreScope): Observable<CursorFrame> {
  return from(store.read(threadId, undefined, scope)).pipe(
    mergeMap((read) => {
      if (read?.kind !== "snapshot" || read.snapshot.run.runId !== runId) return EMPTY;
      const plan = planConnect(read, { reconnect: true });
      const tail = plan.tailAfter === undefined ? [] : [store.tail(threadId, plan.tailAfter, scope)];
      return concat(from(plan.frames), ...tail);
    }),
  );
}
