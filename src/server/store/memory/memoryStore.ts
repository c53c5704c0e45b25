/** The embedded `ThreadStore` (DESIGN §6, docs/durability.md): every thread in this process's memory, bounded, least-recently-used first out. */
import { Observable } from "rxjs";
import { PROTOCOL_VERSION } from "../../../protocol/version";
import { ev } from "../../../protocol/build";
import type { Event } from "../../../protocol/events";
import type { RunAgentInput } from "../../../protocol/input";
import { checkBatch, isTerminal } from "../checkBatch";
import { systemClock, type StoreClock } from "../StoreClock";
import { StoreError } from "../StoreError";
import {
  ABANDONED_ERROR_CODE,
  DEFAULT_LEASE_MS,
  type Cursor,
  type RunWriter,
  type StoredEvent,
  type StopAnswer,
  type ThreadRead,
  type ThreadStore,
} from "../ThreadStore";
import { enforceByteBound, evictIdleThread } from "./evictions";
import { MemoryThread, type LiveRun } from "./MemoryThread";

/**
 * Options of `memoryStore()`. Every bound holds at all times; see `memoryStore` for what goes first.
 *
 * @example
 * memoryStore({ maxThreads: 100, maxRunsPerThread: 10, maxBytes: 16 * 1024 * 1024, lease: 10_000 });
 */
export interface MemoryStoreOptions {
  /** Threads kept (default 1,000). */
  readonly maxThreads?: number;
  /** Runs whose events a thread keeps for cursors (default 50); older runs live on in the snapshot. */
  readonly maxRunsPerThread?: number;
  /** Bytes kept: the JSON text of retained events plus each thread's compacted state (default 64 MiB). */
  readonly maxBytes?: number;
  /** Milliseconds a live run may go without an append or a heartbeat before it is ended `ABANDONED` (default `DEFAULT_LEASE_MS`, 30,000). */
  readonly lease?: number;
  /** Time and timers (default `systemClock`); tests pass a manual clock. */
  readonly clock?: StoreClock;
}

/**
 * What a memory store holds right now, for tests, monitoring and the benchmark.
 *
 * @example
 * const { threads, liveRuns, bytes } = store.stats();
 */
export interface MemoryStoreStats {
  readonly threads: number;
  readonly liveRuns: number;
  /** Bytes counted against `maxBytes`. */
  readonly bytes: number;
}

/**
 * A `ThreadStore` in this process's memory, with its bookkeeping visible.
 *
 * @example
 * const store: MemoryStore = memoryStore();
 * store.stats().threads; // 0
 */
export interface MemoryStore extends ThreadStore {
  stats(): MemoryStoreStats;
}

/**
 * `memoryStore`'s default bounds (see `MemoryStoreOptions`).
 *
 * @example
 * memoryStore({ maxBytes: MEMORY_STORE_DEFAULTS.maxBytes * 4 });
 */
export const MEMORY_STORE_DEFAULTS = { maxThreads: 1000, maxRunsPerThread: 50, maxBytes: 64 * 1024 * 1024 } as const;

