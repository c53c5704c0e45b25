/**
 * The durable-thread contract (docs/durability.md#stores-and-routes): the few operations a run writes
 * through and `/connect` reads through, the same for the embedded `memoryStore()` and a store on
 * Redis Streams (XADD with the entry id as cursor, XRANGE to replay, XREAD BLOCK to tail, a
 * heartbeat per live run, the compacted snapshot kept beside the stream).
 */
import type { RunTrace } from "../../protocol/runTraceMeta";
import type { Observable } from "rxjs";
import type { Event } from "../../protocol/events";
import type { RunAgentInput } from "../../protocol/input";
import type { ThreadSnapshot } from "../../thread/ThreadSnapshot";
import type { HistoryPage, ThreadListEvent, ThreadPage, ThreadPatch, ThreadSummary } from "../../thread/threadList";
import type { QueuedRun } from "./QueuedRun";

/**
 * The RUN_ERROR code a store logs for a run it ends because the run's producer stopped renewing
 * its lease (its process died, or it hung): the end every tail of the run then sees.
 *
 * @example
 * if (event.type === "RUN_ERROR" && event.code === ABANDONED_ERROR_CODE) showReconnectHint();
 */
export const ABANDONED_ERROR_CODE = "ABANDONED";

/**
 * The default lease: a live run whose producer neither appends nor renews for this long (ms) is
 * ended `ABANDONED`. Producers renew well within it (`recordRun` every 10 s).
 *
 * @example
 * memoryStore({ lease: DEFAULT_LEASE_MS / 3 });
 */
export const DEFAULT_LEASE_MS = 30_000;

/**
 * A position in a thread's log, sent as the SSE `id:` of the event logged there. Opaque: strictly
 * increasing within a thread in log order, but only the store that made it can compare or read
 * it; any other string (a stale, foreign or malformed `Last-Event-ID`) is answered with the
 * snapshot path, never with an error.
 *
 * @example
 * const cursor: Cursor = stored.cursor; // e.g. "1718000000000-3" on Redis
 */
export type Cursor = string;

/**
 * One logged event and its cursor.
 *
 * @example
 * store.tail("thread-1", cursor).subscribe(({ cursor, event }) => send(event, cursor));
 */
export interface StoredEvent {
  readonly cursor: Cursor;
  readonly event: Event;
  /**
   * The event's JSON text, exactly `JSON.stringify(event)`, when the store has it at hand as it
   * hands the event on (`memoryStore` to a live tail, having serialized the event to measure it);
   * a frame writes it instead of serializing the event again. A store that leaves it out loses
   * nothing but that.
   */
  readonly json?: string | undefined;
}

/**
 * The cursor path of `read`: `after` is still in the log, and `events` are the events logged after
 * it, in order, up to now or through the first terminal event (RUN_FINISHED or RUN_ERROR) after it.
 * If the last of them is not a terminal (or there are none), the run is live: `tail` from the last
 * cursor (or from `after`) gives the rest.
 *
 * @example
 * if (read.kind === "resume") for (const { event } of read.events) send(event);
 */
export interface ResumeRead {
  readonly kind: "resume";
  readonly after: Cursor;
  readonly events: readonly StoredEvent[];
}

/**
 * The snapshot path of `read`: no cursor was given, or it was evicted, unknown, or it marks the
 * end of a run (nothing of that run is left to send). `snapshot.cursor` is the last event folded
 * into it; while `snapshot.run.status` is `running`, `tail` from there gives the rest of the run.
 *
 * @example
 * if (read.kind === "snapshot") console.log(read.snapshot.run.status);
 */
export interface SnapshotRead {
  readonly kind: "snapshot";
  /** With `ReadOptions.limit`, `snapshot.messages` holds only the last `limit` messages of the path. */
  readonly snapshot: ThreadSnapshot;
  /** With `ReadOptions.limit`: whether the path holds messages older than those in `snapshot.messages`. */
  readonly hasOlder?: boolean;
  /** The thread's waiting messages in the order they will run (docs/queue.md#in-the-store); absent when there are none. */
  readonly queue?: readonly QueuedRun[];
}

/**
 * What `read` answers for a known thread.
 *
 * @example
 * const read = await store.read(threadId, lastEventId ?? undefined);
 */
export type ThreadRead = ResumeRead | SnapshotRead;

