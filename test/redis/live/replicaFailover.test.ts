/**
 * Replica-acknowledged appends (`redisStore({ replicas })`, docs/durability.md#failover-and-acknowledged-events)
 * on real redis-server processes: a primary and its replica (`--replicaof`). A crash failover
 * (`kill -9` of the primary while five runs append, the replica promoted with `REPLICAOF NO ONE`, the
 * store's commands sent to it from then on) loses no event an append resolved with, nor any a tail
 * on another instance handed on; and a replica
 * that does not acknowledge in time (stopped with SIGSTOP) fails the append `unavailable`, cause
 * `NOREPLICAS`, instead of handing its events on.
 */
import { lastValueFrom, tap } from "rxjs";
import { ev, runAgentInput } from "../../../src/protocol/build";
import type { Event } from "../../../src/protocol/events";
import { threadKeys } from "../../../src/redis/keys";
import { nodeRedisPort } from "../../../src/redis/nodeRedisPort";
import type { RedisPort } from "../../../src/redis/RedisPort";
import { redisStore, type RedisStore } from "../../../src/redis/redisStore";
import { StoreError } from "../../../src/server/store/StoreError";
import type { RunWriter } from "../../../src/server/store/ThreadStore";
import { closeClient, connectClient, uniquePrefix, type TestClient } from "../support/clients";
import { startRedisServer, type RedisServer } from "../support/redisServer";
import { until } from "../support/until";

const prefix = uniquePrefix("replicaFailover");

/** A primary and a replica of it, the replica in sync (its link to the primary is up). */
async function pair(): Promise<{ primary: RedisServer; replica: RedisServer; primaryClient: TestClient; replicaClient: TestClient }> {
  const primary = await startRedisServer();
  const replica = await startRedisServer({ replicaOf: primary.port });
  const primaryClient = await connectClient("failover-primary", primary.url);
  const replicaClient = await connectClient("failover-replica", replica.url);
  const deadline = Date.now() + 10_000;
  const linked = async (): Promise<boolean> => {
    const info: unknown = await replicaClient.sendCommand(["INFO", "replication"]);
    return typeof info === "string" && info.includes("master_link_status:up");
  };
  while (!(await linked())) {
    if (Date.now() > deadline) throw new Error("the replica's link to its primary was not up within 10 s");
  }
  return { primary, replica, primaryClient, replicaClient };
}

/** A port whose commands go to whichever client `target()` names at the time they are sent (the clients' own reconnection never moves servers). */
function switchingPort(target: () => TestClient, base: RedisPort): RedisPort {
  return { ...base, send: (args, signal) => target().sendCommand(args, signal === undefined ? undefined : { abortSignal: signal }) };
}

const servers: RedisServer[] = [];
const clients: TestClient[] = [];
const stores: RedisStore[] = [];

afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
  for (const client of clients.splice(0)) await closeClient(client);
  for (const server of servers.splice(0)) await server.kill().catch(() => undefined);
});