/**
 * The embedded store: threads, their runs' events with cursors, and their compacted state (folded
 * with the client's reducer), all in this process. A process restart forgets everything (cursors
 * from before read as unknown: the snapshot path of an unknown thread, 404). Runs of one process
 * stop each other in process (`stop` → `stopRequested`).
 *
 * Bounds and eviction, least recently used first (a thread is used by `beginRun`, `append`,
 * `read`, `stop`):
 * 1. **runs per thread**: a run beyond `maxRunsPerThread` drops the thread's oldest run's events;
 * 2. **bytes**: past `maxBytes`, drop the oldest ended run's events of the least recently used
 *    thread that has any; when none is left, evict the least recently used thread without a live
 *    run; when only live runs are left, trim the oldest events of the least recently used one;
 * 3. **threads**: a new thread beyond `maxThreads` evicts the least recently used thread without a
 *    live run; when every thread has one, `beginRun` rejects with `capacity`.
 *
 * Dropping events never loses the thread's state, only the cursors into them: a client that
 * reconnects with one gets the snapshot path. Evicting a thread forgets it (404), and its tails
 * error with `evicted`. A live run is never evicted.
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
  /** Threads in least-recently-used order: the first is the next to go. */
  private readonly threads = new Map<string, MemoryThread>();
  private readonly maxThreads: number;
  private readonly maxRunsPerThread: number;
  private readonly maxBytes: number;
  private readonly lease: number;
  private readonly clock: StoreClock;
  /** Names this store instance in its cursors, so another process's (or a restarted one's) read as unknown. */
  private readonly instance = globalThis.crypto.randomUUID().slice(0, 8);
  private incarnations = 0;
  private bytes = 0;

  constructor(options: MemoryStoreOptions) {
    this.maxThreads = positive("maxThreads", options.maxThreads ?? MEMORY_STORE_DEFAULTS.maxThreads);
    this.maxRunsPerThread = positive("maxRunsPerThread", options.maxRunsPerThread ?? MEMORY_STORE_DEFAULTS.maxRunsPerThread);
    this.maxBytes = positive("maxBytes", options.maxBytes ?? MEMORY_STORE_DEFAULTS.maxBytes);
    this.lease = positive("lease", options.lease ?? DEFAULT_LEASE_MS);
    this.clock = options.clock ?? systemClock;
  }

  stats(): MemoryStoreStats {
    let liveRuns = 0;
    for (const thread of this.threads.values()) if (thread.live !== undefined) liveRuns++;
    return { threads: this.threads.size, liveRuns, bytes: this.bytes };
  }

  async beginRun(input: RunAgentInput): Promise<RunWriter> {
    const { threadId, runId } = input;
    const thread = this.threads.get(threadId) ?? this.createThread(threadId);
    this.expireIfDue(thread);
    if (thread.live !== undefined) {
      throw new StoreError(
        "run-active",
        `expected no live run on thread "${threadId}" to start run "${runId}", but run "${thread.live.runId}" is still live (one run per thread at a time)`,
        { threadId, runId: thread.live.runId },
      );
    }
    this.touch(thread);
    const started = ev.runStarted(threadId, runId, { parentRunId: input.parentRunId, protocolVersion: PROTOCOL_VERSION });
    const live: LiveRun = { runId, deadline: this.clock.now() + this.lease, cancelTimer: () => undefined, stopRequested: false, watchers: new Set() };
    thread.live = live;
    live.cancelTimer = this.clock.setTimer(this.lease, () => this.onLeaseTimer(thread, live));
    thread.runs.push({ runId, lastSeq: thread.log.lastSeq + 1 });
    while (thread.runs.length > this.maxRunsPerThread) {
      const oldest = thread.runs.shift();
      if (oldest !== undefined) this.bytes -= thread.log.dropThrough(oldest.lastSeq);
    }
    // Logged without the input (every later copy is small); folded with it, so its messages join the thread (A15).
    const [stored] = this.write(thread, [started], { ...started, input });
    return {
      threadId,
      runId,
      started: stored,
      append: (events) => this.append(thread, live, events),
      renewLease: () => this.renew(thread, live),
      stopRequested: stopRequests(live, () => thread.live === live),
    };
  }

  async read(threadId: string, after?: Cursor): Promise<ThreadRead | undefined> {
    const thread = this.threads.get(threadId);
    if (thread === undefined) return undefined;
    this.expireIfDue(thread);
    this.touch(thread);
    const resume = after === undefined ? undefined : thread.resumeFrom(after);
    return resume ?? { kind: "snapshot", snapshot: thread.snapshot() };
  }

  tail(threadId: string, after: Cursor): Observable<StoredEvent> {
    const thread = this.threads.get(threadId);
    if (thread === undefined) return evictedThread(threadId);
    return thread.tail(after);
  }

  async stop(threadId: string, runId: string): Promise<StopAnswer> {
    const thread = this.threads.get(threadId);
    if (thread === undefined) return "unknown";
    this.expireIfDue(thread);
    this.touch(thread);
    const live = thread.live;
    if (live !== undefined && live.runId === runId) {
      live.stopRequested = true;
      for (const watcher of [...live.watchers]) watcher(true);
      return "stopping";
    }
    return thread.runs.some((run) => run.runId === runId) ? "ended" : "unknown";
  }

  private append(thread: MemoryThread, live: LiveRun, events: readonly Event[]): Promise<readonly Cursor[]> {
    if (thread.live === live) this.expireIfDue(thread);
    if (thread.live !== live) return Promise.reject(this.runEnded(thread, live));
    const refusal = checkBatch(thread.id, live.runId, events);
    if (refusal !== undefined) return Promise.reject(refusal);
    let cursors: Cursor[];
    try {
      cursors = this.write(thread, events).map((stored) => stored.cursor);
    } catch (error) {
      return Promise.reject(error);
    }
    live.deadline = this.clock.now() + this.lease; // an append is a heartbeat
    return Promise.resolve(cursors);
  }

  private renew(thread: MemoryThread, live: LiveRun): Promise<boolean> {
    if (thread.live === live) this.expireIfDue(thread);
    if (thread.live !== live) return Promise.resolve(false);
    live.deadline = this.clock.now() + this.lease;
    return Promise.resolve(true);
  }

  /** Measures, logs, folds and delivers `events`; ends the live run at a terminal; then enforces the byte bound. */
  private write(thread: MemoryThread, events: readonly Event[], foldFirstAs?: Event): StoredEvent[] {
    const sizes = events.map((event, index) => jsonSize(thread, event, index));
    const before = thread.bytes;
    const stored = thread.record(events, sizes, foldFirstAs);
    if (events.length > 0 && isTerminal(events[events.length - 1])) this.endLiveRun(thread);
    this.bytes += thread.bytes - before;
    this.touch(thread);
    this.bytes -= enforceByteBound(this.threads, this.bytes, this.maxBytes);
    return stored;
  }

  private endLiveRun(thread: MemoryThread): void {
    const live = thread.live;
    if (live === undefined) return;
    thread.live = undefined;
    live.cancelTimer();
    for (const watcher of [...live.watchers]) watcher(false);
    const { messages, state } = thread.snapshot();
    thread.snapshotBytes = JSON.stringify({ messages, state }).length; // O(thread), once per run
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
    this.write(thread, [ev.runError(message, { code: ABANDONED_ERROR_CODE })]);
  }

  private runEnded(thread: MemoryThread, live: LiveRun): StoreError {
    const last = thread.snapshot().run;
    const how = last.runId === live.runId ? ` (it ended ${last.status}${last.errorCode === undefined ? "" : ` ${last.errorCode}`})` : "";
    return new StoreError("run-ended", `expected run "${live.runId}" of thread "${thread.id}" to be live, but it is over${how}`, {
      threadId: thread.id,
      runId: live.runId,
    });
  }

  private createThread(threadId: string): MemoryThread {
    if (this.threads.size >= this.maxThreads) {
      const freed = evictIdleThread(this.threads);
      if (freed === undefined) {
        const message = `expected room for thread "${threadId}", but all ${this.maxThreads} threads (maxThreads) have a live run`;
        throw new StoreError("capacity", message, { threadId });
      }
      this.bytes -= freed;
    }
    const thread = new MemoryThread(threadId, `${this.instance}.${(this.incarnations++).toString(36)}.`);
    this.threads.set(threadId, thread);
    return thread;
  }

  private touch(thread: MemoryThread): void {
    this.threads.delete(thread.id);
    this.threads.set(thread.id, thread);
  }
}

