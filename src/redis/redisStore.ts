/**
 * The `ThreadStore` on Redis Streams (DESIGN §6, docs/durability.md, "Redis"): one stream per
 * thread with the entry id as cursor, the compacted thread kept beside it, a heartbeat key per live
 * run, every decision about a run taken inside one Lua script (so several instances sharing one
 * Redis agree), one blocking reader per instance for every tail, and stops through pub/sub.
 */
import type { Observable } from "rxjs";
import { ev } from "../protocol/build";
import type { RunAgentInput } from "../protocol/input";
import { isTerminal } from "../server/store/checkBatch";
import type { StoreClock } from "../server/store/StoreClock";
import { systemClock } from "../server/store/StoreClock";
import { StoreError } from "../server/store/StoreError";
import { ThreadFold } from "../server/store/ThreadFold";
import type { ThreadSnapshot } from "../server/store/ThreadSnapshot";
import { DEFAULT_LEASE_MS, type Cursor, type RunWriter, type StopAnswer, type StoredEvent, type ThreadRead, type ThreadStore } from "../server/store/ThreadStore";
import { delArguments } from "./commands/DEL";
import { xrangeArguments } from "./commands/XRANGE";
import { decodeEntries, decodeEntry, type LoggedEntry } from "./entries";
import { DEFAULT_PREFIX, signalChannel, threadKeys, wakeKey, type ThreadKeys } from "./keys";
import { nodeRedisPort, type NodeRedisClient } from "./nodeRedisPort";
import { RedisCalls, unavailable } from "./RedisCalls";
import type { RedisPort } from "./RedisPort";
import { RedisRunWriter } from "./RedisRunWriter";
import { RunSignals } from "./RunSignals";
import { beginArguments, beginScript, parseBeginReply } from "./scripts/beginRun";
import { checkpointArguments, checkpointScript } from "./scripts/checkpointSnapshot";
import { noticeScript, parseNoticeReply } from "./scripts/leaseScripts";
import type { ScriptContext } from "./scripts/prelude";
import { parseReadReply, readArguments, readScript } from "./scripts/readThread";
import { parseStopReply, stopScript } from "./scripts/stopRun";
import { decodeSnapshot, foldAfter, followsWithoutGap } from "./snapshots";
import { isStreamId } from "./streamIds";
import { TailReader } from "./TailReader";

/**
 * The settings of `redisStore()`; every one has a default (`REDIS_STORE_DEFAULTS`).
 *
 * @example
 * const settings: RedisStoreSettings = { prefix: "chat:", ttl: 24 * 3600_000, lease: 10_000 };
 */
export interface RedisStoreSettings {
  /** Prefix of every key and of the signal channel (default `"agui:"`). */
  readonly prefix?: string;
  /** Milliseconds every key of a thread lives after its last write; an idle thread is then gone (404) (default 7 days). */
  readonly ttl?: number;
  /** Milliseconds a live run may go without an append or a heartbeat before it is ended `ABANDONED` (default `DEFAULT_LEASE_MS`, 30,000). */
  readonly lease?: number;
  /** Runs whose events a thread's stream keeps (default 50); older runs' entries are trimmed (MINID) and live on in the snapshot. */
  readonly maxRunsPerThread?: number;
  /** Entries a thread's stream may grow to before it is trimmed up to its kept snapshot (default 100,000). */
  readonly maxEventsPerThread?: number;
  /** A live run's compacted thread is kept every this many events (default 1,000), and at its end. */
  readonly snapshotEvery?: number;
  /** Milliseconds a command may take before it fails `unavailable` (default 10,000). */
  readonly timeout?: number;
  /**
   * The lease clock. Default: Redis's own (`TIME` inside the scripts, and the heartbeat key's TTL),
   * the same for every instance whatever their clocks say; timers use `systemClock`. An injected
   * clock (tests: a manual one) measures leases instead: the heartbeat key then holds the deadline
   * on that clock, and the key's own TTL is the thread's.
   */
  readonly clock?: StoreClock;
  /** Names of the connections the store opens (`CLIENT SETNAME`): `<name>:<instance>:reader` and `…:signals` (default `"agui-rx"`). */
  readonly connectionName?: string;
}

