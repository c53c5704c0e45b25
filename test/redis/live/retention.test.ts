/**
 * Retention on a real Redis: a thread's stream trimmed past its bound up to its kept snapshot, old
 * runs trimmed by MINID, every key's TTL renewed by writes, and what a trimmed or expired cursor
 * gets: the snapshot path for a read (never an error), `evicted` for a tail, 404 once expired.
 */
import { lastValueFrom, toArray } from "rxjs";
import { ev, runAgentInput } from "../../../src/protocol/build";
import type { Event } from "../../../src/protocol/events";
import { threadKeys } from "../../../src/redis/keys";
import { TOUCH_SLACK_MAX_MS } from "../../../src/redis/scripts/prelude";
import { redisStore, REDIS_STORE_DEFAULTS, type RedisStore, type RedisStoreSettings } from "../../../src/redis/redisStore";
import { StoreError } from "../../../src/server/store/StoreError";
import type { StoredEvent } from "../../../src/server/store/ThreadStore";
import { closeClient, connectClient, uniquePrefix, type TestClient } from "../support/clients";
import { asLogged } from "../../support/storedEvents";

const prefix = uniquePrefix("retention");
const opened: { store: RedisStore; client: TestClient }[] = [];
let threads = 0;
const newThread = (): string => `retention-${threads++}`;

async function instance(settings: RedisStoreSettings = {}): Promise<{ store: RedisStore; client: TestClient }> {
  const client = await connectClient("retention");
  const store = redisStore({ client, prefix, ...settings });
  opened.push({ store, client });
  return { store, client };
}

afterEach(async () => {
  for (const { store, client } of opened.splice(0)) {
    await store.close();
    await closeClient(client);
  }
});

const message = (i: number): Event[] => [
  ev.textMessageStart(`m${i}`),
  ev.textMessageContent(`m${i}`, `answer `),
  ev.textMessageContent(`m${i}`, `number ${i}`),
  ev.textMessageEnd(`m${i}`),
];

async function number(client: TestClient, args: string[]): Promise<number> {
  const reply: unknown = await client.sendCommand(args);
  if (typeof reply !== "number") throw new Error(`expected ${args[0]} to answer a number, got ${JSON.stringify(reply)}`);
  return reply;
}

test("past maxEventsPerThread the stream is trimmed up to its kept snapshot: bounded, and a trimmed cursor reads the whole thread from the snapshot", async () => {
  const { store, client } = await instance({ maxEventsPerThread: 40, snapshotEvery: 10 });
  const threadId = newThread();
  const keys = threadKeys(prefix, threadId);
  const writer = await store.beginRun(runAgentInput(threadId, "r1"));
  const follower = lastValueFrom(store.tail(threadId, writer.started.cursor).pipe(toArray()));
  const log: StoredEvent[] = [writer.started];
  let longest = 0;
  for (let i = 0; i < 60; i++) {
    const batch = message(i);
    const cursors = await writer.append(batch);
    batch.forEach((event, k) => log.push({ cursor: cursors[k], event }));
    longest = Math.max(longest, await number(client, ["XLEN", keys.events]));
  }
  expect(longest).toBeLessThanOrEqual(40 + 4); // the bound, give or take the batch that crossed it
  expect(await number(client, ["XLEN", keys.events])).toBeLessThan(40);

  const early = log[5].cursor; // long trimmed
  const read = await store.read(threadId, early);
  if (read?.kind !== "snapshot") throw new Error(`expected the snapshot path for a trimmed cursor, got ${read?.kind}`);
  expect(read.snapshot.messages.map((m) => m.id)).toEqual(Array.from({ length: 60 }, (_, i) => `m${i}`));
  expect(read.snapshot.messages[59]).toMatchObject({ role: "assistant", content: "answer number 59" });
  expect(read.snapshot).toMatchObject({ cursor: log[log.length - 1].cursor, run: { runId: "r1", status: "running", reopen: [] } });
  const tailError = await lastValueFrom(store.tail(threadId, early)).catch((error: unknown) => error);
  expect(StoreError.isInstance(tailError) && tailError.code).toBe("evicted");
  // a recent cursor still resumes
  expect(await store.read(threadId, log[log.length - 2].cursor)).toEqual({ kind: "resume", after: log[log.length - 2].cursor, events: log.slice(-1) });

  await writer.append([ev.runFinished(threadId, "r1")]);
  // the tail that followed from the start kept up with the reader while the stream was trimmed behind it
  expect((await follower).map(asLogged)).toEqual([...log.slice(1), expect.objectContaining({ event: ev.runFinished(threadId, "r1") })]);
});

