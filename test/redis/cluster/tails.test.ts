/**
 * 1,000 tails on one store instance over a Redis Cluster, each on a thread of its own (so spread
 * over every slot range), each exact, while the instance's connections stay within the bound
 * docs/durability.md#redis-cluster states: at most 2 × primaries + 1, whatever the number of tails.
 */
import { lastValueFrom, toArray } from "rxjs";
import { ev, runAgentInput } from "../../../src/protocol/build";
import type { RunWriter } from "../../../src/server/store/ThreadStore";
import { clusterNodes, clusterStores } from "./support/clusterClients";
import { cli } from "./support/redisCluster";

const stores = clusterStores("tails");
afterEach(() => stores.closeAll());

/** The connections named `name` on every node of the cluster, and on how many primaries the cluster runs. */
async function connectionsNamed(name: string): Promise<{ connections: number; primaries: number }> {
  let connections = 0;
  let primaries = 0;
  for (const node of clusterNodes()) {
    connections += (await cli(node, "CLIENT", "LIST")).split("\n").filter((line) => line.includes(` name=${name} `)).length;
    if ((await cli(node, "INFO", "replication")).includes("role:master")) primaries += 1;
  }
  return { connections, primaries };
}

/** Runs `task` over `items`, `width` at a time. */
async function inBatches<T, R>(items: readonly T[], width: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += width) out.push(...(await Promise.all(items.slice(i, i + width).map(task))));
  return out;
}

test("1,000 tails on 1,000 threads through one instance: each gets its run's events exactly, within 2 × primaries + 1 connections", async () => {
  const name = `tails-${process.pid}-${Date.now().toString(36)}`;
  const producer = await stores.open();
  const reader = await stores.open({ clientName: name });
  const ids = Array.from({ length: 1000 }, (_, i) => `many-${i}`);
  const writers = await inBatches(ids, 100, (threadId) => producer.beginRun(runAgentInput(threadId, "r1")));
  const tails = ids.map((threadId, i) => lastValueFrom(reader.tail(threadId, writers[i].started.cursor).pipe(toArray())));
  const write = (task: (writer: RunWriter, threadId: string) => Promise<unknown>): Promise<unknown> =>
    inBatches(ids, 100, (threadId) => task(writers[ids.indexOf(threadId)], threadId));
  await write((writer, threadId) => writer.append([ev.textMessageStart("m1"), ev.textMessageContent("m1", `to ${threadId}`)]));
  // every tail joined and followed by now: the instance's connections, counted on every node
  const { connections, primaries } = await connectionsNamed(name);
  expect(reader.stats()).toEqual(expect.objectContaining({ followedThreads: 1000, tails: 1000 }));
  await write((writer) => writer.append([ev.textMessageContent("m1", "!"), ev.textMessageEnd("m1")]));
  await write((writer, threadId) => writer.append([ev.runFinished(threadId, "r1")]));
  const logs = await Promise.all(tails);
  for (const [i, log] of logs.entries())
    expect(log.map((stored) => stored.event)).toEqual([
      ev.textMessageStart("m1"),
      ev.textMessageContent("m1", `to ${ids[i]}`),
      ev.textMessageContent("m1", "!"),
      ev.textMessageEnd("m1"),
      ev.runFinished(ids[i], "r1"),
    ]);
  expect(primaries).toBe(3);
  expect(connections).toBeGreaterThan(0);
  expect(connections).toBeLessThanOrEqual(2 * primaries + 1);
  console.log(`1,000 tails over 1,000 threads on one instance of a ${primaries}-primary cluster: ${connections} connections`);
});
