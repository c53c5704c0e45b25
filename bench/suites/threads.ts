/**
 * Server-owned threads (docs/threads.md), on `memoryStore()` and on `redisStore()` over a real
 * redis-server, every request through `createHandler` in this process (the route, `identify`, the
 * store; no socket, so the figures are the server's own):
 *
 * - `list`: `GET {url}/threads?limit=20` for one principal with 10,000 threads, paging from the
 *   first page through cursors; p50 and p99 per request. Targets: p99 ≤ 50 ms (memory), ≤ 100 ms (Redis).
 * - `connect`: `POST {url}/connect` with `limit: 50` on a 100,000-message thread against the same
 *   on a 50-message thread, alternated, the median of the per-pair ratios. Target: ≤ 1.5.
 * - `live`: the same read at the store while a run is live on both threads (a text message and a
 *   tool call under way). Target: ≤ 1.5.
 * - `history`: `POST {url}/history` for 50 messages in the middle of the 100,000; p50 and p99.
 * - `authority`: starting a run (the whole request: read, reconcile, begin, the run's end) on a
 *   1,000-message thread with `history: "server"` (the post carries only the new message) against
 *   `history: "client"` (the post carries all 1,001), alternated; and the reads of the whole
 *   thread per run, counted (target: one), beside the bounded ones (the drain's look at a run's end).
 *
 * Each lane checks what it got before its time counts (the page's size and order, the prelude's
 * last 50 messages, the page's ids, the run's 200 and its RUN_FINISHED): a lane that built nothing
 * throws and the bench exits non-zero.
 */
import { of } from "rxjs";
import { ev, runAgentInput } from "../../src/protocol/build";
import type { Message } from "../../src/protocol/messages";
import { createHandler } from "../../src/server/http/createHandler";
import type { FetchHandler, RunFunction } from "../../src/server/http/HandlerOptions";
import { memoryStore } from "../../src/server/store/memory/memoryStore";
import type { ThreadStore } from "../../src/server/store/ThreadStore";
import { withBenchRedisStore } from "../support/benchRedisStore";
import { alternate, median, percentile } from "../support/pairs";
import { okText, post } from "../support/inProcessRequests";
import { fmt, printTable } from "../support/table";

const OWNER = "bench-owner";
const LIST_THREADS = 10_000;
const LONG_THREAD = 100_000;
const LIMIT = 50;
const AUTHORITY_THREAD = 1_000;

/** A run that answers at once: the lanes time the server's handling of the thread, not a model. */
const answer: RunFunction = (input) => of(ev.runStarted(input.threadId, input.runId), ev.runFinished(input.threadId, input.runId));

const user = (id: string, content: string): Message => ({ id, role: "user", content });

function handlerFor(store: ThreadStore, history: "server" | "client" = "server"): FetchHandler {
  return createHandler(answer, { store, identify: () => OWNER, history, maxPageSize: 1_000 });
}

/** The `data:` JSON of each SSE frame of a body. */
function frames(body: string): Record<string, unknown>[] {
  return body
    .split("\n\n")
    .flatMap((frame) => frame.split("\n").filter((line) => line.startsWith("data:")))
    .map((line) => JSON.parse(line.slice(5)) as Record<string, unknown>); // bench input: our own server's frames
}

/** Stores `count` finished threads for the owner, `parallel` at a time (each: one user message, one run). */
async function fillThreads(store: ThreadStore, count: number, parallel: number): Promise<void> {
  for (let start = 0; start < count; start += parallel) {
    await Promise.all(
      Array.from({ length: Math.min(parallel, count - start) }, async (_, offset) => {
        const threadId = `list-${start + offset}`;
        const writer = await store.beginRun(runAgentInput(threadId, "r1", { messages: [user("u1", `question ${start + offset}`)] }), { owner: OWNER });
        await writer.append([ev.runFinished(threadId, "r1")]);
      }),
    );
  }
}

async function longThread(store: ThreadStore, threadId: string, length: number): Promise<void> {
  const messages = Array.from({ length }, (_, index) => user(`m${index}`, `message ${index}`));
  const writer = await store.beginRun(runAgentInput(threadId, "r1", { messages }), { owner: OWNER });
  await writer.append([ev.runFinished(threadId, "r1")]);
}

interface Latency {
  readonly p50: number;
  readonly p99: number;
  readonly requests: number;
}

