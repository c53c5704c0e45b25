/**
 * Steering (docs/queue.md#steer): the latency from a steer's `POST {url}` (whileRunning `steer`,
 * real HTTP over loopback, `createHandler` and `serve`) to the live run's agent receiving it on
 * `ctx.incoming$`. The agent is blocked on `ctx.incoming$`; each steer is posted after the one
 * before was received, 20 warm-up steers then 200 timed ones:
 *
 * - `memory`: one instance on `memoryStore()`, the run and the steers on it. Target: p99 ≤ 50 ms.
 * - `redis, across instances`: two instances (two handlers, each its own `redisStore()` and client)
 *   on one redis-server; the run lives on B, the steers are posted to A, so each one crosses the
 *   store (A stores it, B's run hears of it). Target: p99 ≤ 100 ms.
 *
 * Each lane checks what it built before its figures count: each steer's own answer ends with the
 * `taken` notice naming the live run, the agent received exactly the text sent, and at the end the
 * thread holds every steer once, as a user message with its text, in the order sent. A lane that
 * built anything else throws and the bench exits non-zero.
 */
import { runAgentInput } from "../../src/protocol/build";
import type { Message, UserMessage } from "../../src/protocol/messages";
import { QUEUED_HEADER, whileRunningForwardedProps } from "../../src/protocol/queueMeta";
import { steerText } from "../../src/protocol/steerText";
import { serve, type Served } from "../../src/node/serve";
import type { Agent } from "../../src/server/Agent";
import { createHandler } from "../../src/server/http/createHandler";
import { memoryStore } from "../../src/server/store/memory/memoryStore";
import type { ThreadStore } from "../../src/server/store/ThreadStore";
import { withBenchRedisStores } from "../support/benchRedisStore";
import { median, percentile } from "../support/pairs";
import { postSse } from "../support/sseReading";
import { fmt, printTable } from "../support/table";

const OWNER = "bench-owner";
const WARM_UP = 20;
const STEERS = 200;
/** The text that ends the listening run. */
const END = "end";
/** How long one steer may take before the lane gives up (a lane that hangs is a failure, not a figure). */
const STEER_TIMEOUT_MS = 30_000;

/** What the agent noted of one steer: when it arrived (`performance.now()`) and its text. */
interface Receipt {
  readonly at: number;
  readonly text: string;
}

/** The live run's agent and the receipts it notes, by message id. */
class Listener {
  private readonly waiting = new Map<string, (receipt: Receipt) => void>();
  private readonly listening = new Map<string, () => void>();

  /** A run whose last user message is `listen` takes steers until `end`; any other run just answers. */
  readonly agent: Agent = {
    run: async (ctx) => {
      if (ctx.lastUserText() !== "listen") {
        ctx.say("ok");
        return;
      }
      await new Promise<void>((resolve, reject) => {
        ctx.incoming$.subscribe({
          next: (message: UserMessage) => {
            const at = performance.now();
            const text = steerText(message) ?? "";
            this.waiting.get(message.id)?.({ at, text });
            this.waiting.delete(message.id);
            if (text === END) resolve();
          },
          error: reject,
          complete: () => reject(new Error("the run stopped taking steers before the end")),
        });
        this.listening.get(ctx.runId)?.();
      });
      ctx.say("done");
    },
  };

  /** Resolves when the run `runId`'s agent has subscribed to its steers. */
  subscribed(runId: string): Promise<void> {
    return new Promise((resolve) => this.listening.set(runId, resolve));
  }

  /** Resolves with the receipt of message `id`. */
  receipt(id: string): Promise<Receipt> {
    return new Promise((resolve) => this.waiting.set(id, resolve));
  }
}

const user = (id: string, content: string): Message => ({ id, role: "user", content });

