/** One thread of the memory store (docs/durability.md, docs/threads.md#in-the-store): its log, its compacted fold, its runs, its live run, its tails and its metadata. */
import { Observable } from "rxjs";
import type { Event } from "../../../protocol/events";
import { isTerminal } from "../../../thread/isTerminal";
import { StoreError } from "../StoreError";
import { ThreadFold } from "../../../thread/ThreadFold";
import { ClientState } from "../../../thread/reducers/ClientState";
import type { HistoryPage } from "../../../thread/threadList";
import type { MessageList } from "../../../thread/reducers/MessageList";
import type { ThreadSnapshot } from "../../../thread/ThreadSnapshot";
import type { Cursor, ResumeRead, StoredEvent } from "../ThreadStore";
import type { LiveRun } from "./LiveRun";
import { ThreadLog } from "./ThreadLog";
import { ThreadQueue } from "./ThreadQueue";
import { threadKey } from "./threadKey";
import type { ThreadMeta } from "./threadRows";

/** A run the thread remembers (at most `maxRunsPerThread`), for bounds and for `stop`'s answer. */
export interface RunEntry {
  readonly runId: string;
  /** Sequence number of the run's last event so far. */
  lastSeq: number;
}

/** A tail following the thread: the sequence number it has seen through, and where its events go. */
interface TailListener {
  seen: number;
  deliver(stored: StoredEvent): void;
  evicted(): void;
}

/**
 * The per-thread state of `memoryStore()`. It logs, folds and delivers; the store decides when
 * (leases, bounds, eviction). Delivery to tails is synchronous and in log order even when a tail's
 * subscriber appends in turn: nested deliveries queue behind the current one, and every tail skips
 * what it has already seen (its backlog may have covered it).
 *
 * @example
 * const thread = new MemoryThread("t1", "s1.0.", newMeta("alice", clock.now()));
 * const started = ev.runStarted("t1", "r1");
 * thread.record([started], [JSON.stringify(started)]);
 * thread.bytes; // 40: the RUN_STARTED's JSON text
 */
export class MemoryThread {
  /** `threadKey(owner, id)`: the thread's key in its store. */
  readonly key: string;
  readonly log: ThreadLog;
  readonly fold: ThreadFold;
  /** The path, read by position: the fold's own list (a read with a limit, a history page and a row never copy it). */
  readonly messages: Pick<MessageList, "length" | "at" | "indexOf">;
  readonly runs: RunEntry[] = [];
  live: LiveRun | undefined;
  /** Its waiting messages and what became of the last ones (docs/queue.md#in-the-store); they leave the store with the thread. */
  readonly queue = new ThreadQueue();
  /** The compacted state's JSON size (messages and state), measured when a run ends; a live run's growth is its `foldBytes`. */
  snapshotBytes = 0;
  private readonly tails = new Set<TailListener>();
  /** Logged events not yet delivered, each with its JSON text (what a live tail's frame writes). */
  private pending: { stored: StoredEvent; seq: number; json: string }[] = [];
  private delivering = false;

  constructor(
    readonly id: string,
    cursorPrefix: string,
    readonly meta: ThreadMeta,
  ) {
    this.key = threadKey(meta.owner, id);
    this.log = new ThreadLog(cursorPrefix);
    const client = ClientState.untyped();
    this.messages = client.messages;
    this.fold = new ThreadFold(id, client);
  }

  /** The bytes this thread holds against the store's bound: its retained events, its compacted state, its live run's growth of it, and its waiting messages. */
  get bytes(): number {
    return this.log.bytes + this.snapshotBytes + (this.live?.foldBytes ?? 0) + this.queue.bytes;
  }

  /** The bytes of its ended runs' retained events: what dropping run logs can free here. */
  get endedRunBytes(): number {
    return this.log.bytes - (this.live?.loggedBytes ?? 0);
  }

  /** The ids of the messages the compacted thread holds (none before its first RUN_STARTED). */
  messageIds(): Set<string> {
    return new Set(this.fold.snapshot()?.messages.map((message) => message.id));
  }

  /** Forgets the oldest runs until at most `keep` are left, dropping their events; returns the bytes freed. */
  dropOldestRuns(keep: number): number {
    let freed = 0;
    while (this.runs.length > keep) {
      const oldest = this.runs.shift();
      if (oldest !== undefined) freed += this.log.dropThrough(oldest.lastSeq);
    }
    return freed;
  }

  /** Measures the compacted state with its tree (O(thread), once per run when it ends, and per switch). */
  measureSnapshot(): void {
    const { messages, state, branches } = this.snapshot();
    this.snapshotBytes = JSON.stringify({ messages, state, branches }).length;
  }