/**
 * What `stop` found: `stopping` (the request reached the live run's producer through
 * `RunWriter.stopRequested`), `ended` (the run is known and already over → 409), `unknown` (no
 * such thread or run → 404).
 *
 * @example
 * const answer: StopAnswer = await store.stop("thread-1", "run-7");
 */
export type StopAnswer = "stopping" | "ended" | "unknown";

/**
 * The producer's side of one live run, from `beginRun`. Appends also count as heartbeats (a store
 * may skip renewing on appends that closely follow a renewal: `redisStore()` renews at most once
 * per tenth of the lease that way, docs/durability.md#the-quiet-append).
 *
 * @example
 * const writer = await store.beginRun(input);
 * const cursors = await writer.append([ev.textMessageStart("m1"), ev.textMessageContent("m1", "Hi")]);
 */
export interface RunWriter {
  readonly threadId: string;
  readonly runId: string;
  /** The RUN_STARTED `beginRun` logged as the run's first event (without the input echo), with its cursor. */
  readonly started: StoredEvent;
  /**
   * Logs a batch of the run's events, in order, and resolves with their cursors (one per event,
   * strictly increasing). Batches exist so that a remote store makes one round trip per batch,
   * never one per event: queue what arrives while a call is pending and send it as the next batch
   * (`recordRun` does). Batches are logged in call order, also when a call is made before the
   * previous one resolved. A terminal event (RUN_FINISHED, RUN_ERROR) ends the run; nothing may follow it.
   * Rejects with a `StoreError` and logs nothing of the batch when it is refused: `run-ended`
   * (the run is over, for instance ended `ABANDONED` because its lease ran out),
   * `invalid-append` (see `StoreErrorCode`), or from a store that bounds a run's bytes
   * `run-too-large` (the store then ends the run itself). Events must be normalized (no `*_CHUNK`, no
   * `THINKING_*`) and valid for the run, as `run()`'s output is.
   */
  append(events: readonly Event[]): Promise<readonly Cursor[]>;
  /**
   * Renews the run's lease (the heartbeat). Resolves `true` while the run is live, `false` once it
   * is over (then stop producing: it was ended `ABANDONED`, or its terminal is logged). A producer
   * quieter than the lease (a slow model) must renew at least once per lease; `recordRun` does.
   */
  renewLease(): Promise<boolean>;
  /**
   * Emits once when `stop(threadId, runId)` asks this run to stop (from any process sharing the
   * store), then completes; completes without emitting when the run ends first. Cold: each
   * subscription watches on its own; a request made before subscribing is still seen.
   */
  readonly stopRequested: Observable<void>;
  /**
   * Sets the thread's title from within the run (`ctx.setThreadTitle`): the list shows it, and a
   * rename by the owner later replaces it. Resolves once stored; rejects with `StoreError`
   * `run-ended` when the run is over.
   */
  setTitle(title: string): Promise<void>;
  /**
   * The steers sent into this run (docs/queue.md#steer): each entry of policy `steer` whose `target`
   * is this run and that is still waiting, those already stored first, then each as it arrives (from
   * any process sharing the store), each once; completes when the run ends. Cold: each
   * subscription watches on its own. A steer is taken when the run appends the TEXT_MESSAGE_START
   * (role `user`) of its message: that append removes it from the queue, atomically. One the run
   * has not taken when it ends stays in the queue, ahead of plain queued messages, and starts a run
   * of its own.
   */
  readonly steers: Observable<QueuedRun>;
}

/**
 * Whose threads a store operation acts on (docs/threads.md#owners): `owner` is the principal the
 * handler's `identify` returned. Thread ids are scoped by owner: the same id under two owners is
 * two threads, and a thread of another owner is, for every operation, exactly a thread that does
 * not exist. Without `identify` the handler passes no owner, and threads belong to nobody (the
 * thread id is then the only protection); threads stored that way are not visible to any owner.
 * A third-party store must key every record by (owner, threadId).
 *
 * @example
 * await store.read("t1", undefined, { owner: "user-42" });
 */
export interface StoreScope {
  readonly owner?: string | undefined;
}

/**
 * How `beginRun` starts a run: as `owner`, and, when `expectCursor` is given, only if the thread's
 * last logged cursor is still that one (the handler read the thread to check the posted history
 * and passes the cursor it read: if another run changed the thread in between, `beginRun` rejects
 * with `StoreError` `history-moved` and nothing is logged). A new thread expects no cursor: pass
 * `expectCursor: null`.
 *
 * @example
 * await store.beginRun(input, { owner, expectCursor: read.snapshot.cursor });
 */
