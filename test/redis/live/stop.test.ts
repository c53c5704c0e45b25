/**
 * Stop propagation through Redis: `stop` on one store instance reaches the `stopRequested` of the
 * producer on another (its own client connection): at once through the signal channel, and
 * through the producer's next renewal or append when the signal was lost.
 */
import { firstValueFrom, lastValueFrom, toArray } from "rxjs";
import { ev, runAgentInput } from "../../../src/protocol/build";
import { redisStore, type RedisStore } from "../../../src/redis/redisStore";
import { closeClient, connectClient, uniquePrefix, type TestClient } from "../support/clients";
import { deafPort } from "../support/ports";

const prefix = uniquePrefix("stop");
const opened: { store: RedisStore; client: TestClient }[] = [];
let threads = 0;
const newThread = (): string => `stop-${threads++}`;

async function instance(deaf = false): Promise<RedisStore> {
  const client = await connectClient("stop");
  const store = deaf ? redisStore({ port: deafPort(client), prefix }) : redisStore({ client, prefix });
  opened.push({ store, client });
  return store;
}

afterEach(async () => {
  for (const { store, client } of opened.splice(0)) {
    await store.close();
    await closeClient(client);
  }
});

test("a stop sent to instance B reaches the producer on instance A through the signal channel", async () => {
  const [a, b] = await Promise.all([instance(), instance()]);
  const threadId = newThread();
  const writer = await a.beginRun(runAgentInput(threadId, "r1"));
  await writer.append([ev.textMessageStart("m1"), ev.textMessageContent("m1", "working")]);
  const before = lastValueFrom(writer.stopRequested.pipe(toArray()));
  expect(await b.stop(threadId, "r1")).toBe("stopping");
  expect(await before).toEqual([undefined]); // no append or renewal since: only the signal can have brought it
  expect(await lastValueFrom(writer.stopRequested.pipe(toArray()))).toEqual([undefined]); // and a later subscriber sees it too
  await writer.append([ev.textMessageEnd("m1"), ev.runFinished(threadId, "r1", { outcome: { type: "cancelled" } })]);
  expect(await b.stop(threadId, "r1")).toBe("ended");
  expect(await a.stop(threadId, "r1")).toBe("ended");
  expect(await b.stop(threadId, "r9")).toBe("unknown");
  const read = await b.read(threadId);
  expect(read?.kind === "snapshot" && read.snapshot.run).toMatchObject({ runId: "r1", status: "cancelled" });
});

test("a producer whose subscription lost the signal still learns of the stop with its next renewal, and with its next append", async () => {
  const [deaf, b] = await Promise.all([instance(true), instance()]);
  const renewing = newThread();
  const writer = await deaf.beginRun(runAgentInput(renewing, "r1"));
  const stopped = firstValueFrom(writer.stopRequested, { defaultValue: "completed without a stop" });
  expect(await b.stop(renewing, "r1")).toBe("stopping");
  expect(await writer.renewLease()).toBe(true);
  expect(await stopped).toBeUndefined();

  const appending = newThread();
  const other = await deaf.beginRun(runAgentInput(appending, "r1"));
  expect(await b.stop(appending, "r1")).toBe("stopping");
  await other.append([ev.stepStarted("s")]);
  expect(await firstValueFrom(other.stopRequested, { defaultValue: "completed without a stop" })).toBeUndefined();
});

test("stops of many runs on several producers each reach their own run only", async () => {
  const [a, b, c] = await Promise.all([instance(), instance(), instance()]);
  const producers = [a, b];
  const runs = await Promise.all(Array.from({ length: 10 }, (_, i) => producers[i % 2].beginRun(runAgentInput(newThread(), `r${i}`))));
  const watched = runs.map((writer) => lastValueFrom(writer.stopRequested.pipe(toArray())));
  const toStop = runs.filter((_, i) => i % 3 === 0);
  expect(await Promise.all(toStop.map((writer) => c.stop(writer.threadId, writer.runId)))).toEqual(toStop.map(() => "stopping"));
  for (const [i, writer] of runs.entries()) if (i % 3 !== 0) await writer.append([ev.runFinished(writer.threadId, writer.runId)]);
  for (const writer of toStop) await writer.append([ev.runFinished(writer.threadId, writer.runId, { outcome: { type: "cancelled" } })]);
  expect(await Promise.all(watched)).toEqual(runs.map((_, i) => (i % 3 === 0 ? [undefined] : [])));
});
