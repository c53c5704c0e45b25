/**
 * The HTTP server with and without a thread store (docs/durability.md#stores-and-routes), over real
 * loopback HTTP: `createHandler` → `agui-rx/node` → SSE → a reading client that counts frames.
 *
 * - **Throughput**: events/s of an Agent streaming text deltas (awaiting `ctx.ready()` before
 *   each, as a model loop does) to a client reading as fast as it can: without a store (the
 *   baseline) and with every store in `STORE_VARIANTS`, measured in alternation in one run, the
 *   ratio printed. Target: `memoryStore()` costs at most 20% (ratio ≥ 0.80).
 * - **Connect latency** on a thread of 1,000 messages (500 runs of a question and an answer, each
 *   input carrying the history so far, as a client's does): `POST {url}/connect` without a cursor
 *   → its first event, and → the last event of the prelude (RUN_STARTED, MESSAGES_SNAPSHOT,
 *   STATE_SNAPSHOT, then RUN_FINISHED for an idle thread or the re-opened message of a run in
 *   flight), p50/p99 over repeated connects.
 * - **Reconnect latency**: an `HttpTransport` whose run answer is cut after 200 frames (a reset
 *   connection) → the first replayed event, through its own reconnect (`POST {url}/connect` with
 *   `Last-Event-ID`), with no backoff (the default backoff adds 250–500 ms before the first
 *   attempt), p50/p99.
 *
 * - **Encode + verify** (`bench/support/encodeVerifyLanes.ts`): the per-event path of `RunCore.write`
 *   (strict checked step, then the SSE frame's bytes) against a hand loop over the official
 *   `EventEncoder`, in process. Target: ≥ 1.5× its events/s.
 *
 * A store is added to every table by one entry in `STORE_VARIANTS` (see `StoreVariant`).
 */
import { filter, firstValueFrom, map, timeout } from "rxjs";
import { runAgentInput } from "../../src/protocol/build";
import type { Event } from "../../src/protocol/events";
import type { Message } from "../../src/protocol/messages";
import { serve, type Served } from "../../src/node/serve";
import { success, type Agent } from "../../src/server/Agent";
import { createHandler } from "../../src/server/http/createHandler";
import { memoryStore } from "../../src/server/store/memory/memoryStore";
import type { ThreadStore } from "../../src/server/store/ThreadStore";
import { HttpTransport } from "../../src/client/transports/HttpTransport";
import { isConnectionNotice } from "../../src/client/transports/ConnectionNotice";
import { collectGarbage } from "../support/measure";
import { checkPrelude, firstEvents, readEvents } from "../support/answerChecks";
import { cuttingFetch } from "../../test/support/sseFrames";
import { postSse, quantile, readAll, timeFrames } from "../support/sseReading";
import { fmt, printTable } from "../support/table";
import { benchRedis } from "../../test/redis/support/redisServer";
import { redisStoreFactory, type BenchStore } from "./serverRedis";
import { measureEncodeVerify } from "../support/encodeVerifyLanes";
import { printTargets, recordTarget } from "../support/targets";

/** A store backend ready for the suite: fresh stores on demand, and how to let it all go. */
export interface StoreBackend {
  /** A fresh, empty store (each measurement gets its own, so history and eviction do not carry over). */
  readonly open: () => Promise<ThreadStore>;
  /** Releases the backend and every store it opened (clients, servers). */
  readonly close: () => Promise<void>;
}

/** One store the suite measures beside the no-store baseline. */
export interface StoreVariant {
  /** Its name in the tables, e.g. `memoryStore()`. */
  readonly name: string;
  /** The least events/s it must reach, as a multiple of the no-store baseline's (checked in the targets table), if it has a target. */
  readonly targetRatio?: number;
  /** Called once per suite run: the backend, or why the variant cannot run here (printed, the rest goes on). */
  readonly setUp: () => Promise<StoreBackend | { readonly skipped: string }>;
}

/**
 * The stores measured, in table order. To add one (a Redis store, say), add an entry whose
 * `setUp` starts or reaches the backend and returns `{ open, close }` (or `{ skipped }`).
 */
export const STORE_VARIANTS: readonly StoreVariant[] = [
  {
    name: "memoryStore()",
    targetRatio: 0.8, // the memory store costs at most 20%
    setUp: async () => ({ open: async () => memoryStore({ maxBytes: 1024 * 1024 * 1024, maxThreads: 10_000 }), close: async () => undefined }),
  },
  {
    // REDIS_URL, or a redis-server of its own (no persistence); skipped when neither can be had.
    // The per-process target is absolute (≥ 20,000 events/s, checked in serverRedis), not a ratio.
    name: "redisStore()",
    setUp: async () => {
      const redis = await benchRedis();
      if ("skipped" in redis) return redis;
      const opened: BenchStore[] = [];
      return {
        open: async () => {
          // A prefix per store: each measurement starts from an empty keyspace of its own.
          const instance = await redisStoreFactory(redis.url, `bench-server:${process.pid}:${opened.length}:`).create();
          opened.push(instance);
          return instance.store;
        },
        close: async () => {
          for (const instance of opened.splice(0)) await instance.close();
          await redis.stop();
        },
      };
    },
  },
];