export interface BeginOptions extends StoreScope {
  readonly expectCursor?: Cursor | null | undefined;
  /**
   * Starts the run as a new sibling after the path's message `forkAfter` (`null`: the thread's
   * start), docs/threads.md#the-tree: the store freezes the path past that message into its sibling
   * group, cuts the path there, sets the state the sibling starts from (`ThreadFold.forkState`)
   * and logs the RUN_STARTED with the fork marker (`metadata["agui-rx"].fork`), so every client
   * following the thread cuts its path too. Left out, or naming the path's last message, the run
   * continues the path. The message must be on the path (the handler checked it against the read).
   */
  readonly forkAfter?: string | null | undefined;
  /**
   * With `expectCursor`: the selected path the handler read (its message count and last message
   * id). A switch logs no event, so the cursor alone misses one made between the read and the
   * begin; a path that is no longer this one rejects with `history-moved` as a moved cursor does.
   */
  readonly expectPath?: PathMark | undefined;
  /**
   * Starts the thread's first waiting message (docs/queue.md#in-the-store): `dequeue` must be the id
   * of the head of its queue, which this run then is (its input: the entry's, reconciled); the
   * entry leaves the queue atomically with the RUN_STARTED, so exactly one caller starts it. Rejects
   * with `StoreError` `queue-moved` when the head is another entry (or none): someone else
   * started it, or it was cancelled.
   */
  readonly dequeue?: string | undefined;
  /**
   * The post answers what the thread waits on (its pending interrupts, or its client tool results):
   * it starts ahead of a non-empty queue, which then waits for it. Without it (and without
   * `dequeue`) a thread with waiting messages refuses a run with `StoreError` `queue-pending`: the
   * queue goes first.
   */
  readonly passQueue?: boolean | undefined;
  /**
   * The run's trace (docs/observability.md#traces): the logged RUN_STARTED carries it in its
   * `metadata` under our key (`runTraceOf` reads it), so that a reconnect, another instance or a
   * UI links to the run's trace. Given by the handler when a span records the run.
   */
  readonly runTrace?: RunTrace | undefined;
}

/**
 * How `enqueue` stores a message: as `owner`, in a queue of at most `max` entries, at the back (a
 * queued message) or, with `front`, ahead of every plain queued message and behind earlier front
 * entries (an interrupting message, a steer).
 *
 * @example
 * await store.enqueue(entry, { owner, max: 10, front: false });
 */
export interface EnqueueOptions extends StoreScope {
  readonly max: number;
  readonly front?: boolean | undefined;
}

/**
 * What `enqueue` did: `queued` (stored; for a steer whose target run is no longer live too),
 * `steering` (a steer stored while its `target` run is live: that run's `steers` carry it), or why
 * not: `full` (the queue holds `max` entries: 429), `duplicate` (an entry, or a run, has this id
 * already), `unknown` (no such thread, or another owner's), `deleted` (the thread was just deleted).
 *
 * @example
 * const answer: EnqueueAnswer = await store.enqueue(entry, { max: 10 });
 */
export type EnqueueAnswer = "queued" | "steering" | "full" | "duplicate" | "unknown" | "deleted";

/**
 * What `cancelQueued` did: `cancelled` (the entry left the queue; its wait ends `cancelled`; also
 * for an entry cancelled before, whose first reason stands and which is not announced again), or
 * why not: `started` (its run started already), `taken` (a steer its run took), `unknown` (no such
 * entry, thread, or owner).
 *
 * @example
 * const answer: CancelQueuedAnswer = await store.cancelQueued("t1", "r3", { owner });
 */
export type CancelQueuedAnswer = "cancelled" | "started" | "taken" | "unknown";

/**
 * Where one queue entry is (`queueEntry`): still `waiting` (with the entry), or how it left the
 * queue: `started` (its run began), `taken` (a steer, recorded in the run `runId`), `cancelled`
 * (with the `reason` given), or `unknown` (no such entry; a store keeps what became of at least the
 * last 64 entries of a thread).
 *
 * @example
 * const where: QueueEntryState = await store.queueEntry("t1", "r3");
 */
export type QueueEntryState =
  | { readonly state: "waiting"; readonly entry: QueuedRun }
  | { readonly state: "started"; readonly runId: string }
  | { readonly state: "taken"; readonly runId: string }
  | { readonly state: "cancelled"; readonly reason: string }
  | { readonly state: "unknown" };