/**
 * Options of `redisStore()`: a connected node-redis client (`redis` 5), or any `RedisPort`, plus settings.
 *
 * @example
 * redisStore({ client, prefix: "chat:" });
 */
export type RedisStoreOptions = RedisStoreSettings & ({ readonly client: NodeRedisClient; readonly port?: undefined } | { readonly port: RedisPort; readonly client?: undefined });

/**
 * The defaults of `RedisStoreSettings`.
 *
 * @example
 * redisStore({ client, ttl: REDIS_STORE_DEFAULTS.ttl * 4 });
 */
export const REDIS_STORE_DEFAULTS = {
  prefix: DEFAULT_PREFIX,
  ttl: 7 * 24 * 3600_000,
  maxRunsPerThread: 50,
  maxEventsPerThread: 100_000,
  snapshotEvery: 1_000,
  timeout: 10_000,
  connectionName: "agui-rx",
} as const;

/**
 * What one store instance is doing right now.
 *
 * @example
 * const { liveRuns, followedThreads, tails } = store.stats();
 */
export interface RedisStoreStats {
  /** Runs produced through this instance that are still live. */
  readonly liveRuns: number;
  readonly followedThreads: number;
  readonly tails: number;
}

/**
 * A `ThreadStore` on Redis, with its instance name, its bookkeeping, and `close()`.
 *
 * @example
 * const store: RedisStore = redisStore({ client });
 * await store.close();
 */
export interface RedisStore extends ThreadStore {
  /** A random name for this instance, part of its connections' names. */
  readonly instance: string;
  stats(): RedisStoreStats;
  /**
   * Closes the two connections the store opened (the caller's client stays open) and stops its
   * timers: tails error `unavailable`, and this instance's writers reject from then on (their
   * runs end ABANDONED unless another store ends them).
   */
  close(): Promise<void>;
}

/** Entries read per round trip (XRANGE/XREAD COUNT) and the reader's block time. */
const PAGE = 1000;
const BLOCK_MS = 10_000;
const BEGIN_ATTEMPTS = 8;

/**
 * The Redis store. Several instances (processes) sharing one Redis serve the same threads: a run
 * produced on one is read, tailed and stopped through any other, and a run whose producer died is
 * ended ABANDONED by whichever instance notices first, exactly once. Threads outlive restarts:
 * cursors are stream entry ids, stable as long as the thread's keys live (`ttl`).
 *
 * Connections: the caller's client for commands, plus two the store opens (one blocking reader for
 * all of its tails, one subscription for stop signals), whatever the number of runs and tails.
 *
 * @example
 * const client = createClient({ url: process.env.REDIS_URL });
 * client.on("error", (error) => console.warn(error));
 * await client.connect();
 * const store = redisStore({ client });
 * const writer = await store.beginRun(input);
 * await writer.append([ev.textMessageStart("m1"), ev.textMessageContent("m1", "Hi"), ev.textMessageEnd("m1")]);
 */
export function redisStore(options: RedisStoreOptions): RedisStore {
  return new RedisThreadStore(options);
}

class RedisThreadStore implements RedisStore {
  readonly instance = globalThis.crypto.randomUUID().slice(0, 8);
  private readonly port: RedisPort;
  private readonly calls: RedisCalls;
  private readonly prefix: string;
  private readonly ttl: number;
  private readonly lease: number;
  private readonly leaseTtl: number;
  private readonly maxRuns: number;
  private readonly maxEvents: number;
  private readonly snapshotEvery: number;
  private readonly clock: StoreClock | undefined;
  private readonly timers: StoreClock;
  private readonly signals: RunSignals;
  private readonly reader: TailReader;
  private readonly writers = new Set<RedisRunWriter>();
  private closed = false;

