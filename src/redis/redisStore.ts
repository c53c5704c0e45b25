/**
 * The `ThreadStore` on Redis Streams (docs/durability.md#stores-and-routes, "Redis"): one stream per
 * thread with the entry id as cursor, the compacted thread kept beside it, a heartbeat key per live
 * run, every decision about a run taken inside one Lua script (so several instances sharing one
 * Redis agree), one blocking reader per instance for every tail, and stops through pub/sub.
 */
import type { Observable } from "rxjs";
import { ev } from "../protocol/build";
import type { RunAgentInput } from "../protocol/input";
import { PROTOCOL_VERSION } from "../protocol/version";
import type { StoreClock } from "../server/store/StoreClock";
import { systemClock } from "../server/store/StoreClock";
import { positiveOption } from "../server/store/positiveOption";
import { StoreError } from "../server/store/StoreError";
import { ThreadFold } from "../thread/ThreadFold";
import { DEFAULT_LEASE_MS, type Cursor, type RunWriter, type StopAnswer, type StoredEvent, type ThreadRead } from "../server/store/ThreadStore";
import { delArguments } from "./commands/DEL";
import type { LoggedEntry } from "./entries";
import { signalChannel, threadKeys, wakeKey, type ThreadKeys } from "./keys";
import { nodeRedisPort } from "./nodeRedisPort";
import { RedisCalls, unavailable } from "./RedisCalls";
import type { RedisPort } from "./RedisPort";
import { RedisRunWriter } from "./RedisRunWriter";
import { REDIS_STORE_DEFAULTS, type RedisStore, type RedisStoreOptions, type RedisStoreStats } from "./RedisStoreOptions";
import { RunSignals } from "./RunSignals";
import { beginArguments, beginScript, parseBeginReply } from "./scripts/beginRun";
import { noticeScript, parseNoticeReply } from "./scripts/leaseScripts";
import type { ScriptContext } from "./scripts/prelude";
import { parseStopReply, stopScript } from "./scripts/stopRun";
import { foldAfter } from "./snapshots";
import { isStreamId } from "./streamIds";
import { TailReader } from "./TailReader";
import { ThreadLoader } from "./ThreadLoader";

export { REDIS_STORE_DEFAULTS, type RedisStore, type RedisStoreOptions, type RedisStoreSettings, type RedisStoreStats } from "./RedisStoreOptions";

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
  private readonly loader: ThreadLoader;
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
    this.loader = new ThreadLoader(this.port, this.calls, (threadId) => this.context(threadId), PAGE);
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
    const started = ev.runStarted(threadId, runId, { parentRunId: input.parentRunId, protocolVersion: PROTOCOL_VERSION });
    for (let attempt = 0; attempt < BEGIN_ATTEMPTS; attempt++) {
      const loaded = await this.loader.load(threadId, keys, undefined);
      if (loaded.kind === "snapshot" && loaded.live !== undefined) throw runActive(threadId, runId, loaded.live);
      const { fold, last } =
        loaded.kind === "snapshot"
          ? { fold: foldAfter(loaded.snapshot, loaded.entries).fold, last: loaded.last }
          : { fold: new ThreadFold(threadId), last: "" };
      // Folded with its input (docs/rules.md#A15: the input's messages join the thread); logged without it. The
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
    throw unavailable(
      "the begin script",
      `thread "${threadId}" changed under each of ${BEGIN_ATTEMPTS} attempts to start run "${runId}"`,
      { threadId, runId },
      undefined,
    );
  }

  async read(threadId: string, after?: Cursor): Promise<ThreadRead | undefined> {
    this.ensureOpen(threadId);
    const keys = this.keysOf(threadId);
    const loaded = await this.loader.load(threadId, keys, after !== undefined && isStreamId(after) ? after : undefined);
    switch (loaded.kind) {
      case "unknown":
        return undefined;
      case "resume":
        return { kind: "resume", after: loaded.after, events: loaded.events.map(stored) };
      case "snapshot":
        return { kind: "snapshot", snapshot: await this.loader.current(threadId, keys, loaded.snapshot, loaded.entries) };
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
    for (const writer of [...this.writers])
      writer.release(
        new StoreError("unavailable", `expected run "${writer.runId}" to be written, but the store was closed`, {
          threadId: writer.threadId,
          runId: writer.runId,
        }),
      );
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
      feed: this.reader.own(threadId, runId, { cursor: started.cursor, seq, event: started.event }),
      released: () => this.writers.delete(writer),
    });
    this.writers.add(writer);
    return writer;
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

function stored(entry: LoggedEntry): StoredEvent {
  return { cursor: entry.cursor, event: entry.event };
}

function serialize(fold: ThreadFold, threadId: string): string {
  try {
    return JSON.stringify(fold.snapshot());
  } catch (error) {
    throw new StoreError(
      "invalid-append",
      `expected a JSON input, but the thread with its messages does not serialize: ${error instanceof Error ? error.message : String(error)}`,
      { threadId, cause: error },
    );
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
  return positiveOption("redisStore", name, value);
}
