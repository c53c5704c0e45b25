/**
 * With `redisStore({ replicas })`, what an instance other than the producer's hands on (a tail, a
 * read) is acknowledged as the producer's own answers are (docs/durability.md#failover-and-acknowledged-events):
 * the reading connection writes the thread's sync key and WAITs, so that a replica holds every
 * entry read before any goes out. A replica that does not acknowledge (stopped with SIGSTOP) fails
 * the tail and the read `unavailable`, cause `NOREPLICAS`, and the entry it does not hold reaches
 * no one; once it holds it again, the read hands it on.
 */
import { lastValueFrom, tap, toArray } from "rxjs";
import { ev, runAgentInput } from "../../../src/protocol/build";
import { redisStore, type RedisStore } from "../../../src/redis/redisStore";
import { StoreError } from "../../../src/server/store/StoreError";
import type { StoredEvent } from "../../../src/server/store/ThreadStore";
import { closeClient, connectClient, uniquePrefix, type TestClient } from "../support/clients";
import { startRedisServer, type RedisServer } from "../support/redisServer";
import { until } from "../support/until";

const prefix = uniquePrefix("replicaReads");
const REPLICAS = { count: 1, timeoutMs: 300 };
let primary: RedisServer;
let replica: RedisServer;
const clients: TestClient[] = [];
const stores: RedisStore[] = [];

beforeAll(async () => {
  primary = await startRedisServer();
  replica = await startRedisServer({ replicaOf: primary.port });
  const watcher = await connectClient("replica-reads-watch", replica.url);
  clients.push(watcher);
  await eventually(async () => {
    const info: unknown = await watcher.sendCommand(["INFO", "replication"]);
    return typeof info === "string" && info.includes("master_link_status:up");
  }, "the replica's link to be up");
});

afterAll(async () => {
  for (const store of stores.splice(0)) await store.close();
  for (const client of clients.splice(0)) await closeClient(client);
  await replica.stop();
  await primary.stop();
});

/** Asks `check` again until it holds (each time after Redis answered: no timer), failing after 10 s. */
async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await check())) if (Date.now() > deadline) throw new Error(`expected ${what} within 10 s`);
}

async function instance(name: string): Promise<RedisStore> {
  const client = await connectClient(name, primary.url);
  clients.push(client);
  const store = redisStore({ client, prefix, replicas: REPLICAS });
  stores.push(store);
  return store;
}

test("a tail and a read on another instance hand on only what a replica holds: a stopped replica fails them unavailable (NOREPLICAS) before the entry it lacks reaches anyone", async () => {
  const [producer, other] = [await instance("replica-reads-a"), await instance("replica-reads-b")];
  const threadId = `reads-${Date.now()}`;
  const writer = await producer.beginRun(runAgentInput(threadId, "r1"));
  await writer.append([ev.textMessageStart("m1"), ev.textMessageContent("m1", "held by the replica")]);
  const seen: StoredEvent[] = [];
  const tail = lastValueFrom(
    other.tail(threadId, writer.started.cursor).pipe(
      tap((stored) => seen.push(stored)),
      toArray(),
    ),
  ).catch((error: unknown) => error);
  await until(() => seen.length === 2, "the tail on the other instance to get the two acknowledged events");
  expect((await other.read(threadId, writer.started.cursor))?.kind).toBe("resume");

  process.kill(replica.pid, "SIGSTOP");
  try {
    // in the primary's stream, but no replica holds it: the producer's append fails, as before
    await expect(writer.append([ev.textMessageContent("m1", " not replicated")])).rejects.toMatchObject({ code: "unavailable" });
    const failed = await tail;
    if (!StoreError.isInstance(failed)) throw new Error(`expected the tail to fail, but it ended with ${JSON.stringify(failed)}`);
    expect(failed.code).toBe("unavailable");
    expect(String(failed.cause)).toContain("NOREPLICAS");
    expect(seen.map((stored) => stored.event)).toEqual([ev.textMessageStart("m1"), ev.textMessageContent("m1", "held by the replica")]);
    const read = await other.read(threadId, writer.started.cursor).catch((error: unknown) => error);
    expect(StoreError.isInstance(read) && [read.code, String(read.cause).includes("NOREPLICAS")]).toEqual(["unavailable", true]);
    const history = await other.history(threadId, { before: "m1", limit: 10 }).catch((error: unknown) => error);
    expect(StoreError.isInstance(history) && history.code).toBe("unavailable");
  } finally {
    process.kill(replica.pid, "SIGCONT");
  }
  // the replica has it now: the same read hands it on
  await eventually(async () => (await other.read(threadId, writer.started.cursor).catch(() => undefined)) !== undefined, "a read once the replica is back");
  const read = await other.read(threadId, writer.started.cursor);
  expect(read?.kind === "resume" && read.events.map((stored) => stored.event)).toEqual([
    ev.textMessageStart("m1"),
    ev.textMessageContent("m1", "held by the replica"),
    ev.textMessageContent("m1", " not replicated"),
  ]);
});
