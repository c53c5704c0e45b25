/**
 * Where the Redis store keeps a thread's queue (docs/queue.md#redis-keys), on a real redis-server:
 * three keys under the thread's own hash tag, living as long as the thread's other keys and
 * deleted with them; the outcomes bounded; and the round trips: an enqueue is one script (and the
 * list announcement), a read brings the queue in its one read script, a steer's take rides on the
 * append's own script.
 */
import { threadKeys } from "../../../src/redis/keys";
import { redisStore, type RedisStore } from "../../../src/redis/redisStore";
import { QUEUE_OUTCOMES_KEPT, TOUCH_SLACK_MAX_MS } from "../../../src/redis/scripts/prelude";
import { ManualClock } from "../../server/store/manualClock";
import { beginOn, enqueue, entryOf, finish, newQueueThread, queueIds, scopeOf, steerOf, takenEvents, type QueueThread } from "../../server/store/queueSupport";
import { closeClient, connectClient, uniquePrefix, type TestClient } from "../support/clients";
import { recordingPort, scriptCalls, type RecordingPort } from "../support/ports";

const TTL = 600_000;
const prefix = uniquePrefix("queue-keys");
const opened: { store: RedisStore; client: TestClient }[] = [];
let admin: TestClient;

beforeAll(async () => {
  admin = await connectClient("queue-keys-admin");
});

afterEach(async () => {
  for (const { store, client } of opened.splice(0)) {
    await store.close();
    await closeClient(client);
  }
});

afterAll(async () => {
  await closeClient(admin);
});

async function instance(): Promise<{ store: RedisStore; port: RecordingPort }> {
  const client = await connectClient("queue-keys");
  const port = recordingPort(client);
  const store = redisStore({ port, prefix, ttl: TTL, lease: 1000, clock: new ManualClock() });
  opened.push({ store, client });
  return { store, port };
}

/** Every key Redis holds for the thread's tag, sorted. */
async function keysOf(t: QueueThread): Promise<string[]> {
  const meta = threadKeys(prefix, t.threadId, t.owner).meta;
  const pattern = meta.slice(0, -"meta".length).replace(/[*?[\]\\]/g, (c) => `\\${c}`) + "*";
  const reply: unknown = await admin.sendCommand(["KEYS", pattern]);
  if (!Array.isArray(reply)) throw new Error("expected KEYS to answer an array");
  return reply.filter((key): key is string => typeof key === "string").sort();
}

async function pttl(key: string): Promise<number> {
  return Number(await admin.sendCommand(["PTTL", key]));
}

test("the queue's three keys share the thread's hash tag, expire with its other keys, and go with it when it is deleted", async () => {
  const { store } = await instance();
  const t = newQueueThread(store);
  const keys = threadKeys(prefix, t.threadId, t.owner);
  const writer = await beginOn(t, "r1");
  await enqueue(t, entryOf(t, "q1"));
  await enqueue(t, steerOf(t, "s1", "r1"), { front: true });
  await store.cancelQueued(t.threadId, "q1", "no", scopeOf(t));
  const all = [keys.events, keys.meta, keys.lease, keys.snapshot, keys.runs, keys.messages, keys.ids, keys.queue, keys.queueEntries, keys.queueOutcomes];
  expect(await keysOf(t)).toEqual(all.sort());
  expect([keys.queue, keys.queueEntries, keys.queueOutcomes].every((key) => key.includes(`{${t.owner ?? ""}%:${t.threadId}}:`))).toBe(true);
  for (const key of [keys.queue, keys.queueEntries, keys.queueOutcomes]) {
    const left = await pttl(key);
    expect(left).toBeGreaterThan(TTL - 60_000);
    expect(left).toBeLessThanOrEqual(TTL + Math.min(TTL / 10, TOUCH_SLACK_MAX_MS)); // renewed with slack, as every key
  }
  expect(await admin.sendCommand(["ZRANGE", keys.queue, "0", "-1"])).toEqual(["s1"]);
  expect(await admin.sendCommand(["HKEYS", keys.queueEntries])).toEqual(["s1"]);
  await writer.append(takenEvents(steerOf(t, "s1", "r1")));
  expect(await admin.sendCommand(["EXISTS", keys.queue, keys.queueEntries])).toBe(0); // an empty sorted set or hash is no key
  expect(await store.remove(t.threadId, scopeOf(t))).toBe(true);
  expect(await keysOf(t)).toEqual([keys.tombstone]);
});

test(`the outcomes are a list of the last ${QUEUE_OUTCOMES_KEPT}, newest first: the older are forgotten (unknown)`, async () => {
  const { store } = await instance();
  const t = newQueueThread(store);
  await beginOn(t, "r1");
  for (let i = 0; i < QUEUE_OUTCOMES_KEPT + 6; i++) {
    await enqueue(t, entryOf(t, `c${i}`), { max: 1 });
    await store.cancelQueued(t.threadId, `c${i}`, `reason ${i}`, scopeOf(t));
  }
  expect(Number(await admin.sendCommand(["LLEN", threadKeys(prefix, t.threadId, t.owner).queueOutcomes]))).toBe(QUEUE_OUTCOMES_KEPT);
  expect(await store.queueEntry(t.threadId, "c5", scopeOf(t))).toEqual({ state: "unknown" });
  expect(await store.queueEntry(t.threadId, "c6", scopeOf(t))).toEqual({ state: "cancelled", reason: "reason 6" });
});

test("round trips: an enqueue behind a live run is one script and the owner's announcement; a read brings the queue in its read script; a take rides on the append", async () => {
  const { store, port } = await instance();
  const t = newQueueThread(store);
  const writer = await beginOn(t, "r1");
  let from = port.sent.length;
  expect(await enqueue(t, steerOf(t, "s1", "r1"), { front: true })).toBe("steering");
  const enqueued = port.sent.slice(from);
  expect(scriptCalls(enqueued, "queue_signal('enqueued', id)")).toHaveLength(1);
  expect(enqueued.map((args) => args[0])).toEqual([expect.stringMatching(/^EVAL/), "PUBLISH"]);
  from = port.sent.length;
  expect(await queueIds(t)).toEqual(["s1"]);
  expect(port.sent.slice(from)).toHaveLength(1);
  from = port.sent.length;
  await writer.append(takenEvents(steerOf(t, "s1", "r1")));
  const appended = port.sent.slice(from);
  expect(appended.filter((args) => args[0] !== "PUBLISH")).toHaveLength(1); // the append script; the PUBLISH is the owner's queue-taken
  expect(await store.queueEntry(t.threadId, "s1", scopeOf(t))).toEqual({ state: "taken", runId: "r1" });
  await finish(writer);
});