/** Rejects after `ms` with a message naming `what`; `clear()` cancels it. */
function deadline(ms: number, what: string): { readonly expired: Promise<never>; clear(): void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: nothing after ${ms} ms`)), ms);
  });
  return { expired, clear: () => clearTimeout(timer) };
}

/**
 * Posts steer `n` to `url` and resolves with the ms from the post to the agent's receipt, after
 * checking the receipt's text and that the steer's own answer ended `taken` by `liveRunId`.
 */
async function steerOnce(listener: Listener, url: string, threadId: string, liveRunId: string, n: number, text: string): Promise<number> {
  const runId = `s${n}`;
  const id = `u-${runId}`;
  const received = listener.receipt(id);
  const limit = deadline(STEER_TIMEOUT_MS, `steer ${n}`);
  try {
    const input = runAgentInput(threadId, runId, { messages: [user(id, text)], forwardedProps: whileRunningForwardedProps("steer") });
    const started = performance.now();
    const answer = postSse(`${url}agent`, input).then(async (response) => ({ response, body: await response.text() }));
    // An answer that ends before the receipt (refused, or run as its own run) must fail the lane, not hang it.
    const unanswered = answer.then(({ response, body }) => {
      throw new Error(`steer ${n}: the answer (${response.status}) ended before the agent received it: ${body.slice(0, 300)}`);
    });
    unanswered.catch(() => undefined); // it rejects after every receipt too: observed by the race only while it matters
    const receipt = await Promise.race([received, unanswered, limit.expired]);
    const took = receipt.at - started;
    if (receipt.text !== text) throw new Error(`steer ${n}: the agent received ${JSON.stringify(receipt.text)}, expected ${JSON.stringify(text)}`);
    const { response, body } = await Promise.race([answer, limit.expired]);
    if (response.headers.get(QUEUED_HEADER) !== runId) throw new Error(`steer ${n}: expected the header ${QUEUED_HEADER}: ${runId}`);
    if (!body.includes('"status":"taken"') || !body.includes(`"runId":"${liveRunId}"`))
      throw new Error(`steer ${n}: expected its answer to end taken by ${liveRunId}, but got ${body.slice(-300)}`);
    return took;
  } finally {
    limit.clear();
  }
}

/** Throws unless the thread holds each sent steer once, with its text, in the order sent. */
async function checkRecorded(
  store: ThreadStore,
  threadId: string,
  sent: readonly { readonly id: string; readonly text: string }[],
  lane: string,
): Promise<void> {
  const read = await store.read(threadId, undefined, { owner: OWNER, limit: sent.length + 10 });
  if (read?.kind !== "snapshot") throw new Error(`${lane}: expected the thread ${threadId}, but the store has none`);
  const steered = read.snapshot.messages.filter((message) => message.role === "user" && message.id.startsWith("u-s"));
  const got = steered.map((message) => `${message.id}=${typeof message.content === "string" ? message.content : "parts"}`);
  const expected = sent.map((steer) => `${steer.id}=${steer.text}`);
  if (got.join("\n") !== expected.join("\n")) {
    const first = expected.findIndex((entry, index) => got[index] !== entry);
    throw new Error(
      `${lane}: expected ${expected.length} steers recorded once in order, got ${got.length}; first difference at ${first}: ${got[first]} vs ${expected[first]}`,
    );
  }
}

/**
 * One lane: the live run posted to `runOn`, the steers to `steerTo` (the same instance on memory),
 * both serving stores that share the thread. Resolves with the timed latencies.
 */
async function lane(name: string, listener: Listener, runOn: { served: Served; store: ThreadStore }, steerTo: Served): Promise<number[]> {
  const threadId = `queue-${name}-${Date.now().toString(36)}`;
  const liveRunId = "live";
  const subscribed = listener.subscribed(liveRunId);
  const live = postSse(`${runOn.served.url}agent`, runAgentInput(threadId, liveRunId, { messages: [user("u-live", "listen")] }));
  const liveBody = live.then((response) => response.text());
  const endedEarly = liveBody.then((body) => Promise.reject(new Error(`${name}: the live run ended before listening: ${body.slice(0, 300)}`)));
  endedEarly.catch(() => undefined); // it rejects when the run ends at last too: observed by the race only while it matters
  await Promise.race([subscribed, endedEarly]);

  const sent: { id: string; text: string }[] = [];
  const times: number[] = [];
  for (let n = 0; n < WARM_UP + STEERS; n++) {
    const text = `steer ${n}: ${"x".repeat(n % 40)}`;
    const took = await steerOnce(listener, steerTo.url, threadId, liveRunId, n, text);
    sent.push({ id: `u-s${n}`, text });
    if (n >= WARM_UP) times.push(took);
  }
  const n = WARM_UP + STEERS;
  await steerOnce(listener, steerTo.url, threadId, liveRunId, n, END);
  sent.push({ id: `u-s${n}`, text: END });
  const body = await liveBody;
  if (!body.includes('"RUN_FINISHED"')) throw new Error(`${name}: the live run did not finish: ${body.slice(-300)}`);
  await checkRecorded(runOn.store, threadId, sent, name);
  return times;
}

function row(name: string, times: readonly number[], target: number): string[] {
  const p99 = percentile(times, 99);
  return [name, `${times.length}`, fmt(median(times)), fmt(p99), fmt(Math.max(...times)), `target p99 ≤ ${target} ms: ${p99 <= target ? "yes" : "no"}`];
}

export default async function queue(): Promise<void> {
  const header = ["lane", "steers", "p50 ms", "p99 ms", "max ms", "target"];
  const rows: string[][] = [header];
  const listener = new Listener();

  const store = memoryStore({ maxBytes: 256 * 1024 * 1024 });
  const served = await serve(createHandler(listener.agent, { store, identify: () => OWNER }));
  try {
    rows.push(row("memory (one instance)", await lane("memory", listener, { served, store }, served), 50));
  } finally {
    await served.close();
  }

  await withBenchRedisStores("queue", 2, async ([storeA, storeB]) => {
    const servedA = await serve(createHandler(listener.agent, { store: storeA, identify: () => OWNER }));
    const servedB = await serve(createHandler(listener.agent, { store: storeB, identify: () => OWNER }));
    try {
      rows.push(row("redis (run on B, steer to A)", await lane("redis", listener, { served: servedB, store: storeB }, servedA), 100));
    } finally {
      await servedA.close();
      await servedB.close();
    }
  });
  printTable("queue: steer POST → the agent's ctx.incoming$ (loopback HTTP)", rows);
}
