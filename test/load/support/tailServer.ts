/**
 * The server of the unread-tails scenario (`unreadTails.load.test.ts`), in its own Node process so
 * that its memory is its own: `createHandler` with a memory store, served by `agui-rx/node` on
 * 127.0.0.1. Started with `fork(…, [optionsJson], { execArgv: ["--expose-gc", …] })`; it sends
 * `{ url }` when it listens and answers IPC commands (`TailCommand`).
 *
 * The agent (query `deltas`, `size`, `every`) waits after its RUN_STARTED until the parent says
 * `go` for its thread, so that every tail can join the live run first; then it writes `deltas`
 * deltas of `size` bytes, awaiting `ctx.ready()` before each (paced by its own client, as a model
 * loop is), and, with `every` > 0, waits `every` ms after each tenth delta, as a model streaming at
 * its own speed does (so the run's time alone is the model's, as in issue #20's scenario, not the
 * CPU's).
 */
import { createHandler, memoryStore, run, sharedTurns, type Agent, type HandlerOptions } from "../../../src/server";
import { serve } from "../../../src/node/serve";

/** What the parent may ask. */
export type TailCommand =
  | { readonly cmd: "go"; readonly threadId: string }
  /** Collects garbage, then answers with `process.memoryUsage()`. */
  | { readonly cmd: "memory" };

/** The answer to `memory`: `process.memoryUsage()` after a full collection, the streams open, and the CPU time used so far. */

export interface TailMemory {
  readonly rss: number;
  readonly heapUsed: number;
  readonly external: number;
  readonly arrayBuffers: number;
  readonly streams: number;
  /** User + system CPU time of the process since it started, in ms (a figure a busy machine's scheduling does not inflate). */
  readonly cpuMs: number;
}

/** Threads whose run may start writing: opened by `go`, waited on by the agent. */
const gates = new Map<string, { opened: Promise<void>; open(): void }>();
function gateOf(threadId: string): { opened: Promise<void>; open(): void } {
  let gate = gates.get(threadId);
  if (gate === undefined) {
    let open: () => void = () => undefined;
    const opened = new Promise<void>((resolve) => (open = resolve));
    gate = { opened, open };
    gates.set(threadId, gate);
  }
  return gate;
}

function numberParam(url: URL, name: string, fallback: number): number {
  const value = Number(url.searchParams.get(name));
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

function agentFor(url: URL): Agent {
  const count = numberParam(url, "deltas", 6000);
  const text = "x".repeat(numberParam(url, "size", 1000));
  const every = Number(url.searchParams.get("every") ?? 0);
  return {
    async run(ctx) {
      await gateOf(ctx.threadId).opened;
      const message = ctx.assistantMessage();
      for (let i = 0; i < count; i++) {
        await ctx.ready();
        message.delta(text);
        if (every > 0 && i % 10 === 9) await new Promise<void>((resolve) => setTimeout(resolve, every));
      }
      message.end();
    },
  };
}

function collectGarbage(): void {
  const gc = (globalThis as { gc?: () => void }).gc; // present under --expose-gc
  for (let i = 0; i < 3; i++) gc?.();
}

async function main(): Promise<void> {
  // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- options written by the test that starts this process
  const options: HandlerOptions = JSON.parse(process.argv[2] ?? "{}");
  const store = memoryStore({ maxBytes: 256 * 1024 * 1024 });
  const handler = createHandler((input, { request, ready, signal }) => run(agentFor(new URL(request.url)), input, { ready, signal }), { ...options, store });
  const { url } = await serve(handler);
  process.on("message", (message: TailCommand) => {
    switch (message.cmd) {
      case "go":
        gateOf(message.threadId).open();
        process.send?.({ reply: "go" });
        return;
      case "memory": {
        const cpu = process.cpuUsage();
        collectGarbage();
        const usage = process.memoryUsage();
        const cpuMs = (cpu.user + cpu.system) / 1000;
        const answer: TailMemory = {
          rss: usage.rss,
          heapUsed: usage.heapUsed,
          external: usage.external,
          arrayBuffers: usage.arrayBuffers,
          streams: sharedTurns.streams,
          cpuMs,
        };
        process.send?.({ reply: "memory", memory: answer });
        return;
      }
      default: {
        const unexpected: never = message;
        throw new Error(`expected a TailCommand, but got ${JSON.stringify(unexpected)}`);
      }
    }
  });
  process.send?.({ url });
}

process.on("SIGTERM", () => process.exit(0)); // a normal exit, so that a --cpu-prof profile is written
void main();
