/**
 * The compacted thread beside the stream, on a real Redis: the same snapshot as `memoryStore()`
 * folds from the same events (one ThreadFold), checkpointed during a run and at its end, written
 * back by a reader after a run nobody compacted (ABANDONED), so that reading without a cursor
 * never replays the history; and a run's events reach Redis in batches, not one round trip each.
 */
import { from, lastValueFrom, toArray } from "rxjs";
import { ev, runAgentInput } from "../../../src/protocol/build";
import type { Event } from "../../../src/protocol/events";
import type { Message } from "../../../src/protocol/messages";
import { threadKeys } from "../../../src/redis/keys";
import { redisStore, type RedisStore } from "../../../src/redis/redisStore";
import { memoryStore } from "../../../src/server/store/memory/memoryStore";
import { recordRun } from "../../../src/server/store/recordRun";
import type { ThreadRead, ThreadStore } from "../../../src/server/store/ThreadStore";
import { ManualClock } from "../../server/store/manualClock";
import { closeClient, connectClient, uniquePrefix, type TestClient } from "../support/clients";
import { APPEND_MARK, recordingPort, scriptCalls, scriptSource, type RecordingPort } from "../support/ports";

const prefix = uniquePrefix("snapshots");
const opened: { store: RedisStore; client: TestClient }[] = [];
let threads = 0;
const newThread = (): string => `snapshots-${threads++}`;
const user = (id: string, content: string): Message => ({ id, role: "user", content });
const READ = "local after, count, limit = ARGV[5], tonumber(ARGV[6]), tonumber(ARGV[7])"; // a line only the read script has

async function instance(
  settings: { snapshotEvery?: number; clock?: ManualClock } = {},
): Promise<{ store: RedisStore; client: TestClient; port: RecordingPort }> {
  const client = await connectClient("snapshots");
  const port = recordingPort(client);
  const store = redisStore({ port, prefix, ...settings });
  opened.push({ store, client });
  return { store, client, port };
}

afterEach(async () => {
  for (const { store, client } of opened.splice(0)) {
    await store.close();
    await closeClient(client);
  }
});

async function hashNumber(client: TestClient, key: string, field: string): Promise<number> {
  const value: unknown = await client.sendCommand(["HGET", key, field]);
  if (typeof value !== "string") throw new Error(`expected ${key} ${field} to be set, got ${JSON.stringify(value)}`);
  return Number(value);
}

/** A run's worth of varied events: messages, a tool call, state, reasoning, a step, with a terminal. */
function script(threadId: string, runId: string, n: number): Event[] {
  const events: Event[] = [ev.stepStarted("work")];
  for (let i = 0; i < n; i++) {
    events.push(
      ev.textMessageStart(`${runId}-m${i}`),
      ev.textMessageContent(`${runId}-m${i}`, `part ${i} `),
      ev.textMessageContent(`${runId}-m${i}`, "and more"),
      ev.textMessageEnd(`${runId}-m${i}`),
    );
    if (i % 3 === 0)
      events.push(
        ev.toolCallStart(`${runId}-tc${i}`, "search", { parentMessageId: `${runId}-m${i}` }),
        ev.toolCallArgs(`${runId}-tc${i}`, `{"q":${i}}`),
        ev.toolCallEnd(`${runId}-tc${i}`),
      );
    if (i % 4 === 0) events.push(ev.stateDelta([{ op: "add", path: `/${runId}-${i}`, value: { i, tags: ["a", "b"] } }]));
    if (i % 5 === 0) events.push(ev.reasoningStart(`${runId}-r${i}`), ev.reasoningEnd(`${runId}-r${i}`));
  }
  events.push(ev.stepFinished("work"), ev.runFinished(threadId, runId));
  return events;
}

/** The snapshot of `read`, or a failure. */
function snapshotOf(read: ThreadRead | undefined) {
  if (read?.kind !== "snapshot") throw new Error(`expected the snapshot path, got ${read?.kind}`);
  return read.snapshot;
}

/** Logs the runs through `store` in batches of 7, stopping before the last run's terminal when `leaveOpen`. */
async function logRuns(store: ThreadStore, threadId: string, runs: number, leaveOpen: boolean): Promise<void> {
  for (let r = 1; r <= runs; r++) {
    const runId = `r${r}`;
    const writer = await store.beginRun(runAgentInput(threadId, runId, { messages: [user(`u${r}`, `question ${r}`)], state: {} }));
    const events = script(threadId, runId, 20);
    const last = r === runs && leaveOpen ? events.length - 2 : events.length;
    for (let i = 0; i < last; i += 7) await writer.append(events.slice(i, Math.min(i + 7, last)));
  }
}

