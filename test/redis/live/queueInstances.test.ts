/**
 * What only the Redis store promises of the queue (docs/queue.md#redis-keys), with several store
 * instances (each on its own client connection) sharing one real redis-server: a steer sent
 * through one instance reaches the run another produces, through the signal channel, and through
 * the producer's next renewal when the signal is lost; a head two instances start at once starts
 * once; the queue outlives the instance that stored it; and a run whose producer went silent is
 * ended ABANDONED, after which another instance starts the head exactly once.
 */
import { ev } from "../../../src/protocol/build";
import { threadKeys } from "../../../src/redis/keys";
import { nodeRedisPort } from "../../../src/redis/nodeRedisPort";
import type { RedisPort } from "../../../src/redis/RedisPort";
import { redisStore, type RedisStore } from "../../../src/redis/redisStore";
import type { QueuedRun } from "../../../src/server/store/QueuedRun";
import { StoreError } from "../../../src/server/store/StoreError";
import type { ThreadStore } from "../../../src/server/store/ThreadStore";
import { ManualClock } from "../../server/store/manualClock";
import { nextValues } from "../../server/store/ownedThreadsSupport";
import {
  beginOn,
  changed,
  dequeue,
  enqueue,
  entryOf,
  finish,
  newQueueThread,
  queueIds,
  scopeOf,
  steerOf,
  type QueueThread,
} from "../../server/store/queueSupport";
import { closeClient, connectClient, uniquePrefix, type TestClient } from "../support/clients";
import { scriptSource } from "../support/ports";
import { until } from "../support/until";

const LEASE = 1000;
const prefix = uniquePrefix("queue-instances");
const opened: { store: RedisStore; client: TestClient }[] = [];
let admin: TestClient;

beforeAll(async () => {
  admin = await connectClient("queue-instances-admin");
});

afterAll(async () => {
  await closeClient(admin);
});

afterEach(async () => {
  for (const { store, client } of opened.splice(0)) {
    await store.close();
    await closeClient(client);
  }
});

/**
 * A store instance on a client of its own, on `clock` (time stands still unless the test moves it:
 * no lease runs out by itself); `port` wraps the client's (a deaf or counting one).
 */
async function instance(clock: ManualClock, port?: (client: TestClient) => RedisPort): Promise<RedisStore> {
  const client = await connectClient("queue-instances");
  const store = redisStore({ port: port?.(client) ?? nodeRedisPort(client), prefix, lease: LEASE, clock });
  opened.push({ store, client });
  return store;
}

/** `t` as seen through another instance (the same owner and thread id). */
const on = (store: ThreadStore, t: QueueThread): QueueThread => ({ ...t, store });

/** A port that hands no pub/sub message on (every signal lost) and counts the waiting script's answers (a steer watcher's reads). */
function deafCounting(client: TestClient, reads: { count: number }): RedisPort {
  const inner = nodeRedisPort(client);
  return {
    send: async (args, signal) => {
      const reply = await inner.send(args, signal);
      if (scriptSource(args)?.includes("return {redis.call('HGET', META, 'qseq') or '0', queue_entries()}") === true) reads.count++;
      return reply;
    },
    connect: (name, signal) => inner.connect(name, signal),
    subscribe: (name, channel, _listener, signal) => inner.subscribe(name, channel, () => undefined, signal),
  };
}

const ids = (entries: readonly QueuedRun[]): string[] => entries.map((entry) => entry.id);

/** The thread's log as Redis holds it: each entry's type, and a RUN_STARTED's run id (`RUN_STARTED r1`). */
async function logOf(t: QueueThread): Promise<string[]> {
  const entries: unknown = await admin.sendCommand(["XRANGE", threadKeys(prefix, t.threadId, t.owner).events, "-", "+"]);
  if (!Array.isArray(entries)) throw new Error("expected XRANGE to answer an array");
  return entries.map((entry) => {
    const [, fields] = entry as [string, string[]];
    const json = JSON.parse(fields[fields.indexOf("e") + 1]) as { type: string; runId?: string; code?: string };
    return json.type === "RUN_STARTED" ? `RUN_STARTED ${json.runId}` : json.type === "RUN_ERROR" ? `RUN_ERROR ${json.code}` : json.type;
  });
}

test("a steer enqueued on A into the run B produces reaches B's steers through the signal channel, without any renewal", async () => {
  const clock = new ManualClock();
  const [a, b] = await Promise.all([instance(clock), instance(clock)]);
  const t = newQueueThread(b);
  const writer = await beginOn(t, "r1");
  const offered = nextValues(writer.steers, 2);
  expect(await enqueue(on(a, t), steerOf(t, "s1", "r1"), { front: true })).toBe("steering");
  expect(await enqueue(on(a, t), steerOf(t, "s2", "r1"), { front: true })).toBe("steering");
  expect(ids(await offered)).toEqual(["s1", "s2"]); // no renewal ran: the clock stands still
  await finish(writer);
});

