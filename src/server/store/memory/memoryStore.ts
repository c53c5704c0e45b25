/** The embedded `ThreadStore` (docs/durability.md#stores-and-routes, docs/durability.md §6): every thread in this process's memory, bounded, least-recently-used first out. */
import { Observable } from "rxjs";
import type { QueuedRun } from "../QueuedRun";
import { PROTOCOL_VERSION } from "../../../protocol/version";
import { ev } from "../../../protocol/build";
import { forkMetadata } from "../../../protocol/branchMeta";
import { startedMetadata } from "../../../protocol/runTraceMeta";
import type { Event } from "../../../protocol/events";
import type { RunAgentInput } from "../../../protocol/input";
import { checkBatch } from "../checkBatch";
import { refuseSwitched } from "../refuseSwitched";
import { refuseMoved } from "./refuseMoved";
import { isTerminal } from "../../../thread/isTerminal";
import { systemClock, type StoreClock } from "../StoreClock";
import { StoreError } from "../StoreError";
import {
  ABANDONED_ERROR_CODE,
  DEFAULT_LEASE_MS,
  type BeginOptions,
  type Cursor,
  type HistoryQuery,
  type ListQuery,
  type ReadOptions,
  type SelectAnswer,
  type RunWriter,
  type StoreScope,
  type StoredEvent,
  type StopAnswer,
  type ThreadRead,
} from "../ThreadStore";
import type { CancelQueuedAnswer, EnqueueAnswer, EnqueueOptions, QueueChange, QueueEntryState } from "../ThreadStore";
import type { HistoryPage, ThreadListEvent, ThreadPage, ThreadPatch, ThreadSummary } from "../../../thread/threadList";
import { checkPageLimit } from "../pageQueries";
import { ByteLedger } from "./ByteLedger";
import { stopRequests, type LiveRun } from "./LiveRun";
import { MemoryThread } from "./MemoryThread";
import { OwnedThreads } from "./OwnedThreads";
import type { ThreadTable } from "./ThreadTable";
import { newMeta } from "./threadRows";
import { StoreQueues } from "./StoreQueues";
import { positive, resolveBounds, type MemoryStore, type MemoryStoreOptions, type MemoryStoreStats } from "./MemoryStoreOptions";
import { eventTexts, newMessageBytes, RUN_TOO_LARGE_ERROR_CODE } from "./runBytes";

export { MEMORY_STORE_DEFAULTS, type MemoryStore, type MemoryStoreOptions, type MemoryStoreStats } from "./MemoryStoreOptions";
export { RUN_TOO_LARGE_ERROR_CODE } from "./runBytes";

/**
 * The embedded store: threads, their runs' events with cursors, and their compacted state (folded
 * with the client's reducer), all in this process. A process restart forgets everything (cursors
 * from before read as unknown: the snapshot path of an unknown thread, 404). Runs of one process
 * stop each other in process (`stop` → `stopRequested`).
 *
 * **The byte rule** (every clause tested in test/server/store/memoryBounds.test.ts, the queue's in
 * memoryQueue.test.ts). Bytes are JSON text lengths. The store counts a thread's retained events,
 * its compacted messages and state (measured when a run ends), its waiting messages
 * (docs/queue.md#in-the-store: a message that finds no room is answered `full`), and a live run's
 * bytes as they are appended: its events, plus as much again for what they may add to the
 * compacted state (its RUN_STARTED: the input's new messages).
 * - **a run** holds at most `maxRunBytes`, and never more than its thread's compacted history
 *   leaves under `maxBytes` (so no thread outgrows the store). A batch that would pass it is
 *   refused (`run-too-large`, nothing of it logged) and the store logs one `RUN_ERROR` code
 *   `RUN_TOO_LARGE` naming the limit as the run's end, for its tails and clients;
 * - **eviction** frees only what incoming bytes need, and only before they are logged: first the
 *   oldest ended run's events of the least recently used thread that has any, then whole threads
 *   without a live run, least recently used first (threads with waiting messages last: their queue
 *   goes with them). Never a thread with a live run, a live run's events, or the thread being written. When that cannot make room (live runs hold the rest),
 *   nothing is evicted and the batch is refused as above (`beginRun`: `capacity`);
 * - **the total** (`stats().bytes`) stays within `maxBytes`, live runs included, but for the ends
 *   the store logs itself (`RUN_TOO_LARGE`, `ABANDONED`: logged even without room, a few hundred
 *   bytes, freed for at once if anything may go), and so within `maxBytes` plus one `maxRunBytes`.
 *   (One estimate can fall short: a STATE_DELTA `copy` operation counts its own text, not what it
 *   copies; the state is measured when the run ends, and idle threads make room for it then.)
 *
 * Besides bytes: a run beyond `maxRunsPerThread` drops the thread's oldest run's events; a new
 * thread beyond `maxThreads` evicts the least recently used thread without a live run, and when
 * every thread has one, `beginRun` rejects with `capacity`. A thread is used by `beginRun`,
 * `append`, `read`, `history` and `stop` (listing is not use). Dropping events never loses the
 * thread's state, only the cursors into them (a client reconnecting with one gets the snapshot
 * path). Evicting a thread forgets it (404), its tails error with `evicted`, and it leaves its
 * owner's list, whose listeners hear it `deleted` (docs/threads.md#in-the-store).
 *
 * **Owners** (docs/threads.md#in-the-store): threads are keyed by (owner, thread id), each
 * owner's list is an index kept in list order, and a deleted thread's key is a tombstone for two
 * leases.
 *
 * @example
 * const store = memoryStore();
 * const writer = await store.beginRun(input);
 * await writer.append([ev.textMessageStart("m1"), ev.textMessageContent("m1", "Hi"), ev.textMessageEnd("m1")]);
 * await writer.append([ev.runFinished(input.threadId, input.runId)]);
 * const read = await store.read(input.threadId); // { kind: "snapshot", snapshot: { messages: [m1], … } }
 */
