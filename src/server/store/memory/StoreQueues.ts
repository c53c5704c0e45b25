/** The memory store's queues of waiting messages (docs/queue.md#in-the-store): enqueue, cancel, dequeue with a run's start, steers taken by appends, and what is announced of each. */
import type { Observable } from "rxjs";
import type { Event } from "../../../protocol/events";
import type { QueuedStatus } from "../../../protocol/queueMeta";
import type { ThreadQueueChanged } from "../../../thread/threadList";
import { listedQueued, queuedMessageOf, type QueuedRun } from "../QueuedRun";
import { StoreError } from "../StoreError";
import type { BeginOptions, CancelQueuedAnswer, EnqueueAnswer, EnqueueOptions, QueueChange, QueueEntryState, SnapshotRead, StoreScope } from "../ThreadStore";
import type { ByteLedger } from "./ByteLedger";
import type { LiveRun } from "./LiveRun";
import { liveSteers } from "./liveSteers";
import type { MemoryThread } from "./MemoryThread";
import type { OwnedThreads } from "./OwnedThreads";
import { QueueChanges } from "./QueueChanges";
import type { QueueOutcome } from "./ThreadQueue";
import { threadKey } from "./threadKey";

/**
 * The entry a `beginRun` with `dequeue` starts, and how it was listed just before (its status is
 * announced with `queue-started`).
 */
export interface Dequeued {
  readonly entry: QueuedRun;
  readonly status: QueuedStatus;
}

/**
 * Every thread's queue lives on its `MemoryThread` (`thread.queue`), so a deleted or evicted thread
 * takes its queue and outcomes with it; this decides what may enter and leave, keeps the store's
 * byte total in step (a waiting entry's JSON text counts, as the thread's), and announces each
 * change to the owner's `listEvents` and the thread's `queueChanges`. Every operation is
 * synchronous, so a dequeue is atomic with the RUN_STARTED and a take with its append.
 *
 * @example
 * const queues = new StoreQueues(owned, ledger, (thread) => expireIfDue(thread));
 * queues.enqueue(entry, { owner, max: 16 }); // "queued"
 */
export class StoreQueues {
  private readonly changes = new QueueChanges();

  constructor(
    private readonly owned: OwnedThreads,
    private readonly ledger: ByteLedger,
    /** Ends the thread's live run `ABANDONED` if its lease ran out (the store's own check). */
    private readonly expireIfDue: (thread: MemoryThread) => void,
  ) {}

  /** `ThreadStore.enqueue`. Throws a TypeError for an entry without a user message (the handler stores none). */
  enqueue(entry: QueuedRun, options: EnqueueOptions): EnqueueAnswer {
    const threadId = entry.input.threadId;
    if (this.owned.isDeleted(options.owner, threadId)) return "deleted";
    const thread = this.owned.get(options.owner, threadId);
    if (thread === undefined) return "unknown";
    queuedMessageOf(entry); // refuses an entry that carries no user message, before anything is stored
    this.expireIfDue(thread); // a steer into a run whose lease ran out is a queued run
    this.owned.table.touch(thread);
    if (thread.queue.knows(entry.id) || thread.runs.some((run) => run.runId === entry.id)) return "duplicate";
    if (thread.queue.size >= options.max) return "full";
    const bytes = JSON.stringify(entry).length;
    if (!this.ledger.admitQueued(thread, bytes)) return "full"; // the store has no room it may free for it
    const status = statusOf(thread, entry);
    thread.queue.add(entry, { front: options.front === true, bytes });
    this.ledger.bytes += bytes;
    this.announce(thread, "queue-enqueued", entry, status);
    const live = thread.live;
    if (status === "steering" && live !== undefined) for (const watcher of [...live.steerWatchers]) watcher(entry);
    return status === "steering" ? "steering" : "queued";
  }

  /** `ThreadStore.cancelQueued`: a second cancel of the same entry answers `cancelled` again (its first reason stands; nothing is announced again). */
  cancel(threadId: string, id: string, reason: string, scope: StoreScope): CancelQueuedAnswer {
    const thread = this.owned.get(scope.owner, threadId);
    if (thread === undefined) return "unknown";
    this.expireIfDue(thread);
    const entry = thread.queue.find(id);
    if (entry === undefined) {
      const state = thread.queue.state(id);
      return state.state === "waiting" ? "unknown" : state.state;
    }
    this.owned.table.touch(thread);
    this.leave(thread, entry, statusOf(thread, entry), { state: "cancelled", reason });
    return "cancelled";
  }

  /** `ThreadStore.queueEntry`. */
  entry(threadId: string, id: string, scope: StoreScope): QueueEntryState {
    const thread = this.owned.get(scope.owner, threadId);
    return thread === undefined ? { state: "unknown" } : thread.queue.state(id);
  }

  /** `ThreadStore.queueChanges`. */
  listen(threadId: string, scope: StoreScope): Observable<QueueChange> {
    return this.changes.listen(threadKey(scope.owner, threadId));
  }

