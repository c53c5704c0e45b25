/**
 * `createHandler` on Redis (issue #11 §4): events through `createHandler` → SSE → a reading client
 * over loopback HTTP, with `redisStore()` on a real redis-server against `memoryStore()` in the
 * same run. Cases:
 *
 * - `1 run`: one run of 20,000 text deltas, produced as fast as its one reading client takes them
 *   (the per-process target: ≥ 20,000 events/s through Redis with a single reading client);
 * - `20 runs`: 20 concurrent runs of 2,500 events, one client each (events/s per run and per process);
 * - `paced`: 20 runs offering 250 events/s each, for the latency the store adds between the run
 *   function's emission and the client's receipt of the frame (p50/p99);
 * - reconnects: a client cut from a live run's answer on instance A reconnects to instance B
 *   (another store instance with its own client) with `Last-Event-ID`; the time from the
 *   reconnect request to its first replayed frame (p50/p99), 200 times.
 *
 * Before a store's cases are timed, one planned run is read whole through its server and decoded:
 * it must be the planned events (type and delta text, in order); every timed run's frames are
 * counted against its plan. A mismatch throws and the bench exits non-zero.
 *
 * The pieces are exported (`StoreFactory`, `memoryStoreFactory`, `redisStoreFactory`,
 * `measureServer`) so that the createHandler suite can list the Redis store beside its others.
 */
import { createClient } from "redis";
import { ev, runAgentInput } from "../../src/protocol/build";
import { redisStore } from "../../src/redis/redisStore";
import { createHandler } from "../../src/server/http/createHandler";
import { serve, type Served } from "../../src/node/serve";
import { memoryStore } from "../../src/server/store/memory/memoryStore";
import type { ThreadStore } from "../../src/server/store/ThreadStore";
import { benchRedis } from "../../test/redis/support/redisServer";
import { collectGarbage } from "../support/measure";
import { fmt, printTable } from "../support/table";
import { printTargets, recordTarget } from "../support/targets";
import { checkSameRun, readEvents } from "../support/answerChecks";
import { postSse } from "../support/sseReading";
import { openRun, percentile, readRun, RunPlans, type Plan } from "../support/storedRunPlans";

/** A store as a server instance holds it, and how to let it go. */
export interface BenchStore {
  readonly store: ThreadStore;
  /** Redis connections this instance holds (`undefined` for an embedded store). */
  connections?(): Promise<number>;
  close(): Promise<void>;
}

/** Makes one store per server instance: `create()` twice is two instances (on Redis: two clients, two readers). */
export interface StoreFactory {
  readonly name: string;
  create(): Promise<BenchStore>;
}

/**
 * `memoryStore()`: every instance its own (an embedded store is not shared).
 *
 * @example
 * const { store } = await memoryStoreFactory.create();
 */
export const memoryStoreFactory: StoreFactory = {
  name: "memoryStore",
  create: async () => ({ store: memoryStore({ maxBytes: 1024 * 1024 * 1024, maxThreads: 10_000 }), close: async () => undefined }),
};

/**
 * `redisStore()` on the Redis at `url`: each instance with its own node-redis client, under one
 * prefix, so that the instances share threads as separate processes would.
 *
 * @example
 * const factory = redisStoreFactory(process.env.REDIS_URL);
 */
export function redisStoreFactory(url: string, prefix = `bench-http:${process.pid}:`): StoreFactory {
  let made = 0;
  return {
    name: "redisStore",
    async create() {
      const name = `bench-http-${process.pid}-${made++}`;
      const client = createClient({ url, name });
      client.on("error", (error: Error) => console.warn(`redis client ${name}: ${error.message}`));
      await client.connect();
      const store = redisStore({ client, prefix });
      return {
        store,
        connections: async () => {
          const list: unknown = await client.sendCommand(["CLIENT", "LIST"]);
          const names = typeof list === "string" ? list.split("\n").map((line) => /(?:^| )name=(\S*)/.exec(line)?.[1] ?? "") : [];
          return names.filter((n) => n === name || n.startsWith(`agui-rx:${store.instance}:`)).length;
        },
        close: async () => {
          await store.close();
          await client.close();
        },
      };
    },
  };
}

/** One throughput case. */
export interface ServerCase {
  readonly name: string;
  readonly runs: number;
  readonly eventsPerRun: number;
  /** Events per chunk, and the pause between chunks (0: as fast as the client reads, through `ready`). */
  readonly chunk: number;
  readonly pauseMs: number;
}

