/**
 * Branches (docs/threads.md#the-tree), on `memoryStore()` and on `redisStore()` over a real
 * redis-server, every request through `createHandler` in this process (the route, `identify`, the
 * store; no socket):
 *
 * - `switch`: `POST {url}/threads/{id}/path` on a 1,000-message thread with 50 sibling groups (the
 *   thread's last 50 answers each regenerated once), showing the other sibling of the 25th group
 *   and back, alternately; p50 and p99 per switch. Targets: p99 ≤ 50 ms (memory), ≤ 100 ms (Redis).
 * - `switch, 10× thread`: the same switch on a 10,000-message thread with the same 50 groups,
 *   alternated with the 1,000-message one; the median of the per-pair ratios. Target: ≤ 1.5 (a
 *   switch moves what lies past its fork, never the whole thread).
 * - `run on a deep branch`: starting a run (read, reconcile, begin, the run's end; the post carries
 *   only its new message) on the branched 1,000-message thread against a linear thread of the same
 *   length, alternated; the median per-pair ratio (reported: what the tree adds to a run's start).
 *
 * Each lane checks what it got before its time counts (the switch's answer and the path it shows,
 * the run's 200 and its RUN_FINISHED): a lane that built nothing throws and the bench exits non-zero.
 */
import { of } from "rxjs";
import { forkForwardedProps } from "../../src/protocol/branchMeta";
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
const GROUPS = 50;
const SWITCHES = 200;

/** A run that answers at once with one text message `a-<runId>`: the lanes time the thread's handling, not a model. */
const answer: RunFunction = (input) =>
  of(
    ev.runStarted(input.threadId, input.runId),
    ev.textMessageStart(`a-${input.runId}`),
    ev.textMessageContent(`a-${input.runId}`, `answer of ${input.runId}`),
    ev.textMessageEnd(`a-${input.runId}`),
    ev.runFinished(input.threadId, input.runId),
  );

const user = (id: string, content: string): Message => ({ id, role: "user", content });

/**
 * A thread of `length` messages: a linear prefix logged by one run, then `groups` turns whose
 * answers are each regenerated once (so the path holds `groups` sibling groups of two), through
 * the handler as a client would. Resolves with the id of the shown answer of each group, in order.
 */
async function branchedThread(handler: FetchHandler, store: ThreadStore, threadId: string, length: number, groups: number): Promise<string[]> {
  const prefix = length - 2 * groups;
  const messages = Array.from({ length: prefix }, (_, index) => user(`${threadId}-m${index}`, `message ${index}`));
  const writer = await store.beginRun(runAgentInput(threadId, "prefix", { messages }), { owner: OWNER });
  await writer.append([ev.runFinished(threadId, "prefix")]);
  const shown: string[] = [];
  for (let turn = 0; turn < groups; turn++) {
    const question = user(`${threadId}-q${turn}`, `question ${turn}`);
    await okText(await handler(post("", runAgentInput(threadId, `${threadId}-t${turn}`, { messages: [question] }))), "turn");
    const again = runAgentInput(threadId, `${threadId}-g${turn}`, { messages: [], forwardedProps: forkForwardedProps(question.id) });
    await okText(await handler(post("", again)), "regenerate");
    shown.push(`a-${threadId}-g${turn}`);
  }
  return shown;
}

/** One switch of the 25th group to `index`, checked: the route's answer, then the path's message there. */
async function switchOnce(handler: FetchHandler, store: ThreadStore, threadId: string, messageId: string, index: number, expected: string): Promise<number> {
  const started = performance.now();
  const body = await okText(await handler(post(`/threads/${encodeURIComponent(threadId)}/path`, { messageId, index })), "switch");
  const took = performance.now() - started;
  if (body !== '{"result":"switched"}') throw new Error(`switch: expected {"result":"switched"}, but got ${body}`);
  const read = await store.read(threadId, undefined, { owner: OWNER, limit: 2 * GROUPS });
  const ids = read?.kind === "snapshot" ? read.snapshot.messages.map((message) => message.id) : [];
  if (!ids.includes(expected)) throw new Error(`switch: expected ${expected} on the path after the switch`);
  return took;
}

/** Switches back and forth between the two siblings of the 25th group; the time of each switch. */
function switcher(handler: FetchHandler, store: ThreadStore, threadId: string, shown: readonly string[]): () => Promise<number> {
  const regenerated = shown[GROUPS / 2];
  const original = regenerated.replace(/-g(\d+)$/, "-t$1");
  let onOriginal = false;
  return async () => {
    const took = onOriginal
      ? await switchOnce(handler, store, threadId, original, 1, regenerated)
      : await switchOnce(handler, store, threadId, regenerated, 0, original);
    onOriginal = !onOriginal;
    return took;
  };
}

/** A run that posts one new message, checked: its 200 and its RUN_FINISHED. */
function runner(handler: FetchHandler, threadId: string): () => Promise<number> {
  let run = 0;
  return async () => {
    run++;
    const input = runAgentInput(threadId, `${threadId}-run${run}`, { messages: [user(`${threadId}-new${run}`, `turn ${run}`)] });
    const started = performance.now();
    const body = await okText(await handler(post("", input)), "run");
    const took = performance.now() - started;
    if (!body.includes('"RUN_FINISHED"')) throw new Error("run: no RUN_FINISHED");
    return took;
  };
}

async function lanes(name: string, store: ThreadStore): Promise<string[][]> {
  const handler = createHandler(answer, { store, identify: () => OWNER });
  const short = await branchedThread(handler, store, "short", 1_000, GROUPS);
  const long = await branchedThread(handler, store, "long", 10_000, GROUPS);
  const linear = await branchedThread(handler, store, "linear", 1_000, 0);
  void linear;

  const switchShort = switcher(handler, store, "short", short);
  const times: number[] = [];
  for (let n = 0; n < SWITCHES; n++) times.push(await switchShort());
  const p99 = percentile(times, 99);
  const growth = await alternate(41, switcher(handler, store, "long", long), switchShort);
  const deep = await alternate(31, runner(handler, "short"), runner(handler, "linear"));
  const target = name === "memory" ? 50 : 100;
  return [
    [
      name,
      `switch (1,000 messages, ${GROUPS} groups)`,
      `p50 ${fmt(median(times))} ms, p99 ${fmt(p99)} ms (${SWITCHES} switches)`,
      `p99 ≤ ${target} ms: ${p99 <= target ? "yes" : "no"}`,
    ],
    [
      name,
      "switch: 10,000 vs 1,000 messages",
      `${fmt(growth.first)} ms vs ${fmt(growth.second)} ms, ratio ${fmt(growth.ratio)}`,
      `≤ 1.5: ${growth.ratio <= 1.5 ? "yes" : "no"}`,
    ],
    [name, "run start: deep branch vs linear (1,000 messages)", `${fmt(deep.first)} ms vs ${fmt(deep.second)} ms, ratio ${fmt(deep.ratio)}`, ""],
  ];
}

export default async function branches(): Promise<void> {
  const header = ["store", "lane", "measured", "target"];
  printTable("branches: memory", [header, ...(await lanes("memory", memoryStore({ maxBytes: 1024 * 1024 * 1024 })))]);
  await withBenchRedisStore("branches", async (store) => {
    printTable("branches: redis", [header, ...(await lanes("redis", store))]);
  });
}