test("maxRunsPerThread: the stream starts at the oldest retained run; the runs list keeps that many", async () => {
  const { store, client } = await instance({ maxRunsPerThread: 2 });
  const threadId = newThread();
  const keys = threadKeys(prefix, threadId);
  const starts: string[] = [];
  for (let r = 1; r <= 4; r++) {
    const writer = await store.beginRun(runAgentInput(threadId, `r${r}`));
    starts.push(writer.started.cursor);
    await writer.append([...message(r), ev.runFinished(threadId, `r${r}`)]);
  }
  const first: unknown = await client.sendCommand(["XRANGE", keys.events, "-", "+", "COUNT", "1"]);
  expect(Array.isArray(first) && Array.isArray(first[0]) && first[0][0]).toBe(starts[2]);
  expect(await client.sendCommand(["LRANGE", keys.runs, "0", "-1"])).toEqual([`${starts[2]} r3`, `${starts[3]} r4`]);
  expect(await store.stop(threadId, "r1")).toBe("unknown"); // beyond retention, as in memoryStore
  expect(await store.stop(threadId, "r3")).toBe("ended");
});

test("every write leaves every key at least its TTL to live (an append renews them, with slack, once they have less); the heartbeat key lives one lease on Redis's clock and goes with the run", async () => {
  const ttl = 3_600_000;
  const lease = 20_000;
  const { store, client } = await instance({ ttl, lease });
  const threadId = newThread();
  const keys = threadKeys(prefix, threadId);
  const writer = await store.beginRun(runAgentInput(threadId, "r1"));
  await writer.append(message(1));
  for (const key of [keys.events, keys.meta, keys.snapshot, keys.runs]) {
    const left = await number(client, ["PTTL", key]);
    expect([key, left > ttl - 60_000 && left <= ttl + TOUCH_SLACK_MAX_MS]).toEqual([key, true]);
  }
  const leaseLeft = await number(client, ["PTTL", keys.lease]);
  expect(leaseLeft > lease - 60_000 && leaseLeft <= lease).toBe(true);
  await writer.append([ev.runFinished(threadId, "r1")]);
  expect(await number(client, ["EXISTS", keys.lease])).toBe(0);
  expect(REDIS_STORE_DEFAULTS).toMatchObject({ ttl: 7 * 24 * 3600_000, maxRunsPerThread: 50, maxEventsPerThread: 100_000, snapshotEvery: 1_000 });
});

test("a thread whose keys expire is gone: its waiting tail errors evicted and a read answers unknown", async () => {
  const { store } = await instance({ ttl: 300, lease: 100 });
  const threadId = newThread();
  const writer = await store.beginRun(runAgentInput(threadId, "r1"));
  const [terminal] = await writer.append([ev.runFinished(threadId, "r1")]);
  // Waits for the thread's next run, which never comes: the reader's idle lease check finds the keys gone.
  const outcome = await lastValueFrom(store.tail(threadId, terminal)).catch((error: unknown) => error);
  expect(StoreError.isInstance(outcome) && outcome.code).toBe("evicted");
  expect(String(outcome)).toContain("its keys expired while it was followed");
  expect(await store.read(threadId)).toBeUndefined();
  expect(await store.read(threadId, terminal)).toBeUndefined();
});
