/**
 * The `ThreadStore` on Redis Streams (docs/durability.md#stores-and-routes, "Redis"): one stream per
 * thread with the entry id as cursor, the compacted thread kept beside it, a heartbeat key per live
 * run, every decision about a run taken inside one Lua script (so several instances sharing one
 * Redis agree), one blocking reader per instance for every tail, and stops through pub/sub.
 */
import type { Observable } from "rxjs";
import type { QueuedRun } from "../server/store/QueuedRun";
import { ev } from "../protocol/build";
import type { RunAgentInput } from "../protocol/input";
import { PROTOCOL_VERSION } from "../protocol/version";
import type { StoreClock } from "../server/store/StoreClock";
import { systemClock } from "../server/store/StoreClock";
import { positiveOption } from "../server/store/positiveOption";
import { StoreError } from "../server/store/StoreError";
import { refuseSwitched } from "../server/store/refuseSwitched";
import { ThreadFold } from "../thread/ThreadFold";
import type { ThreadSnapshot } from "../thread/ThreadSnapshot";
import {
  DEFAULT_LEASE_MS,
  type BeginOptions,
  type Cursor,
  type HistoryQuery,
  type ListQuery,
  type ReadOptions,
  type RunWriter,
  type StopAnswer,
  type SelectAnswer,
  type StoredEvent,
  type StoreScope,
  type ThreadRead,
} from "../server/store/ThreadStore";
import type { CancelQueuedAnswer, EnqueueAnswer, EnqueueOptions, QueueChange, QueueEntryState } from "../server/store/ThreadStore";
import type { HistoryPage, ThreadListEvent, ThreadPage, ThreadPatch, ThreadSummary } from "../thread/threadList";
import { defaultTitle } from "../thread/threadTitle";
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
import { forkMetadata } from "../protocol/branchMeta";
import { startedMetadata } from "../protocol/runTraceMeta";
import { switchBranch } from "./selectBranch";
import { noticeScript, parseNoticeReply } from "./scripts/leaseScripts";
import type { ScriptContext } from "./scripts/prelude";
import { parseStopReply, stopScript } from "./scripts/stopRun";
import { foldAfter } from "./snapshots";
import { keptOf, snapshotWrite } from "./snapshotWrites";
import { parseRemoveReply, parseRowReply, removeScript, updateScript } from "./scripts/threadScripts";
import { ThreadLists } from "./ThreadLists";
import { threadRow } from "./threadRows";
import { threadRef } from "./threadRefs";
import { isStreamId } from "./streamIds";
import { TailReader } from "./TailReader";
import { ThreadLoader } from "./ThreadLoader";
import { QueueFeed } from "./QueueFeed";
import { decodeQueued } from "./queuedEntries";
import { RedisQueue } from "./RedisQueue";
import { historyMoved, refuseQueue, runActive } from "./beginRefusals";
import { confirmReplicated, scriptAcknowledged, type ReplicaAcknowledgement } from "./replicaWait";

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
  private readonly replicas: ReplicaAcknowledgement | undefined;
  private readonly clock: StoreClock | undefined;
  private readonly timers: StoreClock;
  private readonly signals: RunSignals;
  private readonly reader: TailReader;
  private readonly loader: ThreadLoader;
  private readonly lists: ThreadLists;
  private readonly feed: QueueFeed;
  private readonly queue: RedisQueue;
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
    this.replicas = options.replicas === undefined ? undefined : replicaSetting(options.replicas);
    // Over a Redis Cluster the scripts announce each append on the thread's sharded channel (docs/durability.md#redis-cluster).
    this.calls = new RedisCalls(positive("timeout", options.timeout ?? REDIS_STORE_DEFAULTS.timeout), this.port.shards !== undefined);
    this.clock = options.clock;
    this.timers = options.clock ?? systemClock;
    this.leaseTtl = options.clock === undefined ? this.lease : this.ttl;
    const name = `${options.connectionName ?? REDIS_STORE_DEFAULTS.connectionName}:${this.instance}`;
    this.loader = new ThreadLoader(this.port, this.calls, (ref) => this.context(ref), PAGE);
    this.signals = new RunSignals(this.port, this.calls, signalChannel(this.prefix), `${name}:signals`);
    this.lists = new ThreadLists({
      port: this.port,
      calls: this.calls,
      prefix: this.prefix,
      instance: this.instance,
      signals: this.signals,
      channel: signalChannel(this.prefix),
      context: (threadId) => this.context(threadId),
    });
    this.feed = new QueueFeed(this.signals);
    this.queue = new RedisQueue({
      port: this.port,
      calls: this.calls,
      prefix: this.prefix,
      context: (ref) => this.context(ref),
      lists: this.lists,
      feed: this.feed,
      loader: this.loader,
    });
    this.reader = new TailReader({
      port: this.port,
      calls: this.calls,
      wakeKey: wakeKey(this.prefix, this.instance),
      connectionName: `${name}:reader`,
      notice: async (ref, keys) => parseNoticeReply(await this.calls.script(this.port, noticeScript, keys, this.context(ref), [])),
      timers: this.timers,
      lease: this.lease,
      blockMs: BLOCK_MS,
      page: PAGE,
      shards: this.port.shards,
      replicas: this.replicas,
    });
  }

  stats(): RedisStoreStats {
    const { threads, tails } = this.reader.following;
    return { liveRuns: this.writers.size, followedThreads: threads, tails };
  }

  async beginRun(input: RunAgentInput, options: BeginOptions = {}): Promise<RunWriter> {
    const { threadId, runId } = input;
    const { owner, expectCursor, forkAfter, dequeue, passQueue } = options;
    const { ref, keys } = this.thread(threadId, owner);
    // Subscribed before the run exists, so that no stop of it can be missed.
    await this.signals.ready();
    for (let attempt = 0; attempt < BEGIN_ATTEMPTS; attempt++) {
      const loaded = await this.loader.load(ref, keys, undefined);
      if (loaded.kind === "snapshot" && loaded.live !== undefined) throw runActive(threadId, runId, loaded.live);
      // the queue goes first (the begin script checks again, atomically)
      refuseQueue(loaded.kind === "snapshot" ? loaded : { queueLength: 0, queueHead: undefined }, threadId, runId, options);
      const { fold, last, base, selection } =
        loaded.kind === "snapshot"
          ? { fold: foldAfter(loaded.snapshot, loaded.entries).fold, last: loaded.last, base: loaded.base, selection: loaded.selection }
          : { fold: new ThreadFold(threadId), last: "", base: undefined, selection: "" };
      if (expectCursor !== undefined && expectCursor !== (last === "" ? null : last)) throw historyMoved(threadId, runId, expectCursor);
      if (loaded.kind === "snapshot") refuseSwitched(fold.pathMark(), options.expectPath, threadId, runId);
      const fork = forkAfter === undefined ? undefined : fold.forkMarker(forkAfter); // docs/threads.md#the-tree: its RUN_STARTED forks every fold
      const metadata = startedMetadata(fork === undefined ? undefined : forkMetadata(fork), options.runTrace);
      const started = ev.runStarted(threadId, runId, { parentRunId: input.parentRunId, protocolVersion: PROTOCOL_VERSION, ...metadata });
      // Folded with its input (docs/rules.md#A15: the input's messages join the thread); logged without it. The
      // cursor is Redis's to give: the script keeps it beside the snapshot.
      fold.apply({ ...started, input }, "");
      const snapshot = fold.snapshot();
      if (snapshot === undefined) throw new StoreError("unavailable", `expected run "${runId}" to fold into thread "${threadId}"`, { threadId, runId });
      const request = {
        runId,
        startedJson: JSON.stringify(started),
        snapshot: snapshotWrite(snapshot, "", 0, base, threadId),
        expectLast: last,
        expectCursor,
        owner,
        defaultTitle: defaultTitle(snapshot.messages),
        lease: this.lease,
        leaseTtl: this.leaseTtl,
        maxRuns: this.maxRuns,
        selection,
        dequeue,
        passQueue,
      };
      const begun =
        this.replicas === undefined
          ? this.calls.script(this.port, beginScript, keys, this.context(ref), beginArguments(request), { runId })
          : scriptAcknowledged(this.calls, this.port, beginScript, keys, this.context(ref), beginArguments(request), this.replicas, { runId });
      const reply = parseBeginReply(await begun);
      switch (reply.kind) {
        case "active":
          throw runActive(threadId, runId, reply.liveRunId);
        case "moved":
          throw historyMoved(threadId, runId, expectCursor);
        case "deleted":
          throw new StoreError("deleted", `expected thread "${threadId}" to take run "${runId}", but it was deleted moments ago`, { threadId, runId });
        case "queue-pending":
        case "queue-moved":
          continue; // the queue changed since the read: read again, and refuse for the queue as it is then
        case "retry":
          continue; // something was logged since the read (a run's end, an ABANDONED): read and fold again
        case "started": {
          const writer = this.writer(ref, threadId, runId, { cursor: reply.cursor, event: started }, reply.seq, fold, keys, snapshot, owner);
          if (owner !== undefined) await this.lists.changed(owner, reply.created ? "created" : "run-started", threadRow(threadId, reply.row));
          if (reply.dequeued !== undefined) this.queue.left(threadId, owner, "started", decodeQueued(reply.dequeued, threadId), "queued");
          return writer;
        }
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

  async read(threadId: string, after?: Cursor, options: ReadOptions = {}): Promise<ThreadRead | undefined> {
    const { ref, keys } = this.thread(threadId, options.owner);
    const { limit } = options;
    const loaded = await this.loader.load(ref, keys, after !== undefined && isStreamId(after) ? after : undefined, limit, true);
    if (loaded.kind !== "unknown") await this.confirmRead(keys, ref);
    switch (loaded.kind) {
      case "unknown":
        return undefined;
      case "resume":
        return { kind: "resume", after: loaded.after, events: loaded.events.map(stored) };
      case "snapshot": {
        // A window read folded the entries into the kept snapshot's last messages: the ones before stand as kept.
        const before = loaded.messageCount - loaded.snapshot.messages.length;
        const snapshot = await this.loader.current(ref, keys, loaded.snapshot, loaded.entries, loaded.base, before);
        // docs/queue.md#in-the-store: read in the same script as the snapshot
        const queue = loaded.queue.length === 0 ? {} : { queue: loaded.queue.map((json) => decodeQueued(json, threadId)) };
        if (limit === undefined) return { kind: "snapshot", snapshot, ...queue };
        const total = before + snapshot.messages.length;
        const shown = Math.max(0, Math.min(Math.floor(limit), snapshot.messages.length));
        const messages = snapshot.messages.slice(snapshot.messages.length - shown);
        return { kind: "snapshot", snapshot: { ...snapshot, messages }, hasOlder: total > messages.length, ...queue };
      }
      default: {
        const unexpected: never = loaded;
        return unexpected;
      }
    }
  }

  tail(threadId: string, after: Cursor, scope: StoreScope = {}): Observable<StoredEvent> {
    return this.reader.tail(threadRef(threadId, scope.owner), after, this.keysOf(threadId, scope.owner));
  }

  async stop(threadId: string, runId: string, scope: StoreScope = {}): Promise<StopAnswer> {
    const { ref, keys } = this.thread(threadId, scope.owner);
    return parseStopReply(await this.calls.script(this.port, stopScript, keys, this.context(ref), [runId], { runId }));
  }

  async list(scope: StoreScope, query: ListQuery): Promise<ThreadPage> {
    this.ensureOpen("");
    return scope.owner === undefined ? { threads: [] } : this.lists.page(scope.owner, query);
  }

  async update(threadId: string, patch: ThreadPatch, scope: StoreScope = {}): Promise<ThreadSummary | undefined> {
    const { ref, keys } = this.thread(threadId, scope.owner);
    const args = [patch.title === undefined ? "0" : "1", patch.title ?? "", patch.archived === undefined ? "" : patch.archived ? "1" : "0"];
    const raw = parseRowReply(await this.calls.script(this.port, updateScript, keys, this.context(ref), args));
    if (raw === undefined) return undefined;
    const row = threadRow(threadId, raw);
    if (scope.owner !== undefined) await this.lists.changed(scope.owner, changeOf(patch), row);
    return row;
  }

  async remove(threadId: string, scope: StoreScope = {}): Promise<boolean> {
    const { ref, keys } = this.thread(threadId, scope.owner);
    // Two leases: a producer that began just before the delete renews or ends within one.
    const standing = 2 * this.lease;
    const removed = parseRemoveReply(await this.calls.script(this.port, removeScript, keys, this.context(ref), [String(standing), String(2 * this.leaseTtl)]));
    if (removed === undefined) return false;
    if (removed.live !== undefined) this.feed.local(ref, { kind: "ended", id: removed.live });
    for (const id of removed.waiting) this.feed.local(ref, { kind: "cancelled", id });
    if (scope.owner !== undefined) await this.lists.deleted(scope.owner, threadId, this.timers.now() + standing);
    return true;
  }

  async selectBranch(threadId: string, messageId: string, index: number, { owner }: StoreScope = {}): Promise<SelectAnswer> {
    this.ensureOpen(threadId);
    const switched = async (row: unknown) => (owner === undefined ? undefined : this.lists.changed(owner, "path-selected", threadRow(threadId, row)));
    const env = { port: this.port, calls: this.calls, loader: this.loader, context: (ref: string) => this.context(ref), switched };
    return switchBranch(env, { threadId, ref: threadRef(threadId, owner), keys: this.keysOf(threadId, owner) }, messageId, index);
  }

  async history(threadId: string, query: HistoryQuery, scope: StoreScope = {}): Promise<HistoryPage | undefined> {
    const { ref, keys } = this.thread(threadId, scope.owner);
    const page = await this.loader.history(ref, keys, query.before, query.limit);
    if (page !== undefined) await this.confirmRead(keys, ref);
    return page;
  }

  /** With `replicas`: what was just read of the thread reaches no one before the replicas hold it (`confirmReplicated`; not asked for an unknown thread, whose sync key would only be litter). */
  private async confirmRead(keys: ThreadKeys, ref: string): Promise<void> {
    if (this.replicas !== undefined) await confirmReplicated(this.calls, this.port, keys, this.replicas, { threadId: ref });
  }

  async enqueue(entry: QueuedRun, options: EnqueueOptions): Promise<EnqueueAnswer> {
    this.ensureOpen(entry.input.threadId);
    return this.queue.enqueue(entry, options);
  }

  async cancelQueued(threadId: string, id: string, reason: string, scope: StoreScope = {}): Promise<CancelQueuedAnswer> {
    this.ensureOpen(threadId);
    return this.queue.cancelQueued(threadId, id, reason, scope);
  }

  listEvents(scope: StoreScope): Observable<ThreadListEvent> {
    return this.lists.events(scope);
  }

  async queueEntry(threadId: string, id: string, scope: StoreScope = {}): Promise<QueueEntryState> {
    this.ensureOpen(threadId);
    return this.queue.queueEntry(threadId, id, scope);
  }

  queueChanges(threadId: string, scope: StoreScope = {}): Observable<QueueChange> {
    return this.queue.changes(threadId, scope);
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

  private writer(
    ref: string,
    threadId: string,
    runId: string,
    started: StoredEvent,
    seq: number,
    fold: ThreadFold,
    keys: ThreadKeys,
    snapshot: ThreadSnapshot,
    owner: string | undefined,
  ): RedisRunWriter {
    const writer: RedisRunWriter = new RedisRunWriter(threadId, runId, started, seq, fold, {
      connection: this.port,
      calls: this.calls,
      keys,
      context: () => this.context(ref),
      lease: this.lease,
      leaseTtl: this.leaseTtl,
      maxEvents: this.maxEvents,
      snapshotEvery: this.snapshotEvery,
      replicas: this.replicas,
      timers: this.timers,
      watchSignals: (listener) => this.signals.watch(ref, runId, listener),
      feed: this.reader.own(ref, runId, { cursor: started.cursor, seq, event: started.event }, keys),
      released: () => this.writers.delete(writer),
      base: keptOf(seq, snapshot),
      listChanged: async (type, row) => {
        if (owner !== undefined) await this.lists.changed(owner, type, threadRow(threadId, row));
      },
      steersTaken: (entries) => {
        for (const json of entries) this.queue.left(threadId, owner, "taken", decodeQueued(json, threadId), "steering");
        return Promise.resolve();
      },
      runEnded: () => this.feed.local(ref, { kind: "ended", id: runId }),
    });
    this.writers.add(writer);
    return writer;
  }

  /** The script context of the thread `ref` names (its reference travels in the signals; the lease clock's now). */
  private context(ref: string): ScriptContext {
    return { now: this.clock === undefined ? "" : String(Math.floor(this.clock.now())), channel: signalChannel(this.prefix), threadId: ref, ttl: this.ttl };
  }

  private keysOf(threadId: string, owner: string | undefined): ThreadKeys {
    return threadKeys(this.prefix, threadId, owner);
  }

  /** A thread's name in messages and its keys, once the store is known to be open. */
  private thread(threadId: string, owner: string | undefined): { readonly ref: string; readonly keys: ThreadKeys } {
    this.ensureOpen(threadId);
    return { ref: threadRef(threadId, owner), keys: this.keysOf(threadId, owner) };
  }

  private ensureOpen(threadId: string): void {
    if (this.closed) throw new StoreError("unavailable", `expected an open store for thread "${threadId}", but it was closed`, { threadId });
  }
}

function stored(entry: LoggedEntry): StoredEvent {
  return { cursor: entry.cursor, event: entry.event };
}

/** The list change a patch makes: archiving, unarchiving (an update), else a rename. */
function changeOf(patch: ThreadPatch): "archived" | "updated" | "renamed" {
  if (patch.archived === true) return "archived";
  if (patch.archived === false) return "updated";
  return "renamed";
}

/** The `replicas` setting, checked: a whole count of at least 1 and a positive timeout. */
function replicaSetting(replicas: ReplicaAcknowledgement): ReplicaAcknowledgement {
  if (!Number.isInteger(replicas.count)) positive("replicas.count", NaN);
  return { count: positive("replicas.count", replicas.count), timeoutMs: positive("replicas.timeoutMs", replicas.timeoutMs) };
}

function positive(name: string, value: number): number {
  return positiveOption("redisStore", name, value);
}
