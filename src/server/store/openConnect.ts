/** A connect stream from a store: the answer `POST {url}/connect` streams (docs/durability.md#stores-and-routes), or `undefined` for an unknown thread. */
import { concat, from, type Observable } from "rxjs";
import type { ConnectMode } from "../../protocol/connectMode";
import { newThreadPrelude, planConnect, type ConnectFrame, type ConnectStreamOptions } from "./connectStream";
import { runTraceOf, type RunTrace } from "../../protocol/runTraceMeta";
import type { Cursor, ReadOptions, StoredEvent, ThreadStore } from "./ThreadStore";

/**
 * An open connect stream: its `mode` (a handler may say which in a header) and its `frames`, a
 * cold Observable: the planned frames, then the live tail when the run is live, through the
 * run's terminal event; then it completes. Unsubscribing stops the tail.
 *
 * @example
 * const stream = await openConnect(store, "thread-1", request.headers.get("last-event-id") ?? undefined);
 */
export interface ConnectStream {
  readonly mode: ConnectMode;
  readonly frames: Observable<ConnectFrame>;
  /**
   * On the snapshot path: whether the thread holds messages older than the prelude's
   * MESSAGES_SNAPSHOT (only with a `limit`), and the id of the oldest message it carries (what
   * `POST {url}/history` takes as `before`), docs/threads.md#paginated-history.
   */
  readonly page?: { readonly hasOlder: boolean; readonly oldestMessageId?: string };
  /** How many frames the read gave (the events after the cursor, or the prelude), sent before any live tail. */
  readonly planned?: number | undefined;
  /**
   * The trace of the run these frames belong to, as its RUN_STARTED logged it (`runTraceOf`), when
   * the read shows it: the snapshot's last run, or a RUN_STARTED among the events after the cursor
   * (docs/observability.md#store-work).
   */
  readonly trace?: RunTrace | undefined;
}

/**
 * Reads `threadId` from `store` (after `lastEventId` when the client sent one) and returns the
 * connect stream, or `undefined` when the store does not know the thread (the handler answers
 * 404, exactly as for a forbidden thread). The read happens now, so that the handler can answer
 * before it starts the response; the frames are sent when subscribed. The tail starts at the last
 * cursor read, so nothing appended in between is lost or sent twice. `options` go to `planConnect`,
 * and their `owner` and `limit` to the store (`ReadOptions`, docs/threads.md#owners).
 *
 * @example
 * const stream = await openConnect(store, input.threadId, lastEventId);
 * if (stream === undefined) return notFound();
 * stream.frames.subscribe(({ event, cursor }) => send(event, cursor));
 */
export async function openConnect(
  store: ThreadStore,
  threadId: string,
  lastEventId?: Cursor,
  options: ConnectStreamOptions & ReadOptions = {},
): Promise<ConnectStream | undefined> {
  const { owner, limit } = options;
  const read = await store.read(threadId, lastEventId, limit === undefined ? { owner } : { owner, limit });
  if (read === undefined) return undefined;
  const plan = planConnect(read, options);
  const tailAfter = plan.tailAfter;
  const frames: Observable<ConnectFrame> = tailAfter === undefined ? from(plan.frames) : concat(from(plan.frames), store.tail(threadId, tailAfter, { owner }));
  const planned = plan.frames.length;
  if (read.kind === "resume") {
    const { events } = read;
    // Looked for only when asked (a traced connect): untraced, a resume pays nothing for it.
    return {
      mode: plan.mode,
      frames,
      planned,
      get trace() {
        return startedTrace(events);
      },
    };
  }
  const oldest = read.snapshot.messages[0];
  const page = { hasOlder: read.hasOlder === true, ...(oldest === undefined ? {} : { oldestMessageId: oldest.id }) };
  return { mode: plan.mode, frames, page, planned, trace: read.snapshot.run.trace };
}

/** The trace the last RUN_STARTED among `events` names, if any (a resume from before a run's start). */
function startedTrace(events: readonly StoredEvent[]): RunTrace | undefined {
  for (let i = events.length - 1; i >= 0; i--) {
    const { event } = events[i];
    if (event.type === "RUN_STARTED") return runTraceOf(event.metadata);
  }
  return undefined;
}

/**
 * The connect stream of a thread the caller has never had (docs/threads.md#joining-a-new-thread):
 * mode `new`, the frames of `newThreadPrelude` (no cursor: nothing is stored yet), no tail and no
 * older history. What a join of an unknown thread answers, and of another owner's (which is, for
 * this caller, exactly a thread that does not exist).
 *
 * @example
 * const stream = (await openConnect(store, threadId)) ?? newThreadStream(threadId, crypto.randomUUID());
 */
export function newThreadStream(threadId: string, runId: string): ConnectStream {
  return { mode: "new", frames: from(newThreadPrelude(threadId, runId).map((event) => ({ event }))), page: { hasOlder: false } };
}