interface ThroughputCase {
  readonly name: string;
  readonly runs: number;
  readonly deltas: number;
}

const THROUGHPUT_CASES: readonly ThroughputCase[] = [
  { name: "1 run", runs: 1, deltas: 50_000 },
  { name: "20 runs", runs: 20, deltas: 5_000 },
];
/** Measurements per case and configuration, in alternation; the median is reported. */
const ROUNDS = 5;
const HISTORY_RUNS = 500;
const CONNECTS = 200;
const RECONNECTS = 100;
/** Frames a reconnecting client reads before its connection is cut. */
const CUT_AFTER = 200;

const TOKENS = [" The", " quick", " brown", " fox", " jumps", " over", " the", " lazy", " dog", "."];

/** Streams `deltas` text deltas in one message, awaiting the reader before each (a paced model loop). */
function streaming(deltas: number): Agent {
  return {
    async run(ctx) {
      const message = ctx.assistantMessage();
      for (let i = 0; i < deltas; i++) {
        await ctx.ready();
        message.delta(TOKENS[i % TOKENS.length]);
      }
      message.end();
      return success();
    },
  };
}

async function served(agent: Agent, store: ThreadStore | undefined): Promise<Served & { readonly agentUrl: string }> {
  const server = await serve(createHandler(agent, store === undefined ? {} : { store }));
  return { ...server, agentUrl: `${server.url}agent` };
}

/**
 * Before a configuration's time counts: one run of the case read whole and decoded must be exactly
 * what `streaming` writes (RUN_STARTED, one message of the TOKENS in turn, RUN_FINISHED).
 */
async function checkAnswer(c: ThroughputCase, store: ThreadStore | undefined, label: string): Promise<void> {
  const server = await served(streaming(c.deltas), store);
  try {
    const events = await readEvents(
      await postSse(server.agentUrl, runAgentInput(`check-${label}`, "r1", { messages: [{ id: "u1", role: "user", content: "go" }] })),
    );
    const types = events.map((event) => event.type);
    const text = events.map((event) => (event.type === "TEXT_MESSAGE_CONTENT" ? event.delta : "")).join("");
    const expectedText = Array.from({ length: c.deltas }, (_, i) => TOKENS[i % TOKENS.length]).join("");
    const shape = [types[0], types[1], types[types.length - 2], types[types.length - 1]].join(",");
    if (events.length !== c.deltas + 4 || shape !== "RUN_STARTED,TEXT_MESSAGE_START,TEXT_MESSAGE_END,RUN_FINISHED" || text !== expectedText) {
      throw new Error(
        `${c.name} with ${label}: expected ${c.deltas + 4} events (RUN_STARTED, TEXT_MESSAGE_START, ${c.deltas} deltas of ${expectedText.length} characters, TEXT_MESSAGE_END, RUN_FINISHED), but got ${events.length} (${shape}, ${text.length} characters)`,
      );
    }
  } finally {
    await server.close();
  }
}

/** One measurement: `c.runs` concurrent runs read to their end; events/s over all of them (each answer's frames counted and checked). */
async function throughputOnce(c: ThroughputCase, store: ThreadStore | undefined, round: number): Promise<number> {
  const server = await served(streaming(c.deltas), store);
  try {
    collectGarbage();
    const start = performance.now();
    const answers = await Promise.all(
      Array.from({ length: c.runs }, (_, r) =>
        postSse(server.agentUrl, runAgentInput(`tp-${round}-${r}`, "r1", { messages: [{ id: "u1", role: "user", content: "go" }] })).then(readAll),
      ),
    );
    const seconds = (performance.now() - start) / 1000;
    const frames = answers.reduce((sum, answer) => sum + answer.frames, 0);
    const expected = c.runs * (c.deltas + 4); // RUN_STARTED, TEXT_MESSAGE_START, the deltas, TEXT_MESSAGE_END, RUN_FINISHED
    if (frames !== expected) throw new Error(`expected ${expected} frames, but the client read ${frames}`);
    return frames / seconds;
  } finally {
    await server.close();
  }
}

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

interface Prepared {
  readonly variant: StoreVariant;
  readonly backend: StoreBackend;
}

