/**
 * The thread stores under load (docs/durability.md#stores-and-routes): events appended through
 * `recordRun` and delivered to a tail, through `redisStore()` on a real redis-server against
 * `memoryStore()` in the same run, ratio printed. Cases:
 *
 * - `1 run`: one run of 50,000 text deltas, produced as fast as the loop allows, one tail;
 * - `20 runs`: 20 concurrent runs of 5,000 events each, every one tailed (per process);
 * - `paced`: 20 runs offering 250 events/s each (5,000/s in all), for the latency a store adds
 *   between a producer's event and its delivery to a tail (p50/p99), queueing left out.
 *
 * On Redis the producer and the tails are two store instances with their own clients in this
 * process (the tails' instance holds one blocking reader for all of them), as a server that runs
 * agents and one that serves reconnected clients would. Target: ≥ 20,000 events/s per process
 * through Redis with a single reader. Then the sizing figures for docs/durability.md: bytes per
 * thread and per retained event (MEMORY USAGE), per live run, and `used_memory` per thread; and
 * the memory store's heap per logged event (one finished run of 200,000 text deltas, heap after GC,
 * the log checked whole by reading it back).
 *
 * Redis: `REDIS_URL` if set, else a `redis-server` started on a free loopback port (no
 * persistence); without either the Redis cases are skipped, and the suite says so.
 *
 * Every tail's events are checked against the generated ones (count, order, types, delta text):
 * a case whose store lost or altered an event throws and the bench exits non-zero.
 */
import { firstValueFrom, Observable, toArray } from "rxjs";
import { createClient } from "redis";
import { ev, runAgentInput } from "../../src/protocol/build";
import type { Event } from "../../src/protocol/events";
import { threadKeys } from "../../src/redis/keys";
import { redisStore, type RedisStore } from "../../src/redis/redisStore";
import { memoryStore } from "../../src/server/store/memory/memoryStore";
import { recordRun } from "../../src/server/store/recordRun";
import type { ThreadStore } from "../../src/server/store/ThreadStore";
import { benchRedis } from "../../test/redis/support/redisServer";
import { collectGarbage } from "../support/measure";
import { fmt, printTable } from "../support/table";

type Client = ReturnType<typeof createClient>;

interface Case {
  readonly name: string;
  readonly runs: number;
  readonly eventsPerRun: number;
  /** Events each run emits per chunk, and the pause between chunks (0: the next turn of the loop). */
  readonly chunk: number;
  readonly pauseMs: number;
}

const CASES: Case[] = [
  { name: "1 run", runs: 1, eventsPerRun: 50_000, chunk: 100, pauseMs: 0 },
  { name: "20 runs", runs: 20, eventsPerRun: 5_000, chunk: 50, pauseMs: 0 },
  { name: "paced", runs: 20, eventsPerRun: 1_000, chunk: 5, pauseMs: 20 },
];

interface Result {
  readonly events: number;
  readonly seconds: number;
  readonly p50: number;
  readonly p99: number;
  /** Redis's own CPU seconds (user + system) spent during the case, when measured. */
  readonly redisCpu?: number;
}

/** A run's events: RUN_STARTED, one message of deltas (token-sized, like a model's), RUN_FINISHED. */
function runEvents(threadId: string, runId: string, count: number): Event[] {
  const events: Event[] = [ev.runStarted(threadId, runId), ev.textMessageStart("m1")];
  for (let i = events.length; i < count - 2; i++) events.push(ev.textMessageContent("m1", ` token${i % 97}`));
  events.push(ev.textMessageEnd("m1"), ev.runFinished(threadId, runId));
  return events;
}

/** Emits `events` `chunk` at a time, each chunk on a later turn of the loop (or after `pauseMs`), noting when each went out. */
function paced(events: readonly Event[], chunk: number, pauseMs: number, emitted: number[]): Observable<Event> {
  return new Observable<Event>((subscriber) => {
    let next = 0;
    let cancel: (() => void) | undefined;
    const step = (): void => {
      const end = Math.min(next + chunk, events.length);
      for (; next < end && !subscriber.closed; next++) {
        emitted[next] = performance.now();
        subscriber.next(events[next]);
      }
      if (next >= events.length) subscriber.complete();
      else if (!subscriber.closed) {
        if (pauseMs > 0) {
          const timer = setTimeout(step, pauseMs);
          cancel = () => clearTimeout(timer);
        } else {
          const immediate = setImmediate(step);
          cancel = () => clearImmediate(immediate);
        }
      }
    };
    step();
    return () => cancel?.();
  });
}

