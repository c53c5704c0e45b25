/**
 * Redis's own cost per event of `redisStore()` (issue #28 §3, docs/durability.md#sizing-measured): the
 * microseconds Redis spends in the store's scripts per logged event, read from `INFO commandstats`
 * (the `usec` of EVALSHA and EVAL, which include the commands a script calls; the lanes send nothing
 * else), reset with `CONFIG RESETSTAT` before each lane, on a redis-server this suite starts for
 * itself (nothing else on it). Events are text deltas of about 70 bytes of JSON, appended straight
 * through `RunWriter.append` with fixed batching, so the figure does not depend on how a producer
 * happens to batch:
 *
 * - `paced 1`: exactly one event per append (a model's token as it comes);
 * - `paced 2.5`: two and three events per append in turn, a mean of 2.5;
 * - `saturated`: 1,000 events per append (a producer far ahead of Redis).
 *
 * Each lane runs 10 (saturated: 4) concurrent runs; the lanes are measured interleaved, 7 times,
 * and the median is printed with the targets (≤ 8 µs per event paced, ≤ 3 saturated). Before a
 * lane's figure counts, every run's stream is checked to hold exactly the events it appended.
 * With `replicas` (the `REPLICAS=1` environment variable, or always in the `replica` lanes), a
 * replica is started too and the store waits for it (`redisStore({ replicas })`): the cost of the
 * replica-acknowledged option, in the producer's time per append, against the same store without it.
 */
import { createClient } from "redis";
import { ev, runAgentInput } from "../../src/protocol/build";
import type { Event } from "../../src/protocol/events";
import { threadKeys } from "../../src/redis/keys";
import { redisStore, type RedisStore } from "../../src/redis/redisStore";
import type { RunWriter } from "../../src/server/store/ThreadStore";
import { startRedisServer, type RedisServer } from "../../test/redis/support/redisServer";
import { fmt, printTable } from "../support/table";
import { printTargets, recordTarget } from "../support/targets";

type Client = ReturnType<typeof createClient>;

/** One lane: how many runs at once, how many appends each, and the size of the i-th append. */
interface Lane {
  readonly name: string;
  readonly runs: number;
  readonly appends: number;
  readonly batch: (i: number) => number;
  /** The target in µs per event. */
  readonly target: number;
}

const LANES: readonly Lane[] = [
  { name: "paced 1", runs: 10, appends: 200, batch: () => 1, target: 8 },
  { name: "paced 2.5", runs: 10, appends: 200, batch: (i) => (i % 2 === 0 ? 2 : 3), target: 8 },
  { name: "saturated", runs: 4, appends: 6, batch: () => 1000, target: 3 },
];

const REPETITIONS = 7;

/** A delta of about 70 bytes of JSON: `{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":" token12"}`. */
function delta(i: number): Event {
  return ev.textMessageContent("m1", ` token${i % 97}`);
}

/** The usec of the store's scripts since the last CONFIG RESETSTAT (EVALSHA + EVAL; a script's own calls are inside). */
async function scriptUsec(admin: Client): Promise<{ usec: number; calls: number }> {
  const reply: unknown = await admin.sendCommand(["INFO", "commandstats"]);
  const info = typeof reply === "string" ? reply : "";
  let usec = 0;
  let calls = 0;
  for (const name of ["evalsha", "eval"]) {
    const match = new RegExp(`cmdstat_${name}:calls=(\\d+),usec=(\\d+)`).exec(info);
    if (match !== null) {
      calls += Number(match[1]);
      usec += Number(match[2]);
    }
  }
  return { usec, calls };
}

/** Redis's process CPU seconds so far (INFO cpu: used_cpu_user + used_cpu_sys), which a loaded machine's waits do not inflate. */
async function processCpu(admin: Client): Promise<number> {
  const reply: unknown = await admin.sendCommand(["INFO", "cpu"]);
  const info = typeof reply === "string" ? reply : "";
  const field = (name: string): number => Number(new RegExp(`${name}:([0-9.]+)`).exec(info)?.[1] ?? 0);
  return field("used_cpu_user") + field("used_cpu_sys");
}