  constructor(options: RedisStoreOptions) {
    this.port = options.port ?? nodeRedisPort(options.client);
    this.prefix = options.prefix ?? REDIS_STORE_DEFAULTS.prefix;
    this.ttl = positive("ttl", options.ttl ?? REDIS_STORE_DEFAULTS.ttl);
    this.lease = positive("lease", options.lease ?? DEFAULT_LEASE_MS);
    this.maxRuns = positive("maxRunsPerThread", options.maxRunsPerThread ?? REDIS_STORE_DEFAULTS.maxRunsPerThread);
    this.maxEvents = positive("maxEventsPerThread", options.maxEventsPerThread ?? REDIS_STORE_DEFAULTS.maxEventsPerThread);
    this.snapshotEvery = positive("snapshotEvery", options.snapshotEvery ?? REDIS_STORE_DEFAULTS.snapshotEvery);
    this.calls = new RedisCalls(positive("timeout", options.timeout ?? REDIS_STORE_DEFAULTS.timeout));
    this.clock = options.clock;
    this.timers = options.clock ?? systemClock;
    this.leaseTtl = options.clock === undefined ? this.lease : this.ttl;
    const name = `${options.connectionName ?? REDIS_STORE_DEFAULTS.connectionName}:${this.instance}`;
    this.signals = new RunSignals(this.port, this.calls, signalChannel(this.prefix), `${name}:signals`);
    this.reader = new TailReader({
      port: this.port,
      calls: this.calls,
      keysOf: (threadId) => this.keysOf(threadId),
      wakeKey: wakeKey(this.prefix, this.instance),
      connectionName: `${name}:reader`,
      notice: async (threadId, keys) => parseNoticeReply(await this.calls.script(this.port, noticeScript, keys, this.context(threadId), [])),
      timers: this.timers,
      lease: this.lease,
      blockMs: BLOCK_MS,
      page: PAGE,
    });
  }

  stats(): RedisStoreStats {
    const { threads, tails } = this.reader.following;
    return { liveRuns: this.writers.size, followedThreads: threads, tails };
  }

  async beginRun(input: RunAgentInput): Promise<RunWriter> {
    const { threadId, runId } = input;
    this.ensureOpen(threadId);
    const keys = this.keysOf(threadId);
    // Subscribed before the run exists, so that no stop of it can be missed.
    await this.signals.ready();
    const started = ev.runStarted(threadId, runId, { parentRunId: input.parentRunId });
    for (let attempt = 0; attempt < BEGIN_ATTEMPTS; attempt++) {
      const loaded = await this.load(threadId, keys, undefined);
      if (loaded.kind === "snapshot" && loaded.live !== undefined) throw runActive(threadId, runId, loaded.live);
      const { fold, last } = loaded.kind === "snapshot" ? { fold: foldAfter(loaded.snapshot, loaded.entries).fold, last: loaded.last } : { fold: new ThreadFold(threadId), last: "" };
      // Folded with its input (A15: the input's messages join the thread); logged without it. The
      // cursor is Redis's to give: the script keeps it beside the snapshot.
      fold.apply({ ...started, input }, "");
      const request = {
        runId,
        startedJson: JSON.stringify(started),
        snapshotJson: serialize(fold, threadId),
        expectLast: last,
        lease: this.lease,
        leaseTtl: this.leaseTtl,
        maxRuns: this.maxRuns,
      };
      const reply = parseBeginReply(await this.calls.script(this.port, beginScript, keys, this.context(threadId), beginArguments(request), { runId }));
      switch (reply.kind) {
        case "active":
          throw runActive(threadId, runId, reply.liveRunId);
        case "retry":
          continue; // something was logged since the read (a run's end, an ABANDONED): read and fold again
        case "started":
          return this.writer(threadId, runId, { cursor: reply.cursor, event: started }, reply.seq, fold, keys);
        default: {
          const unexpected: never = reply;
          return unexpected;
        }
      }
    }
    throw unavailable("the begin script", `thread "${threadId}" changed under each of ${BEGIN_ATTEMPTS} attempts to start run "${runId}"`, { threadId, runId }, undefined);
  }