export function memoryStore(options: MemoryStoreOptions = {}): MemoryStore {
  return new MemoryThreadStore(options);
}

class MemoryThreadStore implements MemoryStore {
  /** Threads by (owner, id) and each owner's list of them. */
  private readonly owned: OwnedThreads;
  /** `owned.table`: in least-recently-used order, the first is the next to go. */
  private readonly threads: ThreadTable;
  private readonly maxThreads: number;
  private readonly maxRunsPerThread: number;
  private readonly ledger: ByteLedger;
  private readonly lease: number;
  private readonly clock: StoreClock;
  /** The threads' queues of waiting messages (docs/queue.md#in-the-store). */
  private readonly queues: StoreQueues;
  /** Names this store instance in its cursors, so another process's (or a restarted one's) read as unknown. */
  private readonly instance = globalThis.crypto.randomUUID().slice(0, 8);
  private incarnations = 0;

  constructor(options: MemoryStoreOptions) {
    const { maxThreads, maxRunsPerThread, maxBytes, maxRunBytes } = resolveBounds(options);
    this.maxThreads = maxThreads;
    this.maxRunsPerThread = maxRunsPerThread;
    this.lease = positive("lease", options.lease ?? DEFAULT_LEASE_MS);
    this.clock = options.clock ?? systemClock;
    this.owned = new OwnedThreads(this.clock, this.lease, (thread) => this.queues.dropped(thread));
    this.threads = this.owned.table;
    this.ledger = new ByteLedger(this.threads, maxBytes, maxRunBytes);
    this.queues = new StoreQueues(this.owned, this.ledger, (thread) => this.expireIfDue(thread));
  }

  stats(): MemoryStoreStats {
    return this.ledger.stats();
  }