test("the snapshot is memoryStore's, checkpointed during the run and at its end", async () => {
  const { store, client } = await instance({ snapshotEvery: 20 });
  const threadId = newThread();
  const keys = threadKeys(prefix, threadId);
  const memory = memoryStore();
  await logRuns(store, threadId, 3, true);
  await logRuns(memory, threadId, 3, true);
  const live = snapshotOf(await store.read(threadId));
  const expected = snapshotOf(await memory.read(threadId));
  expect({ ...live, cursor: "" }).toEqual({ ...expected, cursor: "" }); // cursors are each store's own
  expect(live.run).toMatchObject({ runId: "r3", status: "running", reopen: [ev.stepStarted("work")] });
  // mid-run checkpoints: the kept snapshot is at most snapshotEvery + two batches behind the log
  const logged = await hashNumber(client, keys.meta, "seq");
  expect(logged - (await hashNumber(client, keys.snapshot, "seq"))).toBeLessThanOrEqual(20 + 14);
});

test("after a run's end the kept snapshot is the thread: a read without cursor folds nothing", async () => {
  const { store, client, port } = await instance();
  const threadId = newThread();
  const keys = threadKeys(prefix, threadId);
  await logRuns(store, threadId, 5, false);
  expect(await hashNumber(client, keys.snapshot, "seq")).toBe((await hashNumber(client, keys.meta, "seq")) - 1);
  port.sent.length = 0;
  const read = snapshotOf(await store.read(threadId));
  expect(port.sent.map((args) => scriptSource(args)?.includes(READ) === true)).toEqual([true]); // one call of the read script, no paging, no write-back
  expect(read.messages).toHaveLength(5 * (1 + 20)); // each run: its user message and 20 answers (tool calls ride on their parents)
  expect(read.run).toEqual({ runId: "r5", status: "finished", reopen: [] });
});

test("a run ended ABANDONED by another instance is compacted by the first read after it", async () => {
  const clock = new ManualClock();
  const producer = await instance({ clock });
  const reader = await instance({ clock });
  const threadId = newThread();
  const keys = threadKeys(prefix, threadId);
  const writer = await producer.store.beginRun(runAgentInput(threadId, "r1", { messages: [user("u1", "hi")] }));
  await writer.append([ev.textMessageStart("a1"), ev.textMessageContent("a1", "half")]);
  clock.jump(1000 * 60); // well past the default lease
  const first = snapshotOf(await reader.store.read(threadId)); // notices, ends it ABANDONED, folds it, keeps the fold
  expect(first.run).toMatchObject({ status: "failed", errorCode: "ABANDONED" });
  expect(await hashNumber(reader.client, keys.snapshot, "seq")).toBe((await hashNumber(reader.client, keys.meta, "seq")) - 1);
  reader.port.sent.length = 0;
  expect(snapshotOf(await reader.store.read(threadId))).toEqual(first);
  expect(reader.port.sent).toHaveLength(1);
});

test("recordRun over a synchronous source of 5,000 events: a handful of append calls, every event logged in order", async () => {
  const { store, port } = await instance();
  const threadId = newThread();
  const writer = await store.beginRun(runAgentInput(threadId, "r1"));
  const events: Event[] = [ev.runStarted(threadId, "r1"), ev.textMessageStart("m1")];
  for (let i = 0; i < 4996; i++) events.push(ev.textMessageContent("m1", `${i} `));
  events.push(ev.textMessageEnd("m1"), ev.runFinished(threadId, "r1"));
  port.sent.length = 0;
  const recorded = await lastValueFrom(from(events).pipe(recordRun(writer), toArray()));
  const appends = scriptCalls(port.sent, APPEND_MARK);
  expect(appends.length).toBeGreaterThanOrEqual(1);
  expect(appends.length).toBeLessThanOrEqual(3); // the first event, then everything that queued behind it
  expect(recorded.map((s) => s.event)).toEqual(events);
  const read = await store.read(threadId, writer.started.cursor);
  expect(read?.kind === "resume" && read.events).toEqual(recorded.slice(1));
});

test("the client tool calls a run left pending are kept in the snapshot JSON, read back by another instance, and cleared by the next run (docs/threads.md#pending-client-tools)", async () => {
  const { store } = await instance();
  const other = await instance();
  const threadId = newThread();
  const tools = [{ name: "get_local_time", description: "the user's clock", parameters: { type: "object" } }];
  const writer = await store.beginRun(runAgentInput(threadId, "r1", { messages: [user("u1", "time?")], tools }));
  await writer.append([
    ev.toolCallStart("tc1", "get_local_time", { parentMessageId: "a1" }),
    ev.toolCallEnd("tc1"),
    ev.runFinished(threadId, "r1", { outcome: { type: "success", pendingToolCallIds: ["tc1"] } }),
  ]);
  expect(snapshotOf(await store.read(threadId)).pendingToolCallIds).toEqual(["tc1"]);
  expect(snapshotOf(await other.store.read(threadId)).pendingToolCallIds).toEqual(["tc1"]); // decoded from the kept JSON
  const answered: Message = { id: "tool-tc1", role: "tool", toolCallId: "tc1", content: "12:00" };
  const messages = [...snapshotOf(await other.store.read(threadId)).messages, answered];
  const next = await other.store.beginRun(runAgentInput(threadId, "r2", { messages, tools }));
  await next.append([ev.runFinished(threadId, "r2")]);
  const after = snapshotOf(await store.read(threadId));
  expect(after).not.toHaveProperty("pendingToolCallIds");
  expect(after.messages.map((message) => message.id)).toEqual(["u1", "a1", "tool-tc1"]);
});