  async read(threadId: string, after?: Cursor): Promise<ThreadRead | undefined> {
    this.ensureOpen(threadId);
    const keys = this.keysOf(threadId);
    const loaded = await this.load(threadId, keys, after !== undefined && isStreamId(after) ? after : undefined);
    switch (loaded.kind) {
      case "unknown":
        return undefined;
      case "resume":
        return { kind: "resume", after: loaded.after, events: loaded.events.map(stored) };
      case "snapshot":
        return { kind: "snapshot", snapshot: await this.current(threadId, keys, loaded.snapshot, loaded.entries) };
      default: {
        const unexpected: never = loaded;
        return unexpected;
      }
    }
  }

  tail(threadId: string, after: Cursor): Observable<StoredEvent> {
    return this.reader.tail(threadId, after);
  }

  async stop(threadId: string, runId: string): Promise<StopAnswer> {
    this.ensureOpen(threadId);
    return parseStopReply(await this.calls.script(this.port, stopScript, this.keysOf(threadId), this.context(threadId), [runId], { runId }));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const writer of [...this.writers]) writer.release(new StoreError("unavailable", `expected run "${writer.runId}" to be written, but the store was closed`, { threadId: writer.threadId, runId: writer.runId }));
    await Promise.all([this.reader.close(), this.signals.close()]);
    await this.calls.command(this.port, delArguments(wakeKey(this.prefix, this.instance)), "DEL").catch(() => undefined); // it expires by itself
  }

  private writer(threadId: string, runId: string, started: StoredEvent, seq: number, fold: ThreadFold, keys: ThreadKeys): RedisRunWriter {
    const writer: RedisRunWriter = new RedisRunWriter(threadId, runId, started, seq, fold, {
      connection: this.port,
      calls: this.calls,
      keys,
      context: () => this.context(threadId),
      lease: this.lease,
      leaseTtl: this.leaseTtl,
      maxEvents: this.maxEvents,
      snapshotEvery: this.snapshotEvery,
      timers: this.timers,
      watchSignals: (listener) => this.signals.watch(threadId, runId, listener),
      released: () => this.writers.delete(writer),
    });
    this.writers.add(writer);
    return writer;
  }

  /** One read script call, then whatever pages it did not bring. */
  private async load(threadId: string, keys: ThreadKeys, after: Cursor | undefined): Promise<Loaded> {
    const reply = parseReadReply(await this.calls.script(this.port, readScript, keys, this.context(threadId), readArguments(after, PAGE)));
    switch (reply.kind) {
      case "unknown":
        return { kind: "unknown" };
      case "resume": {
        const at = decodeEntry(reply.at, threadId);
        const events = await this.throughTerminal(threadId, keys, at, decodeEntries(reply.entries, threadId));
        return events === undefined ? this.load(threadId, keys, undefined) : { kind: "resume", after: at.cursor, events };
      }
      case "snapshot": {
        const snapshot = decodeSnapshot(reply, threadId);
        const entries = await this.rest(threadId, keys, decodeEntries(reply.entries, threadId));
        if (!followsWithoutGap(reply.seq, entries)) {
          throw unavailable("XRANGE", `the stream lost events logged after the kept snapshot (at ${reply.cursor})`, { threadId }, undefined);
        }
        return { kind: "snapshot", live: reply.live, snapshot, entries, last: entries.length === 0 ? reply.cursor : entries[entries.length - 1].cursor };
      }
      default: {
        const unexpected: never = reply;
        return unexpected;
      }
    }
  }

  /** The events after `at` through the first terminal, reading on past the first page; `undefined` when some were trimmed (snapshot path). */
  private async throughTerminal(threadId: string, keys: ThreadKeys, at: LoggedEntry, first: LoggedEntry[]): Promise<LoggedEntry[] | undefined> {
    const out: LoggedEntry[] = [];
    let page = first;
    for (;;) {
      for (const entry of page) {
        if (entry.seq !== at.seq + 1 + out.length) return undefined;
        out.push(entry);
        if (isTerminal(entry.event)) return out;
      }
      if (page.length < PAGE) return out;
      page = decodeEntries(await this.calls.command(this.port, xrangeArguments(keys.events, out[out.length - 1].cursor, "+", PAGE), "XRANGE", { threadId }), threadId);
    }
  }

  /** `first`, and every page after it up to the stream's end. */
  private async rest(threadId: string, keys: ThreadKeys, first: LoggedEntry[]): Promise<LoggedEntry[]> {
    const out = first;
    let count = first.length;
    while (count === PAGE) {
      const page = decodeEntries(await this.calls.command(this.port, xrangeArguments(keys.events, out[out.length - 1].cursor, "+", PAGE), "XRANGE", { threadId }), threadId);
      out.push(...page);
      count = page.length;
    }
    return out;
  }

  /**
   * The thread now: the kept snapshot with the events after it folded in. A run that ended among
   * them was compacted by nobody (its producer died, or it was ended ABANDONED): keep the result.
   */
  private async current(threadId: string, keys: ThreadKeys, snapshot: ThreadSnapshot, entries: readonly LoggedEntry[]): Promise<ThreadSnapshot> {
    if (entries.length === 0) return snapshot;
    const { fold, endedRun } = foldAfter(snapshot, entries);
    const folded = fold.snapshot() ?? snapshot;
    if (endedRun) {
      const last = entries[entries.length - 1];
      const checkpoint = { cursor: last.cursor, seq: last.seq, json: JSON.stringify(folded) };
      // Only a saving for later reads: if it fails, the next read folds the same and tries again.
      await this.calls.script(this.port, checkpointScript, keys, this.context(threadId), checkpointArguments(checkpoint)).catch(() => undefined);
    }
    return folded;
  }

  private context(threadId: string): ScriptContext {
    return { now: this.clock === undefined ? "" : String(Math.floor(this.clock.now())), channel: signalChannel(this.prefix), threadId, ttl: this.ttl };
  }

  private keysOf(threadId: string): ThreadKeys {
    return threadKeys(this.prefix, threadId);
  }

  private ensureOpen(threadId: string): void {
    if (this.closed) throw new StoreError("unavailable", `expected an open store for thread "${threadId}", but it was closed`, { threadId });
  }
}