/** What one lane measured: Redis µs per event, and the producer's mean ms per append (wall). */
interface LaneResult {
  readonly usPerEvent: number;
  /** Redis's process CPU per event (parsing, replies and networking included). */
  readonly cpuUsPerEvent: number;
  /** Wall ms per append of one run (its appends go one after the other). */
  readonly msPerAppend: number;
}

/**
 * One lane on `store`: the runs begin and start their message (not counted), then the stats are
 * reset and each run appends its batches one after the other, the runs side by side. Checked after:
 * each run's stream holds its appended count of deltas, the last one the expected text.
 */
async function runLane(lane: Lane, store: RedisStore, admin: Client, prefix: string, tag: string): Promise<LaneResult> {
  const writers: RunWriter[] = await Promise.all(
    Array.from({ length: lane.runs }, (_, r) => store.beginRun(runAgentInput(`cost-${tag}-${r}-${Date.now().toString(36)}`, "r1"))),
  );
  await Promise.all(writers.map((writer) => writer.append([ev.textMessageStart("m1")])));
  await admin.sendCommand(["CONFIG", "RESETSTAT"]);
  const cpuBefore = await processCpu(admin);
  let perRun = 0;
  for (let i = 0; i < lane.appends; i++) perRun += lane.batch(i);
  const counted = perRun * lane.runs;
  let events = 0;
  const start = performance.now();
  await Promise.all(
    writers.map(async (writer) => {
      let n = 0;
      for (let i = 0; i < lane.appends; i++) {
        const size = lane.batch(i);
        const batch: Event[] = new Array<Event>(size);
        for (let j = 0; j < size; j++) batch[j] = delta(n++);
        await writer.append(batch);
        events += size;
      }
    }),
  );
  const wall = performance.now() - start;
  const { usec } = await scriptUsec(admin);
  const cpu = (await processCpu(admin)) - cpuBefore;
  if (events !== counted) throw new Error(`redisCost ${lane.name}: expected ${counted} events appended, but ${events} were`);
  for (const writer of writers) {
    const keys = threadKeys(prefix, writer.threadId);
    const length = Number(await admin.sendCommand(["XLEN", keys.events]));
    const last: unknown = await admin.sendCommand(["XREVRANGE", keys.events, "+", "-", "COUNT", "1"]);
    const lastJson = JSON.stringify(delta(perRun - 1));
    // RUN_STARTED and TEXT_MESSAGE_START, then the deltas
    if (length !== perRun + 2 || !JSON.stringify(last).includes(JSON.stringify(lastJson)))
      throw new Error(
        `redisCost ${lane.name}: expected ${perRun + 2} entries ending with ${lastJson} in ${keys.events}, but found ${length}: ${JSON.stringify(last)}`,
      );
  }
  await Promise.all(writers.map((writer) => writer.append([ev.textMessageEnd("m1"), ev.runFinished(writer.threadId, writer.runId)])));
  return { usPerEvent: usec / counted, cpuUsPerEvent: (cpu * 1e6) / counted, msPerAppend: wall / lane.appends };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function connect(url: string, name: string): Promise<Client> {
  const client = createClient({ url, name });
  client.on("error", (error: Error) => console.warn(`redis client ${name}: ${error.message}`));
  await client.connect();
  return client;
}

export default async function run(): Promise<void> {
  let server: RedisServer;
  try {
    server = await startRedisServer();
  } catch (error) {
    console.log(`\nthe Redis cost lanes are SKIPPED: redis-server is not available (${error instanceof Error ? error.message : String(error)})`);
    return;
  }
  const admin = await connect(server.url, "cost-admin");
  const client = await connect(server.url, "cost-writer");
  const prefix = `cost:${process.pid}:`;
  const store = redisStore({ client, prefix });
  try {
    const samples = new Map<string, LaneResult[]>(LANES.map((lane) => [lane.name, []]));
    for (let rep = 0; rep < REPETITIONS; rep++) {
      for (const lane of LANES) samples.get(lane.name)?.push(await runLane(lane, store, admin, prefix, `${rep}`));
    }
    const rows = [["lane", "events per append", "Redis µs per event (median of 7)", "min", "max", "target", "Redis process CPU µs per event"]];
    for (const lane of LANES) {
      const results = samples.get(lane.name) ?? [];
      const values = results.map((r) => r.usPerEvent);
      const value = median(values);
      rows.push([
        lane.name,
        lane.name === "paced 2.5" ? "2, 3 (2.5)" : String(lane.batch(0)),
        fmt(value, 2),
        fmt(Math.min(...values), 2),
        fmt(Math.max(...values), 2),
        `≤ ${lane.target}`,
        fmt(median(results.map((r) => r.cpuUsPerEvent)), 2),
      ]);
      recordTarget(
        "redisCost",
        `Redis CPU per event, ${lane.name} (${lane.name === "saturated" ? "1,000" : lane.name.slice(6)} per append) ≤ ${lane.target} µs`,
        `${fmt(value, 2)} µs`,
        value <= lane.target,
      );
    }
    printTable("Redis CPU per event (INFO commandstats: EVALSHA + EVAL usec, reset before each lane; ~70-byte events; fixed batching)", rows);
    printTargets("redisCost targets", "redisCost");
  } finally {
    await store.close();
    await client.close();
    await admin.close();
    await server.stop();
  }
  await replicaCost();
}

/**
 * The cost of `replicas: { count: 1 }`: a primary with one replica on loopback, the paced lane
 * (one event per append) through a store that waits for the replica and one that does not,
 * interleaved 7 times: the producer's ms per append and Redis's µs per event, medians.
 */
async function replicaCost(): Promise<void> {
  const primary = await startRedisServer();
  const replica = await startRedisServer({ replicaOf: primary.port });
  const admin = await connect(primary.url, "cost-admin");
  const client = await connect(primary.url, "cost-writer");
  const prefix = `cost-replica:${process.pid}:`;
  const plain = redisStore({ client, prefix });
  const waiting = redisStore({ client, prefix, replicas: { count: 1, timeoutMs: 5_000 } });
  const lane: Lane = { name: "paced 1", runs: 10, appends: 100, batch: () => 1, target: 8 };
  try {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const info: unknown = await admin.sendCommand(["INFO", "replication"]);
      if (typeof info === "string" && info.includes("connected_slaves:1") && info.includes("state=online")) break;
      if (Date.now() > deadline) throw new Error("redisCost: the replica did not come online within 10 s");
    }
    const off: LaneResult[] = [];
    const on: LaneResult[] = [];
    for (let rep = 0; rep < REPETITIONS; rep++) {
      off.push(await runLane(lane, plain, admin, prefix, `off-${rep}`));
      on.push(await runLane(lane, waiting, admin, prefix, `on-${rep}`));
    }
    const ms = (results: LaneResult[]) => median(results.map((r) => r.msPerAppend));
    const us = (results: LaneResult[]) => median(results.map((r) => r.usPerEvent));
    printTable(
      "replicas: { count: 1 } (WAIT after each append) against no WAIT, one primary + one replica on loopback, 1 event per append, 10 runs, median of 7 interleaved",
      [
        ["store", "producer ms per append (each run's appends in sequence)", "Redis µs per event"],
        ["no WAIT", fmt(ms(off), 3), fmt(us(off), 2)],
        ["replicas: 1", fmt(ms(on), 3), fmt(us(on), 2)],
        ["ratio", `${fmt(ms(on) / ms(off))}×`, `${fmt(us(on) / us(off))}×`],
      ],
    );
  } finally {
    await waiting.close();
    await plain.close();
    await client.close();
    await admin.close();
    await replica.stop();
    await primary.stop();
  }
}