/** What a case measured. */
export interface ServerResult {
  readonly events: number;
  /** All events over the wall time, first request to last frame. */
  readonly perProcess: number;
  /** The mean over the runs of each run's events over its own duration. */
  readonly perRun: number;
  /** Emission → receipt, ms. */
  readonly p50: number;
  readonly p99: number;
}

const CASES: ServerCase[] = [
  { name: "1 run", runs: 1, eventsPerRun: 20_000, chunk: 100, pauseMs: 0 },
  { name: "20 runs", runs: 20, eventsPerRun: 2_500, chunk: 50, pauseMs: 0 },
  { name: "paced", runs: 20, eventsPerRun: 500, chunk: 5, pauseMs: 20 },
];

/** Measured repetitions per case (after one warm-up); the table shows the median by events/s per process. */
const REPEATS = 3;

function median(results: readonly ServerResult[]): ServerResult {
  return [...results].sort((x, y) => x.perProcess - y.perProcess)[Math.floor(results.length / 2)];
}

/** A createHandler on loopback serving the planned runs, with `store`. */
async function serveRuns(plans: RunPlans, store: ThreadStore): Promise<Served> {
  return serve(createHandler(plans.runFunction, { store, onRunError: (error) => console.warn(`bench run failed: ${String(error)}`) }));
}

/**
 * Runs one case against one server: every run its own thread and client, concurrently.
 *
 * @example
 * const result = await measureServer(c, `${served.url}agent`, plans);
 */
export async function measureServer(c: ServerCase, url: string, plans: RunPlans): Promise<ServerResult> {
  const tag = `${c.name.replace(/\s/g, "")}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
  const planned: Plan[] = Array.from({ length: c.runs }, (_, r) => plans.add(`${tag}-${r}`, "r1", c.eventsPerRun, c.chunk, c.pauseMs));
  collectGarbage();
  const start = performance.now();
  const read = await Promise.all(planned.map((plan) => readRun(url, runAgentInput(plan.threadId, plan.runId), plan.delivered)));
  const seconds = (performance.now() - start) / 1000;
  const latencies: number[] = [];
  let perRun = 0;
  for (const [r, plan] of planned.entries()) {
    if (read[r].frames !== c.eventsPerRun) throw new Error(`expected ${c.eventsPerRun} frames for run ${r}, but got ${read[r].frames}`);
    for (let i = 1; i < c.eventsPerRun; i++) latencies.push(plan.delivered[i] - plan.emitted[i]);
    perRun += c.eventsPerRun / ((read[r].lastAt - read[r].startedAt) / 1000);
    plans.remove(plan);
  }
  latencies.sort((x, y) => x - y);
  return {
    events: c.runs * c.eventsPerRun,
    perProcess: (c.runs * c.eventsPerRun) / seconds,
    perRun: perRun / c.runs,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
  };
}

/**
 * Reconnect latency: one live run on `producer` (1,000 events/s); its client reads a few frames,
 * is cut, and reconnects to `other` (alternating with `producer`) with Last-Event-ID, `count`
 * times. Each sample: the reconnect request → its first frame (a replayed one: the run emitted
 * more after the cut before the request was sent), ms.
 */
async function measureReconnects(producer: string, other: string, plans: RunPlans, count: number): Promise<number[]> {
  // 100 events per reconnect (each needs 23): on a loaded machine a reconnect can take far longer than the 23 ms the run needs to emit them
  const plan = plans.add(`reconnect-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`, "r1", count * 100 + 2_000, 10, 10);
  const samples: number[] = [];
  let stream = await openRun(`${producer}`, runAgentInput(plan.threadId, plan.runId), undefined);
  for (let i = 0; i < count; i++) {
    await stream.untilFrames(stream.frames + 20);
    const lastId = stream.lastId;
    await stream.cut();
    const seen = plan.emittedCount();
    // There is something after the cursor to replay; a run that stopped emitting fails loudly.
    await within(
      plans.whenEmitted(plan, seen + 3),
      30_000,
      `reconnect ${i}: the run (${plan.emittedCount()} of ${plan.events.length} events emitted) emitting 3 more after the cut`,
    );
    const target = i % 2 === 0 ? other : producer;
    const sent = performance.now();
    stream = await openRun(`${target}/connect`, { threadId: plan.threadId }, lastId);
    await stream.untilFrames(1);
    samples.push(stream.firstFrameAt - sent);
  }
  // Stop the run (it outlives its clients) and follow it to its end, so that nothing is left running.
  const lastId = stream.lastId;
  await stream.cut();
  const stopped = await fetch(`${producer}/stop`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ threadId: plan.threadId, runId: plan.runId }),
  });
  if (stopped.status !== 202) throw new Error(`expected the reconnect run to stop (202), but /stop answered ${stopped.status}`);
  await (await openRun(`${producer}/connect`, { threadId: plan.threadId }, lastId)).rest();
  plans.remove(plan);
  return samples.sort((x, y) => x - y);
}

/**
 * An instance's heap per live run and per tail: 1,000 runs begun (a user message and an open text
 * message of 20 deltas each), then one tail of each, measured with `process.memoryUsage()` after a
 * collection (needs `--expose-gc`, as `npm run bench` runs).
 */
async function instanceMemory(factory: StoreFactory): Promise<{ perRun: number; perTail: number }> {
  const opened = await factory.create();
  const heap = (): number => {
    collectGarbage();
    return process.memoryUsage().heapUsed;
  };
  const tag = `mem-${Date.now().toString(36)}`;
  const before = heap();
  const writers = [];
  for (let i = 0; i < 1000; i++) {
    const writer = await opened.store.beginRun(
      runAgentInput(`${tag}-${i}`, "r1", { messages: [{ id: `u${i}`, role: "user", content: "A question of ordinary length about the plan?" }] }),
    );
    await writer.append([ev.textMessageStart("m1"), ...Array.from({ length: 20 }, (_, k) => ev.textMessageContent("m1", ` token${k}`))]);
    writers.push(writer);
  }
  const runs = heap();
  const tails = writers.map((writer) => opened.store.tail(writer.threadId, writer.started.cursor).subscribe({ error: () => undefined }));
  await new Promise<void>((resolve) => setTimeout(resolve, 500)); // the tails join (a cursor check each)
  const tailed = heap();
  for (const writer of writers) await writer.append([ev.textMessageEnd("m1"), ev.runFinished(writer.threadId, writer.runId)]);
  for (const tail of tails) tail.unsubscribe();
  await within(opened.close(), 30_000, `${factory.name}: closing the instance after the memory count`);
  return { perRun: (runs - before) / 1000, perTail: (tailed - runs) / 1000 };
}

/**
 * Settles as `promise` does, or rejects once `ms` have passed: a store that cannot close fails the
 * bench loudly instead of leaving it waiting forever.
 */
async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not settle within ${ms / 1000} s`)), ms);
  });
  try {
    return await Promise.race([promise, limit]);
  } finally {
    clearTimeout(timer);
  }
}