/** What `load` found. */
type Loaded =
  | { readonly kind: "unknown" }
  | { readonly kind: "resume"; readonly after: Cursor; readonly events: readonly LoggedEntry[] }
  | { readonly kind: "snapshot"; readonly live: string | undefined; readonly snapshot: ThreadSnapshot; readonly entries: readonly LoggedEntry[]; readonly last: Cursor };

function stored(entry: LoggedEntry): StoredEvent {
  return { cursor: entry.cursor, event: entry.event };
}

function serialize(fold: ThreadFold, threadId: string): string {
  try {
    return JSON.stringify(fold.snapshot());
  } catch (error) {
    throw new StoreError("invalid-append", `expected a JSON input, but the thread with its messages does not serialize: ${error instanceof Error ? error.message : String(error)}`, { threadId, cause: error });
  }
}

function runActive(threadId: string, runId: string, liveRunId: string): StoreError {
  return new StoreError(
    "run-active",
    `expected no live run on thread "${threadId}" to start run "${runId}", but run "${liveRunId}" is still live (one run per thread at a time)`,
    { threadId, runId: liveRunId },
  );
}

function positive(name: string, value: number): number {
  if (!Number.isFinite(value) || value <= 0) throw new RangeError(`redisStore: expected ${name} to be a positive number, but got ${value}`);
  return value;
}