async function throughput(prepared: readonly Prepared[]): Promise<void> {
  const rows: string[][] = [["case", "events", "no store ev/s", ...prepared.flatMap(({ variant }) => [`${variant.name} ev/s`, "× no store"])]];
  const targets: string[][] = [["target", "measured", "ok"]];
  for (const c of THROUGHPUT_CASES) {
    await checkAnswer(c, undefined, "no store");
    for (const { variant, backend } of prepared) await checkAnswer(c, await backend.open(), variant.name);
    const baseline: number[] = [];
    const stored = prepared.map((): number[] => []);
    for (let round = 0; round < ROUNDS; round++) {
      // Alternate the order, so load from other processes and warm-up hit every configuration alike.
      const order = round % 2 === 0 ? [-1, ...prepared.keys()] : [...prepared.keys(), -1];
      for (const which of order) {
        if (which === -1) baseline.push(await throughputOnce(c, undefined, round));
        else stored[which].push(await throughputOnce(c, await prepared[which].backend.open(), round));
      }
    }
    const base = median(baseline);
    const cells = stored.flatMap((rates) => [fmt(median(rates)), `${fmt(median(rates) / base)}×`]);
    rows.push([c.name, fmt(c.runs * (c.deltas + 4)), fmt(base), ...cells]);
    prepared.forEach(({ variant }, i) => {
      if (variant.targetRatio === undefined) return;
      const ratio = median(stored[i]) / base;
      const cost = Math.round((1 - variant.targetRatio) * 100);
      const target = recordTarget(
        "server",
        `${c.name}: ${variant.name} costs ≤ ${cost}% (≥ ${variant.targetRatio}× no store)`,
        `${fmt(ratio)}×`,
        ratio >= variant.targetRatio,
      );
      targets.push([target.target, target.measured, target.met ? "yes" : "NO"]);
    });
  }
  printTable(`createHandler → SSE over loopback HTTP → a client counting frames: events/s, median of ${ROUNDS} in alternation (higher is better)`, rows);
  if (targets.length > 1) printTable("server targets", targets);
}

/** Answers in 8 deltas (about 300 characters); the run `live` first writes a delta and waits for `released`. */
function answering(released: Promise<void>): Agent {
  return {
    async run(ctx) {
      const message = ctx.assistantMessage();
      if (ctx.runId === "live") {
        message.delta("Thinking about it");
        await released;
      }
      for (let i = 0; i < 8; i++) message.delta(` part ${i} of an answer of ordinary length,`);
      message.end();
      return success();
    },
  };
}

/** Builds a thread of `HISTORY_RUNS` question/answer runs through HTTP, each input carrying the history so far; returns its message count. */
async function buildThread(url: string, threadId: string): Promise<number> {
  let history: Message[] = [];
  for (let n = 0; n < HISTORY_RUNS; n++) {
    const asked: Message = { id: `q-${n}`, role: "user", content: `Question ${n}: how does the plan for the next quarter change if the budget moves?` };
    const input = runAgentInput(threadId, `r${n}`, { messages: [...history, asked] });
    const events = await readEvents(await postSse(url, input));
    const started = events.find((event) => event.type === "TEXT_MESSAGE_START");
    if (started?.type !== "TEXT_MESSAGE_START" || events[events.length - 1].type !== "RUN_FINISHED")
      throw new Error(`run ${n} of the history did not answer: ${JSON.stringify(events)}`);
    const content = events.map((event) => (event.type === "TEXT_MESSAGE_CONTENT" ? event.delta : "")).join("");
    history = [...input.messages, { id: started.messageId, role: "assistant", content }];
  }
  const prelude = await readEvents(await postSse(`${url}/connect`, { threadId }));
  const snapshot = prelude.find((event) => event.type === "MESSAGES_SNAPSHOT");
  if (snapshot?.type !== "MESSAGES_SNAPSHOT" || snapshot.messages.length !== history.length)
    throw new Error(`expected the thread to hold ${history.length} messages`);
  return snapshot.messages.length;
}

