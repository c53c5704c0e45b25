/**
 * A manual failover (`CLUSTER FAILOVER` on a replica) while 20 runs append, on threads spread over
 * the primaries (docs/durability.md#redis-cluster): the runs go on on the promoted replica (node-redis
 * follows MOVED; scripts that meet the switch are sent again), and every append a writer was told
 * was logged is in its thread's log afterwards, once and in order, and in another instance's tail.
 */
import { lastValueFrom, toArray } from "rxjs";
import { ev, runAgentInput } from "../../../src/protocol/build";
import { until } from "../support/until";
import { clusterNodes, clusterStores } from "./support/clusterClients";
import { cli, clusterReady, settle } from "./support/redisCluster";
import { primaries, slotOf } from "./support/slotMoves";

const stores = clusterStores("failover");
afterEach(() => stores.closeAll());

/** The replica of the primary at `address`. */
async function replicaOf(address: string): Promise<string> {
  const port = address.split(":")[1];
  for (const node of clusterNodes()) {
    const info = await cli(node, "INFO", "replication");
    if (info.includes("role:slave") && info.includes(`master_port:${port}\r`)) return node;
  }
  throw new Error(`expected a replica of ${address}`);
}

test("CLUSTER FAILOVER on a replica during 20 live runs: every acknowledged append is logged once, in order, and tailed exactly", async () => {
  const [a, b] = [await stores.open(), await stores.open()];
  const ids = Array.from({ length: 20 }, (_, i) => `failing-over-${i}`);
  const { owner } = await primaries(await slotOf(`${stores.prefix}{${ids[0]}}:events`));
  const replica = await replicaOf(owner.address);
  const writers = await Promise.all(ids.map((threadId) => a.beginRun(runAgentInput(threadId, "r1"))));
  const tails = ids.map((threadId, i) => lastValueFrom(b.tail(threadId, writers[i].started.cursor).pipe(toArray())));
  const acknowledged = ids.map((): string[] => []);
  let failingOver = true;
  const runs = writers.map(async (writer, i) => {
    await writer.append([ev.textMessageStart("m1")]);
    for (let n = 0; failingOver || n < 5; n++) {
      await writer.append([ev.textMessageContent("m1", `${n},`)]);
      acknowledged[i].push(`${n},`);
    }
    await writer.append([ev.textMessageEnd("m1"), ev.runFinished(ids[i], "r1")]);
  });
  await until(() => acknowledged.every((deltas) => deltas.length >= 3), "every run to append before the failover", 20_000);
  await cli(replica, "CLUSTER", "FAILOVER");
  await settle(
    async () => (await cli(replica, "INFO", "replication")).includes("role:master") && (await clusterReady(clusterNodes())),
    30_000,
    `${replica} to be promoted`,
  );
  const during = acknowledged.map((deltas) => deltas.length);
  await until(() => acknowledged.every((deltas, i) => deltas.length >= during[i] + 3), "every run to append after the failover", 30_000);
  failingOver = false;
  await Promise.all(runs);
  const logs = await Promise.all(tails);
  for (const [i, log] of logs.entries()) {
    expect(log.map((stored) => stored.event)).toEqual([
      ev.textMessageStart("m1"),
      ...acknowledged[i].map((delta) => ev.textMessageContent("m1", delta)),
      ev.textMessageEnd("m1"),
      ev.runFinished(ids[i], "r1"),
    ]);
    const read = await b.read(ids[i]);
    expect(read?.kind === "snapshot" && read.snapshot.messages.at(-1)?.content).toBe(acknowledged[i].join(""));
  }
  expect((await cli(owner.address, "INFO", "replication")).includes("role:slave")).toBe(true); // the old primary serves its replica now
});