  async beginRun(input: RunAgentInput, options: BeginOptions = {}): Promise<RunWriter> {
    const { threadId, runId } = input;
    this.owned.refuseDeleted(options.owner, threadId, runId);
    const existing = this.owned.get(options.owner, threadId);
    if (existing !== undefined) this.expireIfDue(existing);
    if (existing?.live !== undefined) {
      throw new StoreError(
        "run-active",
        `expected no live run on thread "${threadId}" to start run "${runId}", but run "${existing.live.runId}" is still live (one run per thread at a time)`,
        { threadId, runId: existing.live.runId },
      );
    }
    const dequeued = this.queues.admitRun(existing, threadId, runId, options); // the queue goes first; a dequeue leaves it only if the run begins
    refuseMoved(existing?.log.lastCursor ?? null, options.expectCursor, threadId, runId);
    if (existing !== undefined) refuseSwitched(existing.fold.pathMark(), options.expectPath, threadId, runId);
    const fork = options.forkAfter === undefined ? undefined : existing?.fold.forkMarker(options.forkAfter);
    const started = ev.runStarted(threadId, runId, {
      parentRunId: input.parentRunId,
      protocolVersion: PROTOCOL_VERSION,
      ...startedMetadata(fork === undefined ? undefined : forkMetadata(fork), options.runTrace),
    });
    // Logged without the input (every later copy is small); folded with it, so its messages join the thread (docs/rules.md#A15): that growth is the run's too.
    const startedTexts = eventTexts(threadId, [started]);
    const startedBytes = startedTexts[0].length;
    const foldBytes = newMessageBytes(existing?.messageIds() ?? new Set(), input.messages, threadId);
    // Runs past maxRunsPerThread go first: dropping their events may make all the room needed.
    if (existing !== undefined) this.ledger.bytes -= existing.dropOldestRuns(this.maxRunsPerThread - 1);
    const limit = this.ledger.admitStart(existing, { threadId, runId }, startedBytes + foldBytes);
    const thread = existing ?? this.createThread(threadId, options.owner);
    const live: LiveRun = {
      runId,
      loggedBytes: 0,
      foldBytes: 0,
      limit,
      deadline: this.clock.now() + this.lease,
      cancelTimer: () => undefined,
      stopRequested: false,
      watchers: new Set(),
      steerWatchers: new Set(),
    };
    thread.live = live;
    live.cancelTimer = this.clock.setTimer(this.lease, () => this.onLeaseTimer(thread, live));
    thread.runs.push({ runId, lastSeq: thread.log.lastSeq + 1 });
    const [stored] = this.write(thread, [started], startedTexts, foldBytes, { ...started, input });
    this.owned.ranNow(thread, existing === undefined ? "created" : "run-started");
    if (dequeued !== undefined) this.queues.started(thread, dequeued);
    return {
      threadId,
      runId,
      started: stored,
      append: (events) => this.append(thread, live, events),
      renewLease: () => this.renew(thread, live),
      stopRequested: stopRequests(live, () => thread.live === live),
      setTitle: (title) => this.setTitle(thread, live, title),
      steers: this.queues.steers(thread, live),
    };
  }

  async read(threadId: string, after?: Cursor, options: ReadOptions = {}): Promise<ThreadRead | undefined> {
    const limit = options.limit === undefined ? undefined : checkPageLimit("read", options.limit);
    const thread = this.owned.get(options.owner, threadId);
    if (thread === undefined) return undefined;
    this.expireIfDue(thread);
    this.threads.touch(thread);
    const resume = after === undefined ? undefined : thread.resumeFrom(after);
    if (resume !== undefined) return resume;
    if (limit === undefined) return { kind: "snapshot", snapshot: thread.snapshot(), ...this.queues.readField(thread) };
    return { kind: "snapshot", snapshot: thread.snapshot(limit), hasOlder: thread.messages.length > limit, ...this.queues.readField(thread) };
  }

  tail(threadId: string, after: Cursor, scope: StoreScope = {}): Observable<StoredEvent> {
    const thread = this.owned.get(scope.owner, threadId);
    if (thread === undefined) return evictedThread(threadId);
    return thread.tail(after);
  }

  async stop(threadId: string, runId: string, scope: StoreScope = {}): Promise<StopAnswer> {
    const thread = this.owned.get(scope.owner, threadId);
    if (thread === undefined) return "unknown";
    this.expireIfDue(thread);
    this.threads.touch(thread);
    const live = thread.live;
    if (live !== undefined && live.runId === runId) {
      requestStop(live);
      return "stopping";
    }
    return thread.runs.some((run) => run.runId === runId) ? "ended" : "unknown";
  }

  async list(scope: StoreScope, query: ListQuery): Promise<ThreadPage> {
    return this.owned.list(scope, query);
  }

  async update(threadId: string, patch: ThreadPatch, scope: StoreScope = {}): Promise<ThreadSummary | undefined> {
    return this.owned.update(threadId, patch, scope);
  }

  async remove(threadId: string, scope: StoreScope = {}): Promise<boolean> {
    const thread = this.owned.get(scope.owner, threadId);
    if (thread === undefined) return false;
    this.ledger.bytes -= thread.bytes; // its live run's included, before the run is let go
    const live = thread.live;
    if (live !== undefined) {
      requestStop(live); // its producer stops; its writes are refused from here on (run-ended)
      thread.live = undefined;
      live.cancelTimer();
      for (const watcher of [...live.watchers]) watcher(false);
    }
    this.owned.delete(thread); // its queue goes with it
    if (live !== undefined) this.queues.ended(thread, live.runId);
    return true;
  }

