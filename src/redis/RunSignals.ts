/**
 * Stop requests and foreign run ends reaching this instance (docs/durability.md, "Redis": stop
 * propagation): one subscription per store instance to the prefix's signal channel, on which the
 * stop and append scripts announce `["stop" | "end", threadId, runId]` (and the enqueue script
 * `["steer", threadId, runId]` for a steer sent into a live run), dispatched in process to the
 * producers this instance runs; and the queue scripts' changes, `["queue", threadId, kind, id]`
 * (the remove script's `ended` of a deleted thread's live run among them)
 * (docs/queue.md#redis-keys), to the watchers of that thread. The announcement is the fast path:
 * the stop request is also kept in the thread's meta hash, and a producer reads it back with every
 * append and renewal (and the queue's version with every renewal), so a message lost while the
 * subscription reconnects still arrives within one heartbeat.
 */
import type { QueueChange } from "../server/store/ThreadStore";
import { StoreError } from "../server/store/StoreError";
import type { RedisCalls } from "./RedisCalls";
import type { OwnedSubscription, RedisPort } from "./RedisPort";

/**
 * One announcement: a stop of a live run was asked for, a run ended (its terminal was logged,
 * or it was ended ABANDONED, possibly by another instance), or a steer was sent into it.
 *
 * @example
 * parseRunSignal('["stop","t1","r1"]'); // { kind: "stop", threadId: "t1", runId: "r1" }
 */
export interface RunSignal {
  readonly kind: "stop" | "end" | "steer";
  readonly threadId: string;
  readonly runId: string;
}

/**
 * What a thread's watcher hears (`RunSignals.watchThread`): a change of its queue, or the end of its live run.
 *
 * @example
 * const heard: QueueChange = { kind: "ended", id: "r1" };
 */
export type ThreadSignalListener = (change: QueueChange) => void;

const QUEUE_KINDS: ReadonlySet<string> = new Set(["enqueued", "started", "taken", "cancelled", "ended"]);

/**
 * The queue change a channel message carries (`["queue", threadId, kind, id]`), with its thread,
 * or `undefined` for any other message.
 *
 * @example
 * parseQueueSignal('["queue","t1","enqueued","r3"]'); // { threadId: "t1", change: { kind: "enqueued", id: "r3" } }
 */
export function parseQueueSignal(message: string): { readonly threadId: string; readonly change: QueueChange } | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(message);
  } catch {
    return undefined;
  }
  if (!Array.isArray(parsed) || parsed.length !== 4 || parsed[0] !== "queue") return undefined;
  const fields: readonly unknown[] = parsed;
  const [, threadId, kind, id] = fields;
  if (typeof threadId !== "string" || typeof kind !== "string" || !QUEUE_KINDS.has(kind) || typeof id !== "string") return undefined;
  return { threadId, change: { kind: kind as QueueChange["kind"], id } };
}

/**
 * The signal a channel message carries, or `undefined` for a message the store's scripts do not
 * publish (something else writing to the channel: not ours to act on).
 *
 * @example
 * parseRunSignal("hello"); // undefined
 */
export function parseRunSignal(message: string): RunSignal | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(message);
  } catch {
    return undefined; // not JSON, so not a script's announcement
  }
  if (!Array.isArray(parsed) || parsed.length !== 3) return undefined;
  const fields: readonly unknown[] = parsed;
  const [kind, threadId, runId] = fields;
  if ((kind !== "stop" && kind !== "end" && kind !== "steer") || typeof threadId !== "string" || typeof runId !== "string") return undefined;
  return { kind, threadId, runId };
}

/**
 * The instance's subscription and the producers listening through it.
 *
 * @example
 * const signals = new RunSignals(port, new RedisCalls(10_000), "agui:signals", "agui-rx:k3x9:signals");
 * await signals.ready();
 * const stopWatching = signals.watch("t1", "r1", (kind) => console.log(kind));
 */
export class RunSignals {
  private subscription: Promise<OwnedSubscription> | undefined;
  private readonly listeners = new Map<string, (kind: RunSignal["kind"]) => void>();
  /** Each thread's watchers of its queue changes and run ends (`queueChanges`). */
  private readonly threads = new Map<string, Set<ThreadSignalListener>>();
  /** Listeners of the channel's other messages (the thread-list changes, docs/threads.md#redis-keys). */
  private readonly others = new Set<(message: string) => void>();
  private closed = false;

  constructor(
    private readonly port: RedisPort,
    private readonly calls: RedisCalls,
    private readonly channel: string,
    private readonly name: string,
  ) {}

  /** Resolves once the channel is subscribed (the first call subscribes; a failed attempt is retried by the next call). */
  async ready(): Promise<void> {
    if (this.closed) throw new StoreError("unavailable", `expected the signal channel ${this.channel} to be subscribed, but the store was closed`);
    if (this.subscription === undefined) {
      const attempt = this.calls.open(
        (signal) => this.port.subscribe(this.name, this.channel, (message) => this.dispatch(message), signal),
        `SUBSCRIBE ${this.channel}`,
      );
      this.subscription = attempt;
      attempt.catch(() => {
        if (this.subscription === attempt) this.subscription = undefined; // the caller of ready() gets the error
      });
    }
    await this.subscription;
  }

  /** Calls `listener` with each signal of run `runId` of `threadId` until the returned function is called. */
  watch(threadId: string, runId: string, listener: (kind: RunSignal["kind"]) => void): () => void {
    const key = JSON.stringify([threadId, runId]);
    this.listeners.set(key, listener);
    return () => {
      if (this.listeners.get(key) === listener) this.listeners.delete(key);
    };
  }

  /**
   * Calls `listener` with each change of the queue of `threadId` and each end of its runs (as
   * `ended`, the run's id), until the returned function is called.
   */
  watchThread(threadId: string, listener: ThreadSignalListener): () => void {
    const own: ThreadSignalListener = (change) => listener(change); // a listener added twice is two listeners
    const watchers = this.threads.get(threadId) ?? new Set<ThreadSignalListener>();
    watchers.add(own);
    this.threads.set(threadId, watchers);
    return () => {
      watchers.delete(own);
      if (watchers.size === 0 && this.threads.get(threadId) === watchers) this.threads.delete(threadId);
    };
  }

  /** Calls `listener` with every message of the channel that is not a run signal, until the returned function is called. */
  listen(listener: (message: string) => void): () => void {
    const own = (message: string): void => listener(message); // a listener added twice is two listeners
    this.others.add(own);
    return () => this.others.delete(own);
  }

  /** Unsubscribes (closing the connection) and forgets every listener. */
  async close(): Promise<void> {
    this.closed = true;
    this.listeners.clear();
    this.threads.clear();
    this.others.clear();
    const subscription = this.subscription;
    this.subscription = undefined;
    if (subscription !== undefined)
      await subscription.then(
        (open) => open.close(),
        () => undefined,
      );
  }

  private dispatch(message: string): void {
    const signal = parseRunSignal(message);
    if (signal !== undefined) {
      this.listeners.get(JSON.stringify([signal.threadId, signal.runId]))?.(signal.kind);
      if (signal.kind === "end") this.toThread(signal.threadId, { kind: "ended", id: signal.runId });
      return;
    }
    const queued = parseQueueSignal(message);
    if (queued !== undefined) {
      this.toThread(queued.threadId, queued.change);
      return;
    }
    for (const other of [...this.others]) other(message);
  }

  private toThread(threadId: string, change: QueueChange): void {
    const watchers = this.threads.get(threadId);
    if (watchers !== undefined) for (const watcher of [...watchers]) watcher(change);
  }
}
