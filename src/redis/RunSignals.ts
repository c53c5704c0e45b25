/**
 * Stop requests and foreign run ends reaching this instance (docs/durability.md, "Redis": stop
 * propagation): one subscription per store instance to the prefix's signal channel, on which the
 * stop and append scripts announce `["stop" | "end", threadId, runId]`, dispatched in process to
 * the producers this instance runs. The announcement is the fast path: the stop request is also
 * kept in the thread's meta hash, and a producer reads it back with every append and renewal, so
 * a message lost while the subscription reconnects still arrives within one heartbeat.
 */
import { StoreError } from "../server/store/StoreError";
import type { RedisCalls } from "./RedisCalls";
import type { OwnedSubscription, RedisPort } from "./RedisPort";

/**
 * One announcement: a stop of a live run was asked for, or a run ended (its terminal was logged,
 * or it was ended ABANDONED, possibly by another instance).
 *
 * @example
 * parseRunSignal('["stop","t1","r1"]'); // { kind: "stop", threadId: "t1", runId: "r1" }
 */
export interface RunSignal {
  readonly kind: "stop" | "end";
  readonly threadId: string;
  readonly runId: string;
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
  if ((kind !== "stop" && kind !== "end") || typeof threadId !== "string" || typeof runId !== "string") return undefined;
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
    if (signal === undefined) {
      for (const other of [...this.others]) other(message);
      return;
    }
    this.listeners.get(JSON.stringify([signal.threadId, signal.runId]))?.(signal.kind);
  }
}
