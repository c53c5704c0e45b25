/**
 * Tails multiplex: 1,000 concurrent tails on one store instance, over 20 threads whose runs are
 * produced on two instances while the tails join at every point of the runs (many behind the
 * reader, so they catch up with XRANGE first). Every tail is exact, and the instance holds a small
 * constant of Redis connections, counted on the server with CLIENT LIST.
 */
import { lastValueFrom, toArray } from "rxjs";
import { ev, runAgentInput } from "../../../src/protocol/build";
import type { Event } from "../../../src/protocol/events";
import { redisStore, type RedisStore } from "../../../src/redis/redisStore";
import type { RunWriter, StoredEvent } from "../../../src/server/store/ThreadStore";
import { closeClient, connectClient, uniquePrefix, type TestClient } from "../support/clients";
import { until } from "../support/until";
import { asLogged } from "../../support/storedEvents";

const THREADS = 20;
const TAILS = 1000;
const BATCHES = 10;
const prefix = uniquePrefix("tails");
const clients: TestClient[] = [];
const stores: RedisStore[] = [];

afterAll(async () => {
  for (const store of stores) await store.close();
  for (const client of clients) await closeClient(client);
});

/** A small seeded generator (mulberry32), so the cursors the tails start from are the same every run. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The names of every connection the server has, from CLIENT LIST. */
async function connectionNames(client: TestClient): Promise<string[]> {
  const list: unknown = await client.sendCommand(["CLIENT", "LIST"]);
  if (typeof list !== "string") throw new Error(`expected CLIENT LIST to answer a string, got ${typeof list}`);
  return list
    .split("\n")
    .filter((line) => line.length > 0)
    .map((line) => / name=(\S*)/.exec(line)?.[1] ?? "");
}

test("1,000 tails on one instance are each exact, through 3 Redis connections", async () => {
  const readerName = `tails-reader-${process.pid}-${Date.now().toString(36)}`;
  const [readerClient, writerClient] = await Promise.all([connectClient(readerName), connectClient("tails-writer")]);
  clients.push(readerClient, writerClient);
  const reading = redisStore({ client: readerClient, prefix });
  const writing = redisStore({ client: writerClient, prefix });
  stores.push(reading, writing);
  const next = random(11);

  // Half the runs are produced on the reading instance itself, half on another one.
  const writers: RunWriter[] = [];
  const logs: StoredEvent[][] = [];
  for (let t = 0; t < THREADS; t++) {
    const writer = await (t % 2 === 0 ? reading : writing).beginRun(runAgentInput(`tails-${t}`, "r1"));
    writers.push(writer);
    logs.push([writer.started]);
  }
  const append = async (t: number, events: Event[]): Promise<void> => {
    const cursors = await writers[t].append(events);
    events.forEach((event, i) => logs[t].push({ cursor: cursors[i], event }));
  };

  // Tails join in waves between the batches, each from a cursor anywhere in its thread's log so far.
  const tails: { thread: number; from: number; done: Promise<StoredEvent[]> }[] = [];
  const join = (count: number): void => {
    for (let i = 0; i < count; i++) {
      const thread = tails.length % THREADS;
      const from = Math.floor(next() * logs[thread].length);
      tails.push({ thread, from, done: lastValueFrom(reading.tail(`tails-${thread}`, logs[thread][from].cursor).pipe(toArray())) });
    }
  };
  for (let b = 0; b < BATCHES; b++) {
    join(TAILS / BATCHES);
    await Promise.all(
      writers.map((_, t) => append(t, [ev.textMessageStart(`m${b}`), ev.textMessageContent(`m${b}`, `part ${b} of thread ${t}`), ev.textMessageEnd(`m${b}`)])),
    );
  }
  join(TAILS - tails.length);
  await until(() => reading.stats().tails === TAILS, "every tail follows");

  const names = await connectionNames(readerClient);
  const ours = names.filter((name) => name === readerName || name.startsWith(`agui-rx:${reading.instance}:`));
  expect(ours.sort()).toEqual([`agui-rx:${reading.instance}:reader`, `agui-rx:${reading.instance}:signals`, readerName].sort());
  expect(reading.stats()).toEqual({ liveRuns: THREADS / 2, followedThreads: THREADS, tails: TAILS });

  await Promise.all(writers.map((writer, t) => append(t, [ev.runFinished(writer.threadId, writer.runId)])));
  for (const tail of tails) expect((await tail.done).map(asLogged)).toEqual(logs[tail.thread].slice(tail.from + 1));
  expect(reading.stats()).toEqual({ liveRuns: 0, followedThreads: 0, tails: 0 });
  console.log(`1,000 tails over ${THREADS} threads on one instance: ${ours.length} Redis connections (${ours.join(", ")})`);
});

test("1,000 tails of one thread, joining from every cursor while its run goes on, are each exact", async () => {
  const [readerClient, writerClient] = await Promise.all([connectClient("tails-one-reader"), connectClient("tails-one-writer")]);
  clients.push(readerClient, writerClient);
  const reading = redisStore({ client: readerClient, prefix });
  const writing = redisStore({ client: writerClient, prefix });
  stores.push(reading, writing);
  const writer = await writing.beginRun(runAgentInput("tails-one", "r1"));
  const log: StoredEvent[] = [writer.started];
  const tails: { from: number; done: Promise<StoredEvent[]> }[] = [];
  for (let i = 0; i < TAILS; i++) {
    const from = i % log.length;
    tails.push({ from, done: lastValueFrom(reading.tail("tails-one", log[from].cursor).pipe(toArray())) });
    if (i % 10 === 9) {
      const batch = [ev.custom("tick", i), ev.custom("tock", i)];
      const cursors = await writer.append(batch);
      batch.forEach((event, k) => log.push({ cursor: cursors[k], event }));
    }
  }
  await until(() => reading.stats().tails === TAILS, "every tail follows");
  expect(reading.stats().followedThreads).toBe(1);
  const cursors = await writer.append([ev.runFinished("tails-one", "r1")]);
  log.push({ cursor: cursors[0], event: ev.runFinished("tails-one", "r1") });
  for (const tail of tails) expect((await tail.done).map(asLogged)).toEqual(log.slice(tail.from + 1));
});