async function connectLatency(prepared: readonly Prepared[]): Promise<void> {
  const rows: string[][] = [["store", "thread", "prelude", "→ first event p50 ms", "p99 ms", "→ last prelude event p50 ms", "p99 ms"]];
  for (const { variant, backend } of prepared) {
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    const server = await served(answering(released), await backend.open());
    try {
      const threadId = "history";
      const messages = await buildThread(server.agentUrl, threadId);
      const measure = async (what: string, expectedMessages: number, fourth: Event["type"]) => {
        checkPrelude(`${variant.name}, ${what}`, await firstEvents(await postSse(`${server.agentUrl}/connect`, { threadId }), 4), expectedMessages, fourth);
        const first: number[] = [];
        const last: number[] = [];
        let bytes = 0;
        for (let i = 0; i < CONNECTS; i++) {
          const start = performance.now();
          const times = await timeFrames(await postSse(`${server.agentUrl}/connect`, { threadId }), 4);
          first.push(times.first - start);
          last.push(times.last - start);
          bytes = times.bytes;
        }
        rows.push([
          variant.name,
          `${fmt(messages)} messages, ${what}`,
          `${fmt(bytes / 1024, 0)} kB`,
          fmt(quantile(first, 0.5)),
          fmt(quantile(first, 0.99)),
          fmt(quantile(last, 0.5)),
          fmt(quantile(last, 0.99)),
        ]);
      };
      await measure("idle", messages, "RUN_FINISHED");
      // A run in flight: its prelude re-opens the message it is writing; the connect is cut after it.
      const live = await postSse(server.agentUrl, runAgentInput(threadId, "live", { messages: [{ id: "q-live", role: "user", content: "One more?" }] }));
      const reader = live.body?.getReader();
      await reader?.read();
      // The live run's question and its answer so far ("Thinking about it") joined the thread.
      await measure("run in flight", messages + 2, "TEXT_MESSAGE_START");
      release();
      await reader?.cancel();
    } finally {
      release();
      await server.close();
    }
  }
  printTable(
    `POST {url}/connect without a cursor on a thread of ${HISTORY_RUNS} runs (a question and an answer each), ${CONNECTS} connects one after another`,
    rows,
  );
}

/** Writes `burst` deltas at once, then waits for `released` before it ends. */
function bursting(burst: number, released: () => Promise<void>): Agent {
  return {
    async run(ctx) {
      const message = ctx.assistantMessage();
      for (let i = 0; i < burst; i++) message.delta(TOKENS[i % TOKENS.length]);
      await released();
      message.end();
      return success();
    },
  };
}

async function reconnectLatency(prepared: readonly Prepared[]): Promise<void> {
  const rows: string[][] = [["store", "reconnects", "cut → first replayed event p50 ms", "p99 ms"]];
  for (const { variant, backend } of prepared) {
    let release: () => void = () => undefined;
    const server = await served(
      bursting(400, () => new Promise<void>((resolve) => (release = resolve))),
      await backend.open(),
    );
    try {
      const latencies: number[] = [];
      for (let i = 0; i < RECONNECTS; i++) {
        const cutting = cuttingFetch(CUT_AFTER);
        const transport = new HttpTransport(server.agentUrl, { fetch: cutting.fetch, reconnect: { delay: () => [0] } });
        let reconnecting = false;
        const replayed = await firstValueFrom(
          transport.run(runAgentInput(`cut-${i}`, "r1", { messages: [{ id: "u1", role: "user", content: "go" }] }), { connection: true }).pipe(
            filter((item) => {
              if (isConnectionNotice(item)) reconnecting ||= item.status === "reconnecting";
              return reconnecting && !isConnectionNotice(item) && "type" in item;
            }),
            map((item) => {
              // The cursor is in the log, so the answer continues the run right after the 200 frames
              // delivered (RUN_STARTED, TEXT_MESSAGE_START, 198 deltas): the 199th delta comes next.
              const expected = TOKENS[(CUT_AFTER - 2) % TOKENS.length];
              if (!("type" in item) || item.type !== "TEXT_MESSAGE_CONTENT" || item.delta !== expected) {
                throw new Error(
                  `reconnect ${i}: expected the delta ${JSON.stringify(expected)} right after the cursor, but got ${JSON.stringify(item).slice(0, 120)}`,
                );
              }
              return performance.now();
            }),
            timeout({ first: 10_000, with: () => Promise.reject(new Error(`reconnect ${i}: no replayed event within 10 s`)) }),
          ),
        );
        latencies.push(replayed - cutting.cutAt());
        release();
      }
      rows.push([variant.name, String(RECONNECTS), fmt(quantile(latencies, 0.5)), fmt(quantile(latencies, 0.99))]);
    } finally {
      release();
      await server.close();
    }
  }
  printTable(
    "HttpTransport cut after 200 frames of a run (a reset connection) → its first replayed event (POST {url}/connect, Last-Event-ID, no backoff)",
    rows,
  );
}

export default async function run(): Promise<void> {
  measureEncodeVerify("server");
  printTargets("server targets (in process)", "server");
  const prepared: Prepared[] = [];
  for (const variant of STORE_VARIANTS) {
    const backend = await variant.setUp();
    if ("skipped" in backend) console.log(`\n${variant.name} is SKIPPED: ${backend.skipped}`);
    else prepared.push({ variant, backend });
  }
  try {
    await throughput(prepared);
    await connectLatency(prepared);
    await reconnectLatency(prepared);
  } finally {
    for (const { backend } of prepared) await backend.close();
  }
}