/**
 * A change of one thread's queue or live run (`queueChanges`): an entry was `enqueued`, `started`,
 * `taken` or `cancelled`, or the live run `ended` (a waiting message may start now). `id` is the
 * entry's (for `ended`: the run's). A deleted thread's live run `ended`, and each of its waiting
 * entries is `cancelled` (their `queueEntry` is `unknown` from then on: the outcomes go with it).
 *
 * @example
 * store.queueChanges("t1").subscribe(({ kind, id }) => console.log(kind, id));
 */
export interface QueueChange {
  readonly kind: "enqueued" | "started" | "taken" | "cancelled" | "ended";
  readonly id: string;
}

/**
 * Where a selected path ends: how many messages it holds, and its last message's id (`null` for none).
 *
 * @example
 * const mark: PathMark = { count: 4, lastId: "a2" };
 */
export interface PathMark {
  readonly count: number;
  readonly lastId: string | null;
}

/**
 * What `selectBranch` did (docs/threads.md#the-tree): `switched` (the selected path changed),
 * `unchanged` (that sibling is already shown), or why not: `unknown` (no such thread, or another
 * owner's), `unknown-message` (the message is not on the selected path), `no-such-sibling`
 * (its group has no sibling at that index), `run-active` (a run is live: a switch waits for it),
 * `queue-pending` (messages wait in the thread's queue: they run on the branch they were sent on, docs/queue.md).
 *
 * @example
 * const answer: SelectAnswer = await store.selectBranch("t1", "a1", 0, { owner });
 */
export type SelectAnswer = "switched" | "unchanged" | "unknown" | "unknown-message" | "no-such-sibling" | "run-active" | "queue-pending";

/**
 * How `read` reads: as `owner`, and with `limit`, only the last `limit` messages of the path in
 * the snapshot (the snapshot path only; `SnapshotRead.hasOlder` says whether older ones exist).
 * With a limit, the cost must not grow with the thread's length (a connect with a limit of 50 on
 * a 100,000-message thread costs about what it costs on a 50-message one).
 *
 * @example
 * await store.read("t1", undefined, { owner, limit: 50 });
 */
export interface ReadOptions extends StoreScope {
  readonly limit?: number | undefined;
}

/**
 * A page request of `list`: at most `limit` threads after the position `cursor` (a `next` of an
 * earlier page), archived ones (`archived: true`) or the others (default).
 *
 * @example
 * await store.list({ owner }, { limit: 20, archived: false });
 */
export interface ListQuery {
  readonly limit: number;
  readonly cursor?: string | undefined;
  readonly archived?: boolean | undefined;
}

/**
 * A page request of `history`: at most `limit` messages of the path right before the message
 * `before` (by id), oldest first.
 *
 * @example
 * await store.history("t1", { before: "m51", limit: 50 }, { owner });
 */
export interface HistoryQuery {
  readonly before: string;
  readonly limit: number;
}

/**
 * Where runs and threads are kept (docs/durability.md#stores-and-routes). A thread exists from its first `beginRun` on; one
 * run per thread is live at a time. A run is live from `beginRun` until its terminal event is
 * appended, or until its lease runs out: a live run whose producer neither appended nor renewed
 * within the lease is ended by the store with `RUN_ERROR { code: "ABANDONED" }`, logged exactly
 * once by whichever operation or process notices first, so that its tails end instead of
 * waiting forever. `memoryStore()` implements it in process; `redisStore()` (agui-rx/redis) on
 * Redis Streams.
 *
 * @example
 * const writer = await store.beginRun(input);            // 409 if the thread has a live run
 * await writer.append(events);                           // the run's events, in batches
 * const read = await store.read(threadId, lastEventId);   // what /connect starts from
 * store.tail(threadId, cursor).subscribe(send);          // and the live rest
 * await store.stop(threadId, runId);                     // /stop, from any instance
 */