/** The JSON text length of `event`; an event that is not JSON refuses the batch before anything is logged. */
function jsonSize(thread: MemoryThread, event: Event, index: number): number {
  let text: string | undefined;
  try {
    text = JSON.stringify(event);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    const message = `expected JSON events, but the ${event.type} at index ${index} does not serialize: ${why}`;
    throw new StoreError("invalid-append", message, { threadId: thread.id, cause: error });
  }
  return text === undefined ? 0 : text.length;
}

function stopRequests(live: LiveRun, isLive: () => boolean): Observable<void> {
  return new Observable<void>((subscriber) => {
    if (live.stopRequested) {
      subscriber.next();
      subscriber.complete();
      return undefined;
    }
    if (!isLive()) {
      subscriber.complete();
      return undefined;
    }
    const watcher = (stopped: boolean): void => {
      if (stopped) subscriber.next();
      subscriber.complete();
    };
    live.watchers.add(watcher);
    return () => live.watchers.delete(watcher);
  });
}

function evictedThread(threadId: string): Observable<StoredEvent> {
  return new Observable<StoredEvent>((subscriber) =>
    subscriber.error(new StoreError("evicted", `expected thread "${threadId}" to be followable, but the store does not hold it`, { threadId })),
  );
}

function positive(name: string, value: number): number {
  if (!Number.isFinite(value) || value <= 0) throw new RangeError(`memoryStore: expected ${name} to be a positive number, but got ${value}`);
  return value;
}