  async selectBranch(threadId: string, messageId: string, index: number, scope: StoreScope = {}): Promise<SelectAnswer> {
    const thread = this.owned.get(scope.owner, threadId);
    if (thread === undefined) return "unknown";
    this.expireIfDue(thread);
    this.threads.touch(thread);
    if (thread.live !== undefined) return "run-active";
    if (thread.queue.size > 0) return "queue-pending";
    const result = thread.fold.select(messageId, index);
    if (result !== "switched") return result;
    // Not measured again: a switch moves messages and states between the path and the tree, so the
    // thread's bytes stay what they were (but for a few ids), and measuring would cost O(thread).
    this.owned.pathSelected(thread);
    return result;
  }

  async history(threadId: string, query: HistoryQuery, scope: StoreScope = {}): Promise<HistoryPage | undefined> {
    return this.owned.history(threadId, query, scope);
  }

  async enqueue(entry: QueuedRun, options: EnqueueOptions): Promise<EnqueueAnswer> {
    return this.queues.enqueue(entry, options);
  }

  async cancelQueued(threadId: string, id: string, reason: string, scope: StoreScope = {}): Promise<CancelQueuedAnswer> {
    return this.queues.cancel(threadId, id, reason, scope);
  }

  async queueEntry(threadId: string, id: string, scope: StoreScope = {}): Promise<QueueEntryState> {
    return this.queues.entry(threadId, id, scope);
  }

  queueChanges(threadId: string, scope: StoreScope = {}): Observable<QueueChange> {
    return this.queues.listen(threadId, scope);
  }

  listEvents(scope: StoreScope): Observable<ThreadListEvent> {
    return this.owned.listen(scope);
  }

  /** Checks, measures and admits a batch (the run's bound, then room), then logs it; a batch too large ends the run `RUN_TOO_LARGE`. */
  private append(thread: MemoryThread, live: LiveRun, events: readonly Event[]): Promise<readonly Cursor[]> {
    if (thread.live === live) this.expireIfDue(thread);
    if (thread.live !== live) return Promise.reject(this.runEnded(thread, live));
    const refusal = checkBatch(thread.id, live.runId, events);
    if (refusal !== undefined) return Promise.reject(refusal);
    let texts: string[];
    try {
      texts = eventTexts(thread.id, events);
    } catch (error) {
      return Promise.reject(error);
    }
    const logged = totalLength(texts);
    const tooLarge = this.ledger.refuseBatch(thread, live, 2 * logged); // its log entries, and what they may add to the compacted state
    if (tooLarge !== undefined) return Promise.reject(this.endTooLarge(thread, tooLarge));
    this.queues.takeSteers(thread, live, events); // atomically with the write: nothing can fail between them
    const cursors = this.write(thread, events, texts, logged).map((stored) => stored.cursor);
    live.deadline = this.clock.now() + this.lease; // an append is a heartbeat
    return Promise.resolve(cursors);
  }

  private setTitle(thread: MemoryThread, live: LiveRun, title: string): Promise<void> {
    if (thread.live === live) this.expireIfDue(thread);
    if (thread.live !== live) return Promise.reject(this.runEnded(thread, live));
    this.owned.setAgentTitle(thread, title);
    return Promise.resolve();
  }

  private renew(thread: MemoryThread, live: LiveRun): Promise<boolean> {
    if (thread.live === live) this.expireIfDue(thread);
    if (thread.live !== live) return Promise.resolve(false);
    live.deadline = this.clock.now() + this.lease;
    return Promise.resolve(true);
  }

  /** Ends the live run with one `RUN_TOO_LARGE` that says why (logged without room: it is the run's end); returns the refusal. */
  private endTooLarge(thread: MemoryThread, refusal: StoreError): StoreError {
    this.ledger.tooLargeRuns++;
    this.endByStore(thread, ev.runError(refusal.message, { code: RUN_TOO_LARGE_ERROR_CODE }));
    return refusal;
  }

  /** Logs an end the store decides (`RUN_TOO_LARGE`, `ABANDONED`), admitted without room, then frees what it can for it. */
  private endByStore(thread: MemoryThread, end: Event): void {
    const texts = eventTexts(thread.id, [end]);
    this.write(thread, [end], texts, texts[0].length);
  }