/**
 * Runs one case: every run recorded through `writing`, tailed through `reading`. Each tail's
 * events are checked against the run's generated events (type, and delta text) as they arrive,
 * and its count after: a store that loses, reorders or alters an event fails the suite.
 */
async function runCase(c: Case, writing: ThreadStore, reading: ThreadStore, tailsReady: (count: number) => Promise<void>, tag: string): Promise<Result> {
  const writers = await Promise.all(
    Array.from({ length: c.runs }, (_, r) => writing.beginRun(runAgentInput(`bench-${tag}-${c.name}-${r}-${Date.now().toString(36)}`, "r1"))),
  );
  const planned = writers.map((writer) => runEvents(writer.threadId, writer.runId, c.eventsPerRun));
  const emitted = writers.map(() => new Array<number>(c.eventsPerRun));
  const delivered = writers.map(() => new Array<number>(c.eventsPerRun));
  const received = writers.map(() => ({ count: 1, mismatches: 0, first: "" })); // the tail starts after RUN_STARTED, event 0
  const tails = writers.map(
    (writer, r) =>
      new Promise<void>((resolve, reject) => {
        const got = received[r];
        reading.tail(writer.threadId, writer.started.cursor).subscribe({
          next: ({ event }) => {
            const index = got.count++;
            delivered[r][index] = performance.now();
            const expected = planned[r][index];
            if (
              expected === undefined ||
              event.type !== expected.type ||
              (event.type === "TEXT_MESSAGE_CONTENT" && expected.type === "TEXT_MESSAGE_CONTENT" && event.delta !== expected.delta)
            ) {
              if (got.mismatches++ === 0) got.first = `event ${index}: expected ${JSON.stringify(expected)}, but got ${JSON.stringify(event)}`;
            }
          },
          error: reject,
          complete: resolve,
        });
      }),
  );
  await tailsReady(c.runs);
  collectGarbage();
  const start = performance.now();
  const recorded = writers.map(
    (writer, r) =>
      new Promise<void>((resolve, reject) => {
        paced(planned[r], c.chunk, c.pauseMs, emitted[r]).pipe(recordRun(writer)).subscribe({ error: reject, complete: resolve });
      }),
  );
  await Promise.all([...recorded, ...tails]);
  const seconds = (performance.now() - start) / 1000;
  received.forEach((got, r) => {
    if (got.mismatches > 0) throw new Error(`${tag} ${c.name}, run ${r}: ${got.mismatches} events differ from the generated ones; the first at ${got.first}`);
    if (got.count !== c.eventsPerRun)
      throw new Error(
        `${tag} ${c.name}, run ${r}: expected the tail to deliver ${c.eventsPerRun - 1} events after RUN_STARTED, but it delivered ${got.count - 1}`,
      );
  });
  const latencies: number[] = [];
  for (let r = 0; r < c.runs; r++) for (let i = 1; i < c.eventsPerRun; i++) latencies.push(delivered[r][i] - emitted[r][i]);
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
  return { events: c.runs * c.eventsPerRun, seconds, p50: at(0.5), p99: at(0.99) };
}

async function connect(url: string, name: string): Promise<Client> {
  const client = createClient({ url, name });
  client.on("error", (error: Error) => console.warn(`redis client ${name}: ${error.message}`));
  await client.connect();
  return client;
}

/** Redis's CPU seconds so far (INFO cpu: used_cpu_user + used_cpu_sys, the server's whole process). */
async function redisCpu(client: Client): Promise<number> {
  const info: unknown = await client.sendCommand(["INFO", "cpu"]);
  if (typeof info !== "string") return 0;
  const field = (name: string) => Number(new RegExp(`${name}:([0-9.]+)`).exec(info)?.[1] ?? 0);
  return field("used_cpu_user") + field("used_cpu_sys");
}