test("a steer whose signal was lost reaches the producer's steers at its next renewal", async () => {
  const reads = { count: 0 };
  const clock = new ManualClock();
  const a = await instance(clock);
  const b = await instance(clock, (client) => deafCounting(client, reads));
  const t = newQueueThread(b);
  const writer = await beginOn(t, "r1");
  const offered: QueuedRun[] = [];
  const subscription = writer.steers.subscribe((steer) => offered.push(steer));
  await until(() => reads.count === 1, "the steers' first read");
  expect(await enqueue(on(a, t), steerOf(t, "s1", "r1"), { front: true })).toBe("steering");
  await b.read(t.threadId, undefined, scopeOf(t)); // a round trip on B: still nothing, its signal never arrives
  expect(offered).toEqual([]);
  expect(await writer.renewLease()).toBe(true); // the renewal answers the queue's version: it moved, so B reads again
  await until(() => offered.length === 1, "the steer after the renewal");
  expect(ids(offered)).toEqual(["s1"]);
  expect(await writer.renewLease()).toBe(true); // the version stands: no read, and no steer twice
  expect(reads.count).toBe(2);
  subscription.unsubscribe();
  await finish(writer);
});

test("A and B dequeue the same head at once, twenty times: each head starts exactly once, on one of them", async () => {
  const clock = new ManualClock();
  const [a, b] = await Promise.all([instance(clock), instance(clock)]);
  for (let round = 0; round < 20; round++) {
    const t = newQueueThread(a);
    await finish(await beginOn(t, "r0"));
    await enqueue(t, entryOf(t, "q1"));
    const results = await Promise.allSettled([dequeue(t, entryOf(t, "q1")), dequeue(on(b, t), entryOf(t, "q1"))]);
    const started = results.filter((result) => result.status === "fulfilled");
    const refused = results.filter((result): result is PromiseRejectedResult => result.status === "rejected");
    expect([started.length, refused.length]).toEqual([1, 1]);
    expect(StoreError.isInstance(refused[0].reason) && ["queue-moved", "run-active"].includes(refused[0].reason.code)).toBe(true);
    expect((await logOf(t)).filter((entry) => entry.startsWith("RUN_STARTED"))).toEqual(["RUN_STARTED r0", "RUN_STARTED q1"]);
    expect(await b.queueEntry(t.threadId, "q1", scopeOf(t))).toEqual({ state: "started", runId: "q1" });
  }
});

test("the queue outlives the instance that stored it: a new instance reads it, cancels from it and starts its head", async () => {
  const clock = new ManualClock();
  const first = await instance(clock);
  const t = newQueueThread(first);
  await finish(await beginOn(t, "r0"));
  await enqueue(t, entryOf(t, "q1"));
  await enqueue(t, entryOf(t, "q2"));
  await enqueue(t, entryOf(t, "f1", { policy: "interrupt" }), { front: true });
  await first.close();
  const next = await instance(clock);
  const again = on(next, t);
  expect(await queueIds(again)).toEqual(["f1", "q1", "q2"]);
  expect(await next.queueEntry(t.threadId, "q2", scopeOf(t))).toEqual({ state: "waiting", entry: entryOf(t, "q2") });
  expect(await next.cancelQueued(t.threadId, "f1", "not now", scopeOf(t))).toBe("cancelled");
  const writer = await dequeue(again, entryOf(t, "q1"));
  expect(await queueIds(again)).toEqual(["q2"]);
  await finish(writer);
});

test("the producer goes silent: its run is ended ABANDONED, every instance's queueChanges hear it, and the head starts exactly once", async () => {
  const clock = new ManualClock();
  const [producer, a, b] = await Promise.all([instance(clock), instance(clock), instance(clock)]);
  const t = newQueueThread(producer);
  const writer = await beginOn(t, "r1");
  await writer.append([ev.textMessageStart("m1"), ev.textMessageContent("m1", "half")]);
  await enqueue(on(a, t), entryOf(t, "q1"));
  const onA = nextValues(a.queueChanges(t.threadId, scopeOf(t)), 2);
  const onB = nextValues(b.queueChanges(t.threadId, scopeOf(t)), 2);
  // Other instances' changes reach a watcher once its instance's signal channel is subscribed: a run
  // begun (and finished) on each, on a thread of its own, waits for that subscription.
  for (const store of [a, b]) await finish(await beginOn(newQueueThread(store), "probe"));
  await producer.close(); // its process is gone, its lease timer with it
  clock.advance(LEASE); // past r1's deadline: only the operations below can notice
  const results = await Promise.allSettled([dequeue(on(a, t), entryOf(t, "q1")), dequeue(on(b, t), entryOf(t, "q1"))]);
  expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
  expect((await onA).map(changed)).toEqual(["ended r1", "started q1"]);
  expect((await onB).map(changed)).toEqual(["ended r1", "started q1"]);
  expect(await logOf(t)).toEqual(["RUN_STARTED r1", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "RUN_ERROR ABANDONED", "RUN_STARTED q1"]);
  expect(await queueIds(on(b, t))).toBeUndefined();
  expect(await a.queueEntry(t.threadId, "q1", scopeOf(t))).toEqual({ state: "started", runId: "q1" });
});
