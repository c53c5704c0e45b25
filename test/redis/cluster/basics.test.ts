/**
 * `redisStore({ client })` over a node-redis cluster client on a real Redis Cluster (three primaries,
 * three replicas; docs/durability.md#redis-cluster): threads spread over every primary, read and
 * tailed through another instance, cut and resumed across instances, stopped across instances.
 */
import { lastValueFrom, take, toArray, type Observable } from "rxjs";
import { ev, runAgentInput } from "../../../src/protocol/build";
import type { StoredEvent } from "../../../src/server/store/ThreadStore";
import { clusterNodes, clusterStores } from "./support/clusterClients";
import { cli } from "./support/redisCluster";

const stores = clusterStores("basics");
afterEach(() => stores.closeAll());

const collect = <T>(source: Observable<T>): Promise<T[]> => lastValueFrom(source.pipe(toArray()));
const types = (events: readonly StoredEvent[]): string[] => events.map((stored) => stored.event.type);

/** The primary that holds `key` (its slot's owner), asked of the cluster itself. */
async function primaryOf(key: string): Promise<string> {
  const slot = Number((await cli(clusterNodes()[0], "CLUSTER", "KEYSLOT", key)).trim());
  const shards = await cli(clusterNodes()[0], "--json", "CLUSTER", "SLOTS");
  const ranges = JSON.parse(shards) as [number, number, [string, number, string]][];
  const owner = ranges.find(([from, to]) => from <= slot && slot <= to);
  if (owner === undefined) throw new Error(`expected slot ${slot} to have a primary`);
  return `${owner[2][0]}:${owner[2][1]}`;
}

test("12 threads land on all three primaries; each is written on one instance and read and tailed exactly on another", async () => {
  const [a, b] = [await stores.open(), await stores.open()];
  const ids = Array.from({ length: 12 }, (_, i) => `spread-${i}`);
  const primaries = new Set(await Promise.all(ids.map((id) => primaryOf(`${stores.prefix}{${id}}:events`))));
  expect(primaries.size).toBe(3);
  const tails = await Promise.all(
    ids.map(async (threadId) => {
      const writer = await a.beginRun(runAgentInput(threadId, "r1"));
      const tail = collect(b.tail(threadId, writer.started.cursor));
      return { writer, tail, threadId };
    }),
  );
  for (const { writer, threadId } of tails) {
    await writer.append([ev.textMessageStart("m1"), ev.textMessageContent("m1", `hello ${threadId}`), ev.textMessageEnd("m1")]);
    await writer.append([ev.runFinished(threadId, "r1")]);
  }
  for (const { tail, threadId } of tails) {
    const events = await tail;
    expect(types(events)).toEqual(["TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END", "RUN_FINISHED"]);
    const read = await b.read(threadId);
    expect(read?.kind === "snapshot" && read.snapshot.messages.at(-1)?.content).toBe(`hello ${threadId}`);
  }
});

test("a cut tail resumes on the other instance from its last cursor: every event once, in order", async () => {
  const [a, b] = [await stores.open(), await stores.open()];
  const writer = await a.beginRun(runAgentInput("cut", "r1"));
  const cut = lastValueFrom(a.tail("cut", writer.started.cursor).pipe(take(2), toArray()));
  await writer.append([ev.textMessageStart("m1"), ev.textMessageContent("m1", "one")]);
  const before = await cut;
  const resumed = collect(b.tail("cut", before[1].cursor));
  await writer.append([ev.textMessageContent("m1", " two"), ev.textMessageEnd("m1")]);
  await writer.append([ev.runFinished("cut", "r1")]);
  const after = await resumed;
  expect([...before, ...after].map((stored) => stored.event.type)).toEqual([
    "TEXT_MESSAGE_START",
    "TEXT_MESSAGE_CONTENT",
    "TEXT_MESSAGE_CONTENT",
    "TEXT_MESSAGE_END",
    "RUN_FINISHED",
  ]);
});

test("a stop asked on one instance reaches the producer on the other", async () => {
  const [a, b] = [await stores.open(), await stores.open()];
  const writer = await a.beginRun(runAgentInput("stopped", "r1"));
  const stopped = new Promise<void>((resolve) => writer.stopRequested.subscribe(() => resolve()));
  expect(await b.stop("stopped", "r1")).toBe("stopping");
  await stopped;
});
