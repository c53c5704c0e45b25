/** One memory store thread's queue of waiting messages (docs/queue.md#in-the-store): its entries in run order, their bytes, and what became of the last ones. */
import type { QueuedRun } from "../QueuedRun";
import type { QueueEntryState } from "../ThreadStore";

/**
 * How many outcomes (`started`, `taken`, `cancelled`) a thread remembers: the contract asks for at
 * least the last 64, so a waiter that missed an announcement still learns it; more would only
 * grow a long thread's memory.
 */
export const QUEUE_OUTCOMES_KEPT = 64;

/** How an entry left the queue. */
export type QueueOutcome = Exclude<QueueEntryState, { readonly state: "waiting" } | { readonly state: "unknown" }>;

interface Waiting {
  readonly entry: QueuedRun;
  /** Its JSON text length, counted in the store's byte total while it waits. */
  readonly bytes: number;
}

/**
 * The waiting entries of one thread, front ones (in send order) ahead of back ones (in send
 * order), and the outcomes of the last `QUEUE_OUTCOMES_KEPT` entries that left. It keeps; the
 * store decides (who may enqueue, when an entry starts, announcements). A queue holds at most
 * the `max` its callers give, so every operation is O(entries).
 *
 * @example
 * const queue = new ThreadQueue();
 * queue.add(entry, { front: false, bytes: 120 });
 * queue.leave(entry.id, { state: "cancelled", reason: "changed my mind" }); // { entry, bytes: 120 }
 * queue.state(entry.id); // { state: "cancelled", reason: "changed my mind" }
 */
export class ThreadQueue {
  private readonly waiting: Waiting[] = [];
  /** How many of `waiting`'s first entries were sent with `front`. */
  private fronts = 0;
  /** Outcomes by entry id, oldest first (a Map keeps insertion order), at most `QUEUE_OUTCOMES_KEPT`. */
  private readonly outcomes = new Map<string, QueueOutcome>();
  /** The JSON text length of the waiting entries. */
  bytes = 0;

  get size(): number {
    return this.waiting.length;
  }

  /** The waiting entries in the order they will run. */
  entries(): QueuedRun[] {
    return this.waiting.map(({ entry }) => entry);
  }

  /** The first entry to run, if any. */
  head(): QueuedRun | undefined {
    return this.waiting[0]?.entry;
  }

  /** The waiting entry `id`, if it waits. */
  find(id: string): QueuedRun | undefined {
    return this.waiting.find(({ entry }) => entry.id === id)?.entry;
  }

  /** Whether `id` waits here or is remembered as having left. */
  knows(id: string): boolean {
    return this.find(id) !== undefined || this.outcomes.has(id);
  }

  /** Where the entry `id` is (see `QueueEntryState`). */
  state(id: string): QueueEntryState {
    const entry = this.find(id);
    if (entry !== undefined) return { state: "waiting", entry };
    return this.outcomes.get(id) ?? { state: "unknown" };
  }

  /** Adds `entry` behind the other front entries (`front`) or at the back. */
  add(entry: QueuedRun, placed: { readonly front: boolean; readonly bytes: number }): void {
    const waiting: Waiting = { entry, bytes: placed.bytes };
    if (placed.front) this.waiting.splice(this.fronts++, 0, waiting);
    else this.waiting.push(waiting);
    this.bytes += placed.bytes;
  }

  /** Takes the waiting entry `id` out, remembering `outcome`; returns it and its bytes (`undefined` when it does not wait). */
  leave(id: string, outcome: QueueOutcome): Waiting | undefined {
    const index = this.waiting.findIndex(({ entry }) => entry.id === id);
    if (index < 0) return undefined;
    const [left] = this.waiting.splice(index, 1);
    if (index < this.fronts) this.fronts--;
    this.bytes -= left.bytes;
    this.outcomes.delete(id);
    this.outcomes.set(id, outcome);
    for (const oldest of this.outcomes.keys()) {
      if (this.outcomes.size <= QUEUE_OUTCOMES_KEPT) break;
      this.outcomes.delete(oldest);
    }
    return left;
  }
}