test("kill -9 of the primary while 5 runs append, its replica promoted: every event an append resolved with, or a tail on another instance handed on, is on the new primary, in order", async () => {
  const { primary, replica, primaryClient, replicaClient } = await pair();
  servers.push(primary, replica);
  clients.push(primaryClient, replicaClient);
  let current = primaryClient;
  const store = redisStore({
    port: switchingPort(() => current, nodeRedisPort(primaryClient)),
    prefix,
    replicas: { count: 1, timeoutMs: 1_000 },
    lease: 10_000,
    timeout: 2_000,
  });
  stores.push(store);
  const writers: RunWriter[] = await Promise.all(Array.from({ length: 5 }, (_, r) => store.beginRun(runAgentInput(`failover-${r}-${Date.now()}`, "r1"))));
  const acknowledged: { cursor: string; json: string }[][] = writers.map(() => []);
  // another instance tails every run: what it hands on must survive the failover too
  const otherClient = await connectClient("failover-other", primary.url);
  clients.push(otherClient);
  const other = redisStore({ client: otherClient, prefix, replicas: { count: 1, timeoutMs: 1_000 }, timeout: 2_000 });
  stores.push(other);
  const tailed: { cursor: string; json: string }[][] = writers.map(() => []);
  const tails = writers.map((writer, r) =>
    lastValueFrom(
      other.tail(writer.threadId, writer.started.cursor).pipe(tap((stored) => tailed[r].push({ cursor: stored.cursor, json: JSON.stringify(stored.event) }))),
    ).catch(
      () => undefined, // its primary is killed under it
    ),
  );
  const failures: unknown[] = [];
  let killed = false;
  const produced = writers.map(async (writer, r) => {
    for (let i = 0; ; i++) {
      const batch: Event[] = Array.from({ length: 1 + (i % 3) }, (_, j) => ev.textMessageContent("m1", `r${r}-${i}-${j}`));
      if (i === 0) batch.unshift(ev.textMessageStart("m1"));
      try {
        const cursors = await writer.append(batch);
        batch.forEach((event, k) => acknowledged[r].push({ cursor: cursors[k], json: JSON.stringify(event) }));
      } catch (error) {
        failures.push(error);
        return;
      }
      if (killed && i > 1_000) throw new Error("appends kept succeeding with no replica to acknowledge them");
    }
  });
  await until(
    () => acknowledged.every((events) => events.length >= 40) && tailed.every((events) => events.length >= 20),
    "40 acknowledged events in every run, 20 tailed on the other instance",
    20_000,
  );
  await primary.kill();
  killed = true;
  await replicaClient.sendCommand(["REPLICAOF", "NO", "ONE"]);
  current = replicaClient;
  await Promise.all(produced);
  await Promise.all(tails);
  // After the failover the promoted replica has no replica of its own: nothing more is acknowledged.
  expect(failures).toHaveLength(5);
  for (const failure of failures) expect(StoreError.isInstance(failure) && failure.code).toBe("unavailable");
  for (const [r, writer] of writers.entries()) {
    const entries = await replicaClient.sendCommand<[string, string[]][]>(["XRANGE", threadKeys(prefix, writer.threadId).events, "-", "+"]);
    const logged = new Map(entries.map(([cursor, fields]) => [cursor, fields[fields.indexOf("e") + 1]]));
    const missing = acknowledged[r].filter(({ cursor, json }) => logged.get(cursor) !== json);
    expect([r, acknowledged[r].length >= 40, missing]).toEqual([r, true, []]);
    const missingTailed = tailed[r].filter(({ cursor, json }) => logged.get(cursor) !== json);
    expect([r, tailed[r].length >= 20, missingTailed]).toEqual([r, true, []]);
    const order = entries.map(([cursor]) => cursor).filter((cursor) => acknowledged[r].some((event) => event.cursor === cursor));
    expect(order).toEqual(acknowledged[r].map((event) => event.cursor));
  }
});

test("a replica that does not acknowledge within the timeout fails the append unavailable (NOREPLICAS) and the run with it", async () => {
  const { primary, replica, primaryClient, replicaClient } = await pair();
  servers.push(primary, replica);
  clients.push(primaryClient, replicaClient);
  const store = redisStore({ client: primaryClient, prefix, replicas: { count: 1, timeoutMs: 150 } });
  stores.push(store);
  const writer = await store.beginRun(runAgentInput(`paused-${Date.now()}`, "r1"));
  expect(await writer.append([ev.textMessageStart("m1")])).toHaveLength(1);
  process.kill(replica.pid, "SIGSTOP");
  try {
    const outcome = await writer.append([ev.textMessageContent("m1", "unacknowledged")]).catch((error: unknown) => error);
    expect(StoreError.isInstance(outcome) && outcome.code).toBe("unavailable");
    expect(String(outcome)).toContain("0 did: its events are not handed to anyone");
    expect(String((outcome as StoreError).cause)).toContain("NOREPLICAS");
    // the writer can no longer be trusted: every later call fails alike
    await expect(writer.append([ev.textMessageEnd("m1")])).rejects.toBe(outcome);
  } finally {
    process.kill(replica.pid, "SIGCONT");
  }
  // the option off: the same primary answers at once whatever its replica does
  const plain = redisStore({ client: primaryClient, prefix });
  stores.push(plain);
  const other = await plain.beginRun(runAgentInput(`plain-${Date.now()}`, "r1"));
  process.kill(replica.pid, "SIGSTOP");
  try {
    expect(await other.append([ev.textMessageStart("m1")])).toHaveLength(1);
  } finally {
    process.kill(replica.pid, "SIGCONT");
  }
});
