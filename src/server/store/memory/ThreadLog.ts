/** One thread's event log in memory (docs/durability.md): its events by sequence number, trimmed from the front. */
import type { Event } from "../../../protocol/events";
import { isTerminal } from "../../../thread/isTerminal";
import type { Cursor, StoredEvent } from "../ThreadStore";

/** The longest sequence number a cursor may spell (beyond it a cursor cannot be ours). */
const MAX_SEQ_DIGITS = 15;

/**
 * The retained events of one thread, oldest first. Every event gets the next sequence number
 * (0, 1, 2, …: never reused, whatever is trimmed) and the cursor `<prefix><seq>`, where the prefix
 * names the store instance and this incarnation of the thread, so a cursor from another process
 * or from a thread that was evicted and started again reads as unknown rather than as a wrong
 * position. What is retained is always one contiguous range of sequence numbers, because trimming
 * only ever removes the oldest events. Appending and trimming are O(1) amortized, lookup by
 * sequence number O(1).
 *
 * @example
 * const log = new ThreadLog("s1.0.");
 * const stored = log.append(ev.runStarted("t", "r"), 40); // { cursor: "s1.0.0", event }
 * log.seqOf(stored.cursor); // 0
 */
export class ThreadLog {
  // The events and their JSON text lengths (the unit of the store's byte bound) side by side, and
  // no cursor: a logged event is the only object the log keeps for it (the lengths are small
  // integers, stored unboxed), where an entry object, a StoredEvent and a cursor string each were
  // one more for the collector to trace on every pass over a long run's log. Cursors are spelt
  // when an event is handed out.
  private events: Event[] = [];
  private sizes: number[] = [];
  private head = 0;
  /** Sequence number of `events[head]` (of the next event when nothing is retained). */
  private first = 0;
  private next = 0;
  /** Bytes of the retained events. */
  bytes = 0;

  constructor(private readonly prefix: string) {}

  /** Sequence number of the last event ever appended; -1 before the first. */
  get lastSeq(): number {
    return this.next - 1;
  }

  /** The cursor of the last event ever appended (`undefined` before the first): where the thread is now. */
  get lastCursor(): Cursor | undefined {
    return this.next === 0 ? undefined : `${this.prefix}${this.next - 1}`;
  }

  /** Sequence number of the oldest retained event (`lastSeq + 1` when none is retained). */
  get firstSeq(): number {
    return this.first;
  }

  /** How many events are retained. */
  get size(): number {
    return this.events.length - this.head;
  }

  /** Logs `event` under the next sequence number. */
  append(event: Event, bytes: number): StoredEvent {
    const stored: StoredEvent = { cursor: `${this.prefix}${this.next}`, event };
    this.events.push(event);
    this.sizes.push(bytes);
    this.next++;
    this.bytes += bytes;
    return stored;
  }

  /** The retained event with sequence number `seq`, if any (a new StoredEvent per call). */
  at(seq: number): StoredEvent | undefined {
    if (seq < this.first || seq >= this.next) return undefined;
    return { cursor: `${this.prefix}${seq}`, event: this.events[this.head + (seq - this.first)] };
  }

  /** The sequence number `cursor` names, if it is one of this log's (retained or not). */
  seqOf(cursor: Cursor): number | undefined {
    if (!cursor.startsWith(this.prefix)) return undefined;
    const digits = cursor.slice(this.prefix.length);
    if (digits.length === 0 || digits.length > MAX_SEQ_DIGITS || !/^(0|[1-9][0-9]*)$/.test(digits)) return undefined;
    const seq = Number(digits);
    return seq < this.next ? seq : undefined;
  }

  /** The retained events after `seq`, in order, through the first terminal event among them. */
  after(seq: number): StoredEvent[] {
    const out: StoredEvent[] = [];
    for (let s = Math.max(seq + 1, this.first); s < this.next; s++) {
      const event = this.events[this.head + (s - this.first)];
      out.push({ cursor: `${this.prefix}${s}`, event });
      if (isTerminal(event)) break;
    }
    return out;
  }

  /** Drops the retained events with sequence numbers up to `seq`; returns the bytes freed. */
  dropThrough(seq: number): number {
    let freed = 0;
    while (this.first <= seq && this.head < this.events.length) {
      freed += this.sizes[this.head];
      this.head++;
      this.first++;
    }
    this.bytes -= freed;
    // Compact once the dead front is both large and most of the array, so each entry moves O(1) times.
    if (this.head > 1024 && this.head * 2 > this.events.length) {
      this.events = this.events.slice(this.head);
      this.sizes = this.sizes.slice(this.head);
      this.head = 0;
    }
    return freed;
  }
}
