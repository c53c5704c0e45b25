/**
 * The server under load, run in its own Node process by the load suite (`npm run test:load`), so
 * its event-loop lag and heap are its own, not the test runner's or the clients'. Started with
 * `fork(…, { execArgv: ["--expose-gc", "-r", "ts-node/register/transpile-only"] })`; it listens on
 * 127.0.0.1, sends `{ url }` when ready, and answers IPC commands with figures (`LoadCommand`).
 *
 * Agents, chosen by the request path (query: `deltas`, `size`, `every`):
 * - `/paced`: `deltas` deltas of `size` bytes, awaiting `ctx.ready()` before each (a well-behaved model loop);
 * - `/unpaced`: the same without `ctx.ready()`, yielding a macrotask every `every` deltas (a
 *   model stream that ignores the client's pace);
 * - `/endless`: paced deltas until the run is aborted.
 */
import { monitorEventLoopDelay } from "node:perf_hooks";
import { getHeapStatistics } from "node:v8";
import { createHandler, run, sharedTurns, type Agent, type HandlerOptions } from "../../../src/server";
import { serve } from "../../../src/node/serve";

/** What the parent may ask. */
export type LoadCommand =
  | { readonly cmd: "stats" }
  | { readonly cmd: "reset" }
  | { readonly cmd: "gc" }
  /** Answers once `completed` runs have ended and none is live. */
  | { readonly cmd: "settled"; readonly completed: number };

/** The figures the server reports. */
export interface LoadStats {
  readonly started: number;
  readonly completed: number;
  /** Runs whose `ctx.signal` was aborted, by the reason's name (`AbortError`, `SlowConsumerError`). */
  readonly aborted: Readonly<Record<string, number>>;
  readonly live: number;
  readonly mostLive: number;
  /** Streams registered with the shared fair scheduler (0 when every response has ended). */
  readonly streams: number;
  /** Event-loop delay since the last reset, in ms. */
  readonly lag: { readonly p50: number; readonly p99: number; readonly max: number };
  /** Heap used now, and the most sampled (every 10 ms) since the last reset, in bytes. */
  readonly heapUsed: number;
  readonly heapPeak: number;
  /** Deltas written by every agent since the start. */
  readonly deltas: number;
  /** The largest abort message seen, for the report. */
  readonly lastAbortMessage?: string;
}

let started = 0;
let completed = 0;
let live = 0;
let mostLive = 0;
let deltas = 0;
let lastAbortMessage: string | undefined;
const aborted: Record<string, number> = {};
let heapPeak = 0;

const lag = monitorEventLoopDelay({ resolution: 5 });
lag.enable();
const heapUsed = (): number => getHeapStatistics().used_heap_size; // cheaper than process.memoryUsage(), sampled often
setInterval(() => {
  heapPeak = Math.max(heapPeak, heapUsed());
}, 10).unref();

function tracked(body: Agent["run"]): Agent {
  return {
    async run(ctx) {
      started++;
      live++;
      mostLive = Math.max(mostLive, live);
      try {
        return await body(ctx);
      } finally {
        live--;
        completed++;
        queueMicrotask(checkSettled);
        if (ctx.signal.aborted) {
          const reason: unknown = ctx.signal.reason;
          const name = reason instanceof Error || reason instanceof DOMException ? reason.name : typeof reason;
          aborted[name] = (aborted[name] ?? 0) + 1;
          if (reason instanceof Error) lastAbortMessage = reason.message;
        }
      }
    },
  };
}

function numberParam(url: URL, name: string, fallback: number): number {
  const value = Number(url.searchParams.get(name));
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

function agentFor(url: URL): Agent {
  const count = numberParam(url, "deltas", 1000);
  const text = "x".repeat(numberParam(url, "size", 20));
  const every = numberParam(url, "every", 100);
  switch (url.pathname) {
    case "/unpaced":
      return tracked(async (ctx) => {
        const message = ctx.assistantMessage();
        for (let i = 0; i < count; i++) {
          message.delta(text);
          deltas++;
          if (i % every === every - 1) await new Promise<void>((resolve) => setImmediate(resolve));
        }
        message.end();
      });
    case "/endless":
      return tracked(async (ctx) => {
        const message = ctx.assistantMessage();
        for (;;) {
          await ctx.ready();
          message.delta(text);
          deltas++;
        }
      });
    default:
      return tracked(async (ctx) => {
        const message = ctx.assistantMessage();
        for (let i = 0; i < count; i++) {
          await ctx.ready();
          message.delta(text);
          deltas++;
        }
        message.end();
      });
  }
}

/** `settled` commands waiting for their count of ended runs. */
let settledWaiters: { completed: number; answer: () => void }[] = [];
function checkSettled(): void {
  const due = settledWaiters.filter((waiter) => completed >= waiter.completed && live === 0);
  settledWaiters = settledWaiters.filter((waiter) => !due.includes(waiter));
  for (const waiter of due) waiter.answer();
}

function stats(): LoadStats {
  const ms = (ns: number) => Math.round((ns / 1e6) * 10) / 10;
  return {
    started,
    completed,
    aborted: { ...aborted },
    live,
    mostLive,
    streams: sharedTurns.streams,
    lag: { p50: ms(lag.percentile(50)), p99: ms(lag.percentile(99)), max: ms(lag.max) },
    heapUsed: heapUsed(),
    heapPeak,
    deltas,
    lastAbortMessage,
  };
}

function collectGarbage(): void {
  const gc = (globalThis as { gc?: () => void }).gc; // present under --expose-gc
  for (let i = 0; i < 3; i++) gc?.();
}

async function main(): Promise<void> {
  // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- options written by the test that starts this process
  const options: HandlerOptions = JSON.parse(process.argv[2] ?? "{}");
  const handler = createHandler((input, { request, ready, signal }) => run(agentFor(new URL(request.url)), input, { ready, signal }), options);
  const { url } = await serve(handler);
  process.on("message", (message: LoadCommand) => {
    if (message.cmd === "reset") {
      lag.reset();
      mostLive = live;
      collectGarbage();
      heapPeak = heapUsed();
    }
    if (message.cmd === "gc") collectGarbage();
    if (message.cmd === "settled") {
      settledWaiters.push({ completed: message.completed, answer: () => process.send?.({ reply: message.cmd, stats: stats() }) });
      checkSettled();
      return;
    }
    process.send?.({ reply: message.cmd, stats: stats() });
  });
  process.send?.({ url });
  process.on("SIGTERM", () => process.exit(0)); // exit normally: a --cpu-prof profile is written at exit
}

void main();