  /**
   * Logs, folds and delivers `events` (already admitted) and counts them: the lengths of their JSON
   * `texts` into the log, `foldBytes` into the live run's growth of the compacted state. A terminal
   * ends the live run, whose state is then measured; only if that (or an end the store logs itself)
   * leaves the total past `maxBytes` does eviction run after the write.
   */
  private write(thread: MemoryThread, events: readonly Event[], texts: readonly string[], foldBytes: number, foldFirstAs?: Event): StoredEvent[] {
    const logged = totalLength(texts);
    const live = thread.live;
    // Counted before delivery: a tail's subscriber that appends in turn sees this batch counted.
    this.ledger.bytes += logged + (live === undefined ? 0 : foldBytes);
    if (live !== undefined) {
      live.loggedBytes += logged;
      live.foldBytes += foldBytes;
    }
    this.threads.touch(thread);
    const stored = thread.record(events, texts, foldFirstAs);
    if (events.length > 0 && isTerminal(events[events.length - 1])) this.endLiveRun(thread);
    this.ledger.settle(thread);
    return stored;
  }

  private endLiveRun(thread: MemoryThread): void {
    const live = thread.live;
    if (live === undefined) return;
    const before = thread.bytes;
    thread.live = undefined;
    thread.measureSnapshot(); // O(thread), once per run: the estimate `foldBytes` gives way to the measure
    this.ledger.bytes += thread.bytes - before;
    live.cancelTimer();
    for (const watcher of [...live.watchers]) watcher(false);
    this.owned.ranNow(thread, "run-ended");
    this.queues.ended(thread, live.runId);
  }

  private onLeaseTimer(thread: MemoryThread, live: LiveRun): void {
    if (thread.live !== live) return;
    const remaining = live.deadline - this.clock.now();
    if (remaining > 0) live.cancelTimer = this.clock.setTimer(remaining, () => this.onLeaseTimer(thread, live));
    else this.expireIfDue(thread);
  }

  /** Ends the live run `ABANDONED` if its lease ran out; once, since the run is then no longer live. */
  private expireIfDue(thread: MemoryThread): void {
    const live = thread.live;
    if (live === undefined || this.clock.now() < live.deadline) return;
    const message = `run "${live.runId}" was abandoned: its producer neither appended nor renewed its lease for ${this.lease} ms, so it is presumed gone`;
    this.endByStore(thread, ev.runError(message, { code: ABANDONED_ERROR_CODE }));
  }

  private runEnded(thread: MemoryThread, live: LiveRun): StoreError {
    const last = thread.snapshot().run;
    const deleted = this.threads.get(thread.key) !== thread; // only a deleted thread loses a live run without an end
    const ended = last.runId === live.runId ? ` (it ended ${last.status}${last.errorCode === undefined ? "" : ` ${last.errorCode}`})` : "";
    const how = deleted ? " (its thread was deleted)" : ended;
    return new StoreError("run-ended", `expected run "${live.runId}" of thread "${thread.id}" to be live, but it is over${how}`, {
      threadId: thread.id,
      runId: live.runId,
    });
  }

  private createThread(threadId: string, owner: string | undefined): MemoryThread {
    if (this.threads.size >= this.maxThreads) {
      if (!this.ledger.evictForThread()) {
        const message = `expected room for thread "${threadId}", but all ${this.maxThreads} threads (maxThreads) have a live run`;
        throw new StoreError("capacity", message, { threadId });
      }
    }
    const thread = new MemoryThread(threadId, `${this.instance}.${(this.incarnations++).toString(36)}.`, newMeta(owner, this.clock.now()));
    this.threads.add(thread);
    return thread;
  }
}

/** Asks a live run to stop: its producer hears it through `stopRequested`. */
function requestStop(live: LiveRun): void {
  live.stopRequested = true;
  for (const watcher of [...live.watchers]) watcher(true);
}

/** The bytes of a batch: the summed lengths of its events' JSON texts. */
function totalLength(texts: readonly string[]): number {
  let total = 0;
  for (const text of texts) total += text.length;
  return total;
}

function evictedThread(threadId: string): Observable<StoredEvent> {
  return new Observable<StoredEvent>((subscriber) =>
    subscriber.error(new StoreError("evicted", `expected thread "${threadId}" to be followable, but the store does not hold it`, { threadId })),
  );
}