async function until(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("the tails did not all follow within 30 s");
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

export default async function run(): Promise<void> {
  const backend = await benchRedis();
  if ("skipped" in backend) {
    console.log(`\nthe Redis store cases are SKIPPED: neither REDIS_URL nor redis-server is available (${backend.skipped})`);
  }
  const rows: string[][] = [
    [
      "case",
      "events",
      "memory ev/s",
      "redis ev/s",
      "redis / memory",
      "memory p50 ms",
      "memory p99 ms",
      "redis p50 ms",
      "redis p99 ms",
      "Redis CPU µs/ev",
      "ev/s per Redis core",
    ],
  ];
  let writerClient: Client | undefined;
  let readerClient: Client | undefined;
  let writing: RedisStore | undefined;
  let reading: RedisStore | undefined;
  try {
    if (!("skipped" in backend)) {
      [writerClient, readerClient] = await Promise.all([connect(backend.url, "bench-writer"), connect(backend.url, "bench-reader")]);
      const prefix = `bench:${process.pid}:`;
      writing = redisStore({ client: writerClient, prefix });
      reading = redisStore({ client: readerClient, prefix });
    }
    for (const c of CASES) {
      const memory = memoryStore({ maxBytes: 1024 * 1024 * 1024, maxThreads: 10_000 });
      const m = await runCase(c, memory, memory, async () => undefined, "memory");
      const tailsOf = reading;
      let r: Result | undefined;
      if (writing !== undefined && tailsOf !== undefined && writerClient !== undefined) {
        const cpuBefore = await redisCpu(writerClient);
        const measured = await runCase(c, writing, tailsOf, (count) => until(() => tailsOf.stats().tails === count), "redis");
        r = { ...measured, redisCpu: (await redisCpu(writerClient)) - cpuBefore };
      }
      const mRate = m.events / m.seconds;
      const rRate = r === undefined ? undefined : r.events / r.seconds;
      rows.push([
        c.name,
        fmt(m.events),
        fmt(mRate),
        rRate === undefined ? "skipped" : fmt(rRate),
        rRate === undefined ? "-" : `${fmt(rRate / mRate)}×`,
        fmt(m.p50, 3),
        fmt(m.p99, 3),
        r === undefined ? "-" : fmt(r.p50, 3),
        r === undefined ? "-" : fmt(r.p99, 3),
        r?.redisCpu === undefined ? "-" : fmt((r.redisCpu * 1e6) / r.events, 1),
        r?.redisCpu === undefined ? "-" : fmt(r.events / r.redisCpu),
      ]);
    }
    printTable(
      "Thread stores: events appended through recordRun and delivered to a tail, memoryStore vs redisStore (one reader for every tail); latency = producer's emission → tail delivery; target ≥ 20,000 ev/s per process on Redis",
      rows,
    );
    await memoryStoreHeap();
    if (writerClient !== undefined) await sizing(writerClient);
  } finally {
    await reading?.close();
    await writing?.close();
    if (readerClient?.isOpen) await readerClient.close();
    if (writerClient?.isOpen) await writerClient.close();
    if (!("skipped" in backend)) await backend.stop();
  }
}

/** Events in the memory store's heap figure: one run, logged in batches of `HEAP_BATCH`. */
const HEAP_EVENTS = 200_000;
const HEAP_BATCH = 1_000;

/**
 * The heap `memoryStore()` holds per logged event, the event itself included: one finished run of
 * `HEAP_EVENTS` text deltas (each a fresh object and string, as a producer's are), heap after GC
 * before and after. Throws unless reading the thread back gives every event, in order.
 */
async function memoryStoreHeap(): Promise<void> {
  const store = memoryStore({ maxBytes: 1024 * 1024 * 1024 });
  collectGarbage();
  const before = process.memoryUsage().heapUsed;
  // The writer and the events live in this scope only: afterwards only the store holds them.
  const startedAt = await (async () => {
    const writer = await store.beginRun(runAgentInput("heap", "r1"));
    const events = runEvents("heap", "r1", HEAP_EVENTS).slice(1);
    for (let i = 0; i < events.length; i += HEAP_BATCH) await writer.append(events.slice(i, i + HEAP_BATCH));
    return writer.started.cursor;
  })();
  collectGarbage();
  const after = process.memoryUsage().heapUsed;
  const read = await firstValueFrom(store.tail("heap", startedAt).pipe(toArray()));
  const deltas = read.filter((stored) => stored.event.type === "TEXT_MESSAGE_CONTENT").length;
  if (read.length !== HEAP_EVENTS - 1 || deltas !== HEAP_EVENTS - 4 || read[read.length - 1]?.event.type !== "RUN_FINISHED")
    throw new Error(`memory store heap: expected the ${HEAP_EVENTS - 1} events after RUN_STARTED to read back, but read ${read.length} (${deltas} deltas)`);
  console.log(
    `memoryStore() heap per logged event (one run of ${fmt(HEAP_EVENTS)} text deltas, the event included): ${fmt((after - before) / HEAP_EVENTS, 1)} B`,
  );
}

/** Bytes Redis holds: MEMORY USAGE of a thread's keys, and used_memory over many threads. */
async function sizing(client: Client): Promise<void> {
  const prefix = `bench-size:${process.pid}:`;
  const sized = redisStore({ client, prefix });
  const memoryUsage = async (key: string): Promise<number> => {
    const reply: unknown = await client.sendCommand(["MEMORY", "USAGE", key, "SAMPLES", "0"]);
    return typeof reply === "number" ? reply : 0;
  };
  const usedMemory = async (): Promise<number> => {
    const info: unknown = await client.sendCommand(["INFO", "memory"]);
    const match = typeof info === "string" ? /used_memory:(\d+)/.exec(info) : null;
    return match === null ? 0 : Number(match[1]);
  };
  const logRun = async (threadId: string, runId: string, count: number, finish: boolean) => {
    const writer = await sized.beginRun(
      runAgentInput(threadId, runId, { messages: [{ id: `u-${runId}`, role: "user", content: "A question of ordinary length about the plan?" }] }),
    );
    const events = runEvents(threadId, runId, count).slice(1);
    await writer.append(finish ? events : events.slice(0, -1));
    return writer;
  };
  const keysBytes = async (threadId: string) => {
    const keys = threadKeys(prefix, threadId);
    const bytes = {
      events: await memoryUsage(keys.events),
      meta: await memoryUsage(keys.meta),
      snapshot: await memoryUsage(keys.snapshot),
      runs: await memoryUsage(keys.runs),
      lease: await memoryUsage(keys.lease),
    };
    return { ...bytes, total: bytes.events + bytes.meta + bytes.snapshot + bytes.runs + bytes.lease };
  };
  // One thread with one finished run of 1,000 events; the same with a run still live; 10 runs.
  await logRun("size-one", "r1", 1000, true);
  const one = await keysBytes("size-one");
  await logRun("size-live", "r1", 1000, false);
  const live = await keysBytes("size-live");
  for (let r = 1; r <= 10; r++) await logRun("size-ten", `r${r}`, 1000, true);
  const ten = await keysBytes("size-ten");
  // used_memory over 500 threads of one 200-event run each
  collectGarbage();
  const before = await usedMemory();
  for (let t = 0; t < 500; t++) await logRun(`size-many-${t}`, "r1", 200, true);
  const after = await usedMemory();
  printTable("Redis memory (MEMORY USAGE of a thread's keys; text deltas of ~70 bytes of JSON each)", [
    ["thread", "events", "stream B", "snapshot B", "meta+runs+lease B", "total B", "B per retained event"],
    ["1 finished run", "1,000", fmt(one.events), fmt(one.snapshot), fmt(one.meta + one.runs + one.lease), fmt(one.total), fmt(one.events / 1000, 1)],
    ["1 live run", "999", fmt(live.events), fmt(live.snapshot), fmt(live.meta + live.runs + live.lease), fmt(live.total), fmt(live.events / 999, 1)],
    ["10 finished runs", "10,000", fmt(ten.events), fmt(ten.snapshot), fmt(ten.meta + ten.runs + ten.lease), fmt(ten.total), fmt(ten.events / 10_000, 1)],
  ]);
  console.log(
    `used_memory: ${fmt((after - before) / 500)} B per thread over 500 threads of one 200-event run (${fmt((after - before) / 500 / 200, 1)} B per event)`,
  );
  await sized.close();
}