async function listLane(handler: FetchHandler): Promise<Latency> {
  const times: number[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  let previous = Infinity;
  // Page through all 10,000 threads 20 at a time, twice: 1,000 requests.
  for (let round = 0; round < 2; round++) {
    seen.clear();
    do {
      const query = cursor === undefined ? "?limit=20" : `?limit=20&cursor=${encodeURIComponent(cursor)}`;
      const started = performance.now();
      const response = await handler(new Request(`http://bench.local/agent/threads${query}`));
      const page = JSON.parse(await okText(response, "list")) as { threads: { threadId: string; updatedAt: number }[]; next?: string }; // our own route's JSON
      times.push(performance.now() - started);
      for (const row of page.threads) {
        if (seen.has(row.threadId) || row.updatedAt > previous) throw new Error(`list: ${row.threadId} repeated or out of order`);
        seen.add(row.threadId);
        previous = row.updatedAt;
      }
      cursor = page.next;
    } while (cursor !== undefined);
    if (seen.size !== LIST_THREADS) throw new Error(`list: expected ${LIST_THREADS} threads over the pages, but got ${seen.size}`);
    previous = Infinity;
  }
  return { p50: median(times), p99: percentile(times, 99), requests: times.length };
}

async function connectOnce(handler: FetchHandler, threadId: string, length: number): Promise<number> {
  const started = performance.now();
  const body = await okText(await handler(post("/connect", { threadId, limit: LIMIT })), "connect");
  const took = performance.now() - started;
  const snapshot = frames(body).find((frame) => frame.type === "MESSAGES_SNAPSHOT");
  const ids = (snapshot?.messages as { id: string }[] | undefined)?.map((message) => message.id) ?? [];
  if (ids.length !== LIMIT || ids[LIMIT - 1] !== `m${length - 1}`)
    throw new Error(`connect: expected the last ${LIMIT} messages, but got ${ids.length} ending ${String(ids.at(-1))}`);
  return took;
}

async function connectLane(handler: FetchHandler): Promise<{ long: number; short: number; ratio: number }> {
  await connectOnce(handler, "long", LONG_THREAD); // warm-up, checked
  await connectOnce(handler, "short", LIMIT);
  const { first, second, ratio } = await alternate(
    41,
    () => connectOnce(handler, "long", LONG_THREAD),
    () => connectOnce(handler, "short", LIMIT),
  );
  return { long: first, short: second, ratio };
}

async function historyLane(handler: FetchHandler): Promise<Latency> {
  const times: number[] = [];
  for (let request = 0; request < 200; request++) {
    const before = 10_000 + request * 400;
    const started = performance.now();
    const page = JSON.parse(await okText(await handler(post("/history", { threadId: "long", before: `m${before}`, limit: LIMIT })), "history")) as {
      messages: { id: string }[];
    }; // our own route's JSON
    times.push(performance.now() - started);
    if (page.messages.length !== LIMIT || page.messages[0].id !== `m${before - LIMIT}`) throw new Error(`history: unexpected page before m${before}`);
  }
  return { p50: median(times), p99: percentile(times, 99), requests: times.length };
}

/**
 * Counts `read` calls, for the authority lane's "one read per run": reads of the whole thread
 * apart from reads with a `limit` (the drain's look at a run's end, whose cost does not grow with
 * the thread).
 */
function countingReads(store: ThreadStore): { store: ThreadStore; reads: () => { whole: number; bounded: number } } {
  let whole = 0;
  let bounded = 0;
  const counted: ThreadStore = Object.create(store) as ThreadStore; // every other member from the store itself
  counted.read = (threadId, after, options) => {
    if (options?.limit === undefined) whole++;
    else bounded++;
    return store.read(threadId, after, options);
  };
  return { store: counted, reads: () => ({ whole, bounded }) };
}

async function authorityLane(store: ThreadStore): Promise<{ server: number; client: number; ratio: number; readsPerRun: number; boundedReadsPerRun: number }> {
  const path = Array.from({ length: AUTHORITY_THREAD }, (_, index) => user(`m${index}`, `message ${index}`));
  const counted = countingReads(store);
  const owning = handlerFor(counted.store, "server");
  const trusting = handlerFor(store, "client");
  await longThread(store, "authority-server", AUTHORITY_THREAD);
  await longThread(store, "authority-client", AUTHORITY_THREAD);
  const posted = { server: [...path], client: [...path] };
  let run = 1;
  const start = async (handler: FetchHandler, mode: "server" | "client"): Promise<number> => {
    run++;
    const message = user(`new-${run}`, `turn ${run}`);
    posted[mode].push(message);
    const threadId = `authority-${mode}`;
    const messages = mode === "server" ? [message] : posted[mode];
    const started = performance.now();
    const body = await okText(await handler(post("", runAgentInput(threadId, `r${run}`, { messages }))), `run (${mode})`);
    const took = performance.now() - started;
    if (!body.includes('"RUN_FINISHED"')) throw new Error(`run (${mode}): no RUN_FINISHED`);
    return took;
  };
  const readsBefore = counted.reads();
  const { first, second, ratio } = await alternate(
    31,
    () => start(owning, "server"),
    () => start(trusting, "client"),
  );
  const readsAfter = counted.reads();
  return {
    server: first,
    client: second,
    ratio,
    readsPerRun: (readsAfter.whole - readsBefore.whole) / 31,
    boundedReadsPerRun: (readsAfter.bounded - readsBefore.bounded) / 31,
  };
}

/**
 * A read with `limit: 50` while a run is live on the thread (a text message under way and a tool
 * call it started), 100,000 messages against 50, alternated: the path a page takes when it joins
 * a thread mid-answer (its connect answer then tails the run, so the read is timed at the store).
 */
async function liveLane(store: ThreadStore): Promise<{ long: number; short: number; ratio: number }> {
  const writers = await Promise.all(
    (["long", "short"] as const).map(async (threadId) => {
      const writer = await store.beginRun(runAgentInput(threadId, "live-run"), { owner: OWNER });
      await writer.append([
        ev.textMessageStart("live"),
        ev.textMessageContent("live", "so far"),
        ev.toolCallStart("tc-live", "search", { parentMessageId: "live" }),
        ev.toolCallArgs("tc-live", "{}"),
        ev.toolCallEnd("tc-live"),
      ]);
      return writer;
    }),
  );
  const readOnce = async (threadId: string): Promise<number> => {
    const started = performance.now();
    const read = await store.read(threadId, undefined, { owner: OWNER, limit: LIMIT });
    const took = performance.now() - started;
    const messages = read?.kind === "snapshot" ? read.snapshot.messages : [];
    const last = messages.at(-1);
    if (messages.length !== LIMIT || last?.id !== "live" || last.role !== "assistant" || last.toolCalls?.[0]?.id !== "tc-live") {
      throw new Error(`live read of ${threadId}: expected the last ${LIMIT} messages ending with the live one and its tool call`);
    }
    return took;
  };
  await readOnce("long");
  await readOnce("short");
  const { first, second, ratio } = await alternate(
    41,
    () => readOnce("long"),
    () => readOnce("short"),
  );
  await Promise.all(writers.map((writer) => writer.append([ev.runFinished(writer.threadId, "live-run")])));
  return { long: first, short: second, ratio };
}

async function lanes(name: string, store: ThreadStore, fillParallel: number): Promise<string[][]> {
  const handler = handlerFor(store);
  await fillThreads(store, LIST_THREADS, fillParallel);
  const list = await listLane(handler);
  await longThread(store, "long", LONG_THREAD);
  await longThread(store, "short", LIMIT);
  const connect = await connectLane(handler);
  const live = await liveLane(store);
  const history = await historyLane(handler);
  const authority = await authorityLane(store);
  const listTarget = name === "memory" ? 50 : 100;
  return [
    [
      name,
      "list (10,000 threads, 20 per page)",
      `p50 ${fmt(list.p50)} ms, p99 ${fmt(list.p99)} ms (${list.requests} requests)`,
      `p99 ≤ ${listTarget} ms: ${list.p99 <= listTarget ? "yes" : "no"}`,
    ],
    [
      name,
      `connect limit ${LIMIT}: 100,000 vs 50 messages`,
      `${fmt(connect.long)} ms vs ${fmt(connect.short)} ms, ratio ${fmt(connect.ratio)}`,
      `≤ 1.5: ${connect.ratio <= 1.5 ? "yes" : "no"}`,
    ],
    [
      name,
      `read limit ${LIMIT} during a live run: 100,000 vs 50 messages`,
      `${fmt(live.long)} ms vs ${fmt(live.short)} ms, ratio ${fmt(live.ratio)}`,
      `≤ 1.5: ${live.ratio <= 1.5 ? "yes" : "no"}`,
    ],
    [name, `history page of ${LIMIT}`, `p50 ${fmt(history.p50)} ms, p99 ${fmt(history.p99)} ms`, ""],
    [
      name,
      `run start on ${AUTHORITY_THREAD} messages: server-owned vs client history`,
      `${fmt(authority.server)} ms vs ${fmt(authority.client)} ms, ratio ${fmt(authority.ratio)}; reads of the whole thread per run ${fmt(authority.readsPerRun)}, bounded (limit 1) ${fmt(authority.boundedReadsPerRun)}`,
      `one read of the whole thread: ${authority.readsPerRun === 1 ? "yes" : "no"}`,
    ],
  ];
}

export default async function threads(): Promise<void> {
  const rows: string[][] = [];
  rows.push(...(await lanes("memory", memoryStore({ maxThreads: 20_000, maxBytes: 2 * 1024 * 1024 * 1024 }), 1_000)));
  await withBenchRedisStore("threads", async (store) => {
    rows.push(...(await lanes("redis", store, 200)));
  });
  printTable("server-owned threads", [["store", "lane", "measured", "target"], ...rows]);
}