/** Redis's CPU seconds so far (INFO cpu: used_cpu_user + used_cpu_sys). */
async function redisCpu(url: string): Promise<{ read(): Promise<number>; close(): Promise<void> }> {
  const client = createClient({ url, name: `bench-http-cpu-${process.pid}` });
  client.on("error", () => undefined);
  await client.connect();
  return {
    async read() {
      const info: unknown = await client.sendCommand(["INFO", "cpu"]);
      if (typeof info !== "string") return 0;
      const field = (name: string) => Number(new RegExp(`${name}:([0-9.]+)`).exec(info)?.[1] ?? 0);
      return field("used_cpu_user") + field("used_cpu_sys");
    },
    close: () => client.close(),
  };
}

export default async function run(): Promise<void> {
  const redis = await benchRedis();
  if ("skipped" in redis) {
    console.log(`\nthe Redis cases are SKIPPED: neither REDIS_URL nor redis-server is available (${redis.skipped})`);
    return;
  }
  const factories = [memoryStoreFactory, redisStoreFactory(redis.url)];
  const plans = new RunPlans();
  const cpu = await redisCpu(redis.url);
  const rows: string[][] = [
    ["case", "events", "store", "ev/s per process", "ev/s per run", "× memory", "p50 ms", "p99 ms", "added p50 ms", "added p99 ms", "Redis CPU µs/ev"],
  ];
  const reconnectRows: string[][] = [["store", "reconnects", "p50 ms", "p99 ms", "max ms"]];
  const memoryRows: string[][] = [["store", "heap per live run B", "heap per tail B"]];
  let connections: number[] = [];
  const failures: unknown[] = [];
  try {
    const results = new Map<string, ServerResult>();
    for (const factory of factories) {
      const a = await factory.create();
      const b = await factory.create();
      const servedA = await serveRuns(plans, a.store);
      // An embedded store is not shared: its reconnects go back to the instance that has the thread.
      const servedB = factory === memoryStoreFactory ? servedA : await serveRuns(plans, b.store);
      try {
        const checked = plans.add(`check-${factory.name}-${Date.now().toString(36)}`, "r1", 2_000, 100, 0);
        checkSameRun(
          `${factory.name}: one run read whole`,
          await readEvents(await postSse(`${servedA.url}agent`, runAgentInput(checked.threadId, checked.runId))),
          checked.events,
        );
        plans.remove(checked);
        for (const c of CASES) {
          await measureServer(c, `${servedA.url}agent`, plans); // warm-up: the JIT has seen the whole path
          const before = factory === memoryStoreFactory ? 0 : await cpu.read();
          const repeats: ServerResult[] = [];
          for (let i = 0; i < REPEATS; i++) repeats.push(await measureServer(c, `${servedA.url}agent`, plans));
          const cpuSeconds = factory === memoryStoreFactory ? undefined : ((await cpu.read()) - before) / REPEATS;
          const result = median(repeats);
          const memory = results.get(c.name);
          results.set(c.name, memory ?? result);
          if (memory !== undefined && c.name === "1 run") {
            const ratio = result.perProcess / memory.perProcess;
            recordTarget("serverRedis", "one saturated run per process through createHandler: redisStore ≥ 0.6× memoryStore", `${fmt(ratio)}×`, ratio >= 0.6);
            recordTarget(
              "serverRedis",
              "one saturated run per process through createHandler on Redis ≥ 20,000 ev/s",
              fmt(result.perProcess),
              result.perProcess >= 20_000,
            );
          }
          rows.push([
            c.name,
            fmt(result.events),
            factory.name,
            fmt(result.perProcess),
            fmt(result.perRun),
            memory === undefined ? "1" : `${fmt(result.perProcess / memory.perProcess)}×`,
            fmt(result.p50, 3),
            fmt(result.p99, 3),
            memory === undefined ? "-" : fmt(result.p50 - memory.p50, 3),
            memory === undefined ? "-" : fmt(result.p99 - memory.p99, 3),
            cpuSeconds === undefined ? "-" : fmt((cpuSeconds * 1e6) / result.events, 1),
          ]);
        }
        const label = factory === memoryStoreFactory ? "memoryStore (same instance)" : "redisStore (A → B, alternating)";
        try {
          const samples = await measureReconnects(`${servedA.url}agent`, `${servedB.url}agent`, plans, 200);
          reconnectRows.push([
            label,
            fmt(samples.length),
            fmt(percentile(samples, 0.5), 2),
            fmt(percentile(samples, 0.99), 2),
            fmt(samples[samples.length - 1], 2),
          ]);
        } catch (error) {
          // Printed in the table and thrown at the end (non-zero exit), after the figures that did measure.
          failures.push(error);
          reconnectRows.push([label, "FAILED", String(error instanceof Error ? error.message : error), "-", "-"]);
        }
        if (a.connections !== undefined && b.connections !== undefined) connections = [await a.connections(), await b.connections()];
      } finally {
        await servedA.close();
        if (servedB !== servedA) await servedB.close();
        await within(a.close(), 30_000, `${factory.name}: closing instance A`);
        await within(b.close(), 30_000, `${factory.name}: closing instance B`);
      }
    }
    // Printed before the memory count, so that these figures survive whatever happens there.
    printTable(
      "createHandler → SSE → a reading client over loopback, memoryStore vs redisStore (same run); latency = run function's emission → client's receipt; target ≥ 20,000 ev/s per process on Redis with one reading client",
      rows,
    );
    printTable("Reconnect latency: a client cut from a live run reconnects with Last-Event-ID; reconnect request → first replayed frame", reconnectRows);
    printTargets("serverRedis targets", "serverRedis");
    if (failures.length > 0) throw new AggregateError(failures, `serverRedis: ${failures.length} measurement(s) failed (see the tables above)`);
    for (const factory of factories) {
      const { perRun, perTail } = await instanceMemory(factory);
      memoryRows.push([factory.name, fmt(perRun), fmt(perTail)]);
    }
  } finally {
    await cpu.close();
    await redis.stop();
  }
  printTable("An instance's heap: 1,000 live runs (a user message, an open text message of 20 deltas), then one tail of each", memoryRows);
  console.log(
    "Latency in the saturated cases (1 run, 20 runs) is queueing: the producer runs ahead of its appends, whose batches grow to thousands of events; the paced case shows the latency a store adds.",
  );
  console.log(
    `Redis connections per instance (CLIENT LIST, after every case): A (ran every run) ${connections[0]}, B (served reconnects only) ${connections[1]}: its client, the tail reader, and the signal subscription once it runs a run`,
  );
}