export interface ThreadStore {
  /**
   * Starts a run on `input.threadId` (creating the thread): logs its RUN_STARTED (folded with
   * `input.messages` into the thread's compacted state, as a client applies an input echo, docs/rules.md#A15)
   * and takes the run's lease. A live run on the thread whose lease ran out is ended `ABANDONED`
   * first. Rejects with `StoreError` `run-active` while another run of the thread is live, and
   * `capacity` when a bounded store cannot make room.
   */
  beginRun(input: RunAgentInput, options?: BeginOptions): Promise<RunWriter>;
  /**
   * What `/connect` starts from: `undefined` for an unknown thread; the cursor path (`resume`)
   * when `after` is still in the log and its run has events left; otherwise the snapshot path.
   * Never rejects for a bad cursor.
   */
  read(threadId: string, after?: Cursor, options?: ReadOptions): Promise<ThreadRead | undefined>;
  /**
   * The events logged after `after`, first those already in the log and then live ones as they are
   * appended, in order and each exactly once, through the next terminal event (RUN_FINISHED or
   * RUN_ERROR, `ABANDONED` included); then it completes. Cold: nothing is read until subscription,
   * and unsubscribing stops following. Errors with `StoreError` `evicted` when the thread or the
   * cursor is no longer in the store.
   */
  tail(threadId: string, after: Cursor, scope?: StoreScope): Observable<StoredEvent>;
  /** Asks the live run `runId` of `threadId` to stop, wherever its producer runs (see `StopAnswer`). */
  stop(threadId: string, runId: string, scope?: StoreScope): Promise<StopAnswer>;
  /**
   * The owner's threads (`scope.owner` is required: a store lists no ownerless threads), most
   * recently updated first, one page (see `ThreadPage`, `ListQuery`).
   */
  list(scope: StoreScope, query: ListQuery): Promise<ThreadPage>;
  /**
   * Renames or (un)archives a thread; resolves with its row as it is now, or `undefined` for an
   * unknown (or another owner's) thread. Announced to `listEvents`.
   */
  update(threadId: string, patch: ThreadPatch, scope?: StoreScope): Promise<ThreadSummary | undefined>;
  /**
   * Deletes a thread: asks a live run to stop, removes every record of it (log, snapshot,
   * metadata, index entries), and keeps a tombstone for at least one lease so that no late write
   * (a producer's cancelled end, an `ABANDONED`, a queued run) recreates it; meanwhile `beginRun`
   * rejects with `StoreError` `deleted` and appends with `run-ended`. Resolves `true` when it
   * deleted something, `false` for an unknown thread. Announced to `listEvents`.
   */
  remove(threadId: string, scope?: StoreScope): Promise<boolean>;
  /**
   * Shows sibling `index` of the group that the selected path's message `messageId` belongs to
   * (docs/threads.md#the-tree): the thread's path, state, pending interrupts and client calls become
   * that sibling's (with its own selected path below it), persisted, for every instance. Logs no
   * event (the cursor stays); announced to `listEvents` as `path-selected`, after which a client
   * following the thread re-reads it. Refused (`run-active`) while a run is live.
   */
  selectBranch(threadId: string, messageId: string, index: number, scope?: StoreScope): Promise<SelectAnswer>;
  /** An older page of the thread's messages (see `HistoryQuery`), or `undefined` for an unknown thread or an unknown `before`. */
  history(threadId: string, query: HistoryQuery, scope?: StoreScope): Promise<HistoryPage | undefined>;
  /**
   * The changes to the owner's thread list as they happen, from every process sharing the store
   * (hot from subscription on; nothing is replayed). Never carries another owner's thread.
   */
  listEvents(scope: StoreScope): Observable<ThreadListEvent>;
  /**
   * Stores a message to run once the live run ends (docs/queue.md#in-the-store), see
   * `EnqueueOptions` and `EnqueueAnswer`. Announced to `listEvents` (`queue-enqueued`) and to
   * `queueChanges`; a steer whose target is live reaches that run's `steers`.
   */
  enqueue(entry: QueuedRun, options: EnqueueOptions): Promise<EnqueueAnswer>;
  /**
   * Takes a waiting entry out of the thread's queue, remembering `reason` (see `CancelQueuedAnswer`).
   * Announced to `listEvents` (`queue-cancelled`) and to `queueChanges`.
   */
  cancelQueued(threadId: string, id: string, reason: string, scope?: StoreScope): Promise<CancelQueuedAnswer>;
  /** Where the entry `id` of the thread's queue is now (see `QueueEntryState`). */
  queueEntry(threadId: string, id: string, scope?: StoreScope): Promise<QueueEntryState>;
  /**
   * The changes of one thread's queue and the ends of its runs, from every process sharing the
   * store (hot from subscription on; nothing is replayed; a store whose announcements can be lost
   * says so, and its waiters read `queueEntry` again once per lease). Never carries another
   * owner's thread.
   */
  queueChanges(threadId: string, scope?: StoreScope): Observable<QueueChange>;
}