  /** `SnapshotRead.queue` of the thread: its entries in run order, left out when there are none. */
  readField(thread: MemoryThread): Pick<SnapshotRead, "queue"> {
    return thread.queue.size === 0 ? {} : { queue: thread.queue.entries() };
  }

  /**
   * `beginRun`'s queue rule, checked after `run-active` and before anything is logged: with
   * `dequeue`, the queue's head must be that entry (`queue-moved` otherwise), returned to start;
   * without it, a non-empty queue refuses the run (`queue-pending`) unless it passes the queue.
   */
  admitRun(thread: MemoryThread | undefined, threadId: string, runId: string, options: BeginOptions): Dequeued | undefined {
    const head = thread?.queue.head();
    if (options.dequeue !== undefined) {
      if (thread !== undefined && head !== undefined && head.id === options.dequeue) return { entry: head, status: statusOf(thread, head) };
      const found = head === undefined ? "its queue is empty" : `its head is "${head.id}"`;
      const message = `expected "${options.dequeue}" at the head of thread "${threadId}"'s queue to start it, but ${found}: it started elsewhere, or was cancelled`;
      throw new StoreError("queue-moved", message, { threadId, runId });
    }
    if (head === undefined || options.passQueue === true) return undefined;
    const count = thread?.queue.size ?? 0;
    const message = `expected no waiting messages on thread "${threadId}" to start run "${runId}", but ${count} wait (the queue goes first, docs/queue.md#policies)`;
    throw new StoreError("queue-pending", message, { threadId, runId });
  }

  /** The dequeued entry's run was begun (its RUN_STARTED logged): it leaves the queue, `started`. */
  started(thread: MemoryThread, dequeued: Dequeued): void {
    this.leave(thread, dequeued.entry, dequeued.status, { state: "started", runId: dequeued.entry.id });
  }

  /**
   * Before an admitted batch of `live` is logged: every steer for this run whose user message the
   * batch starts (TEXT_MESSAGE_START, role `user`, its `messageId`) leaves the queue, `taken`.
   */
  takeSteers(thread: MemoryThread, live: LiveRun, events: readonly Event[]): void {
    if (thread.queue.size === 0) return;
    for (const event of events) {
      if (event.type !== "TEXT_MESSAGE_START" || event.role !== "user") continue;
      const entry = thread.queue.entries().find((waiting) => isSteerFor(waiting, live.runId) && queuedMessageOf(waiting).id === event.messageId);
      if (entry !== undefined) this.leave(thread, entry, "steering", { state: "taken", runId: live.runId });
    }
  }

  /** `RunWriter.steers` of `live`. */
  steers(thread: MemoryThread, live: LiveRun): Observable<QueuedRun> {
    return liveSteers(live, {
      waiting: () => thread.queue.entries().filter((entry) => isSteerFor(entry, live.runId)),
      stillWaits: (id) => thread.queue.find(id) !== undefined,
      isLive: () => thread.live === live,
    });
  }

  /** The thread's live run `runId` ended (its terminal, `ABANDONED`, `RUN_TOO_LARGE`, or its thread was deleted): a waiting message may start. */
  ended(thread: MemoryThread, runId: string): void {
    this.changes.announce(thread.key, { kind: "ended", id: runId });
  }

  /**
   * The thread left the store (deleted or evicted) with its queue: each waiting entry's listeners
   * hear it `cancelled` (its `queueEntry` is `unknown` from now on). Its owner's list hears the
   * thread `deleted`, so no `queue-cancelled` is listed.
   */
  dropped(thread: MemoryThread): void {
    for (const entry of thread.queue.entries()) this.changes.announce(thread.key, { kind: "cancelled", id: entry.id });
  }

  private leave(thread: MemoryThread, entry: QueuedRun, status: QueuedStatus, outcome: QueueOutcome): void {
    const left = thread.queue.leave(entry.id, outcome);
    if (left === undefined) return;
    this.ledger.bytes -= left.bytes;
    const type = outcome.state === "started" ? "queue-started" : outcome.state === "taken" ? "queue-taken" : "queue-cancelled";
    this.announce(thread, type, entry, status);
  }

  private announce(thread: MemoryThread, type: ThreadQueueChanged["type"], entry: QueuedRun, status: QueuedStatus): void {
    this.owned.announceQueue(thread, () => ({ type, threadId: thread.id, queued: listedQueued(entry, status) }));
    const kind = type === "queue-enqueued" ? "enqueued" : type === "queue-started" ? "started" : type === "queue-taken" ? "taken" : "cancelled";
    this.changes.announce(thread.key, { kind, id: entry.id });
  }
}

/** How the thread lists `entry` now: `steering` into its live target, `waiting` on answers while nothing is live, else `queued`. */
function statusOf(thread: MemoryThread, entry: QueuedRun): QueuedStatus {
  if (thread.live !== undefined) return isSteerFor(entry, thread.live.runId) ? "steering" : "queued";
  return thread.fold.awaitsAnswers() ? "waiting" : "queued";
}

function isSteerFor(entry: QueuedRun, runId: string): boolean {
  return entry.policy === "steer" && entry.target === runId;
}