  /**
   * Logs `events` (already checked) with the lengths of their JSON `texts` (each exactly
   * `JSON.stringify` of its event), folds them (the first as `foldFirstAs` when given: a
   * RUN_STARTED with its input), delivers them to the tails (with their texts), and returns them stored.
   */
  record(events: readonly Event[], texts: readonly string[], foldFirstAs?: Event): StoredEvent[] {
    const stored: StoredEvent[] = [];
    const firstSeq = this.log.lastSeq + 1;
    for (let i = 0; i < events.length; i++) {
      const entry = this.log.append(events[i], texts[i].length);
      this.fold.apply(i === 0 && foldFirstAs !== undefined ? foldFirstAs : events[i], entry.cursor);
      stored.push(entry);
    }
    const run = this.runs[this.runs.length - 1];
    if (run !== undefined) run.lastSeq = this.log.lastSeq;
    for (let i = 0; i < stored.length; i++) this.pending.push({ stored: stored[i], seq: firstSeq + i, json: texts[i] });
    this.drain();
    return stored;
  }

  /** The compacted thread (with `lastMessages`, only that many of its last messages). A thread is made with its first RUN_STARTED, so there always is one. */
  snapshot(lastMessages?: number): ThreadSnapshot {
    const snapshot = this.fold.snapshot(lastMessages);
    if (snapshot === undefined) throw new Error(`thread "${this.id}" has no snapshot: it was created without its RUN_STARTED (a memoryStore bug)`);
    return snapshot;
  }

  /** At most `limit` messages of the path right before the message `before`, oldest first; `undefined` when the path has no such message. O(limit). */
  messagesBefore(before: string, limit: number): HistoryPage | undefined {
    const end = this.messages.indexOf(before);
    if (end < 0) return undefined;
    const start = Math.max(0, end - limit);
    const messages = [];
    for (let index = start; index < end; index++) messages.push(this.messages.at(index));
    return { messages, hasOlder: start > 0 };
  }

  /**
   * The cursor path for `cursor`, or `undefined` for the snapshot path: the cursor is not this
   * log's, events after it were trimmed, or it marks the end of a run (the next event is a new
   * RUN_STARTED, or it is the last event and no run is live).
   */
  resumeFrom(cursor: Cursor): ResumeRead | undefined {
    const seq = this.log.seqOf(cursor);
    if (seq === undefined || seq < this.log.firstSeq - 1) return undefined;
    if (seq === this.log.lastSeq) return this.live === undefined ? undefined : { kind: "resume", after: cursor, events: [] };
    if (this.log.at(seq + 1)?.event.type === "RUN_STARTED") return undefined;
    return { kind: "resume", after: cursor, events: this.log.after(seq) };
  }

  /** `ThreadStore.tail` for this thread. */
  tail(after: Cursor): Observable<StoredEvent> {
    return new Observable<StoredEvent>((subscriber) => {
      const seq = this.log.seqOf(after);
      if (seq === undefined || seq < this.log.firstSeq - 1) {
        subscriber.error(evicted(this.id, `cursor "${after}" is not in its log (evicted, or not this thread's)`));
        return undefined;
      }
      // The backlog, read one event at a time: a subscriber that appends while it is sent more still gets it in order.
      let next = seq + 1;
      while (next <= this.log.lastSeq) {
        const stored = this.log.at(next);
        if (stored === undefined) {
          subscriber.error(evicted(this.id, `events after cursor "${after}" were trimmed while they were read`));
          return undefined;
        }
        next++;
        subscriber.next(stored);
        if (isTerminal(stored.event)) {
          subscriber.complete();
          return undefined;
        }
        if (subscriber.closed) return undefined;
      }
      const listener: TailListener = {
        seen: next - 1,
        deliver: (stored) => {
          subscriber.next(stored);
          if (isTerminal(stored.event)) subscriber.complete();
        },
        evicted: () => subscriber.error(evicted(this.id, "the thread was evicted while it was followed")),
      };
      this.tails.add(listener);
      return () => this.tails.delete(listener);
    });
  }

  /** Errors every tail: the thread is leaving the store. */
  evict(): void {
    const tails = [...this.tails];
    this.tails.clear();
    for (const tail of tails) tail.evicted();
  }

  private drain(): void {
    if (this.delivering) return; // an outer drain is running: it will reach what was just queued
    this.delivering = true;
    try {
      for (let i = 0; i < this.pending.length; i++) {
        const { stored, seq, json } = this.pending[i];
        // Live tails get the event with its JSON text, so that their frames do not serialize it
        // again; the log keeps the event alone (the text would double what it holds). Made once
        // per event, and only when some tail takes it.
        let handed: StoredEvent | undefined;
        for (const tail of this.tails) {
          if (seq <= tail.seen) continue;
          tail.seen = seq;
          tail.deliver((handed ??= { cursor: stored.cursor, event: stored.event, json }));
        }
      }
    } finally {
      this.pending = [];
      this.delivering = false;
    }
  }
}

function evicted(threadId: string, why: string): StoreError {
  return new StoreError("evicted", `expected thread "${threadId}" to be followable, but ${why}; reconnect: the snapshot path answers`, { threadId });
}
