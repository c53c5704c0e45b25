/**
 * The append script on a real Redis (issue #20 A4; docs/durability.md §8, "Failure behaviour"):
 * each batch names its first sequence number, so the same batch sent twice is logged once and
 * answered with the same cursors both times (also the terminal batch, after the run ended with
 * it); a batch that overlaps what is logged without being the last batch, or leaves a gap, is
 * refused `misplaced` and logs nothing, and a writer told so fails with a clear `invalid-append`.
 */
import { ev, runAgentInput } from "../../../src/protocol/build";
import type { Event } from "../../../src/protocol/events";
import { encodeEvent } from "../../../src/redis/entries";
import { signalChannel, threadKeys } from "../../../src/redis/keys";
import { nodeRedisPort } from "../../../src/redis/nodeRedisPort";
import { RedisCalls } from "../../../src/redis/RedisCalls";
import { redisStore, type RedisStore } from "../../../src/redis/redisStore";
import { appendArguments, appendScript, parseAppendReply, type AppendReply } from "../../../src/redis/scripts/appendBatch";
import { StoreError } from "../../../src/server/store/StoreError";
import { closeClient, connectClient, uniquePrefix, type TestClient } from "../support/clients";
import { logProblems, threadLog } from "../support/threadLog";

const prefix = uniquePrefix("idempotent");
let client: TestClient;
let store: RedisStore;

beforeAll(async () => {
  client = await connectClient("idempotent");
  store = redisStore({ client, prefix });
});

afterAll(async () => {
  await store.close();
  await closeClient(client);
});

/** Sends one batch of run `runId` of `threadId` straight to the append script, as a writer would. */
function sendBatch(threadId: string, runId: string, firstSeq: number, events: readonly Event[], terminal = false): Promise<AppendReply> {
  const calls = new RedisCalls(5000);
  const context = { now: "", channel: signalChannel(prefix), threadId, ttl: 60_000 };
  const request = {
    runId,
    lease: 30_000,
    leaseTtl: 30_000,
    terminal,
    maxEvents: 0,
    firstSeq,
    events: events.map((event, i) => encodeEvent(event, i, threadId)),
  };
  return calls.script(nodeRedisPort(client), appendScript, threadKeys(prefix, threadId), context, appendArguments(request)).then(parseAppendReply);
}

const text = (id: string, content: string): Event[] => [ev.textMessageStart(id), ev.textMessageContent(id, content), ev.textMessageEnd(id)];

test("the same batch twice: logged once, the same cursors both times; the terminal batch too, after the run ended with it", async () => {
  const threadId = "twice";
  await store.beginRun(runAgentInput(threadId, "r1")); // its RUN_STARTED is sequence number 0
  const first = await sendBatch(threadId, "r1", 1, text("m1", "once"));
  expect(first).toMatchObject({ kind: "logged", firstSeq: 1 });
  expect(await sendBatch(threadId, "r1", 1, text("m1", "once"))).toEqual(first);

  const terminal = [ev.stepStarted("s"), ev.runFinished(threadId, "r1")];
  const ended = await sendBatch(threadId, "r1", 4, terminal, true);
  expect(ended).toMatchObject({ kind: "logged", firstSeq: 4 });
  expect(await sendBatch(threadId, "r1", 4, terminal, true)).toEqual(ended); // the run is over, and the reply lost is answered all the same
  expect(await sendBatch(threadId, "r1", 6, [ev.stepStarted("late")])).toEqual({ kind: "ended", abandoned: false, deleted: false });

  const log = await threadLog(client, prefix, threadId);
  expect(logProblems(log)).toEqual([]);
  expect(log.map((entry) => entry.event.type)).toEqual([
    "RUN_STARTED",
    "TEXT_MESSAGE_START",
    "TEXT_MESSAGE_CONTENT",
    "TEXT_MESSAGE_END",
    "STEP_STARTED",
    "RUN_FINISHED",
  ]);
  expect(log.slice(1).map((entry) => entry.cursor)).toEqual([
    ...(first.kind === "logged" ? first.cursors : []),
    ...(ended.kind === "logged" ? ended.cursors : []),
  ]);
});

test("a batch that overlaps what is logged, or leaves a gap, or is an earlier batch, is refused misplaced and logs nothing", async () => {
  const threadId = "misplaced";
  await store.beginRun(runAgentInput(threadId, "r1"));
  await sendBatch(threadId, "r1", 1, text("m1", "first")); // 1, 2, 3
  expect(await sendBatch(threadId, "r1", 1, text("m1", "first").slice(0, 2))).toEqual({ kind: "misplaced", next: 4 }); // the start of the batch, not the batch
  expect(await sendBatch(threadId, "r1", 2, text("m1", "first"))).toEqual({ kind: "misplaced", next: 4 }); // straddles the log's end
  expect(await sendBatch(threadId, "r1", 1, [ev.stepStarted("a"), ev.stepFinished("a"), ev.stepStarted("b")])).toEqual({ kind: "misplaced", next: 4 }); // same place and size, other events
  expect(await sendBatch(threadId, "r1", 6, [ev.stepStarted("gap")])).toEqual({ kind: "misplaced", next: 4 });
  await sendBatch(threadId, "r1", 4, [ev.stepStarted("s")]); // 4
  expect(await sendBatch(threadId, "r1", 1, text("m1", "first"))).toEqual({ kind: "misplaced", next: 5 }); // no longer the last batch
  expect(await sendBatch(threadId, "r2", 4, [ev.stepStarted("s")])).toEqual({ kind: "ended", abandoned: false, deleted: false }); // another run's batch is no replay

  const log = await threadLog(client, prefix, threadId);
  expect(logProblems(log)).toEqual([]);
  expect(log).toHaveLength(5);
});

test("a writer whose batch is misplaced (something else appended to its run) fails invalid-append, naming where the log is, and stays failed", async () => {
  const threadId = "stale-writer";
  const writer = await store.beginRun(runAgentInput(threadId, "r1"));
  await sendBatch(threadId, "r1", 1, [ev.stepStarted("elsewhere")]);
  const refusal = await writer.append(text("m1", "mine")).then(
    () => new Error("expected the append to be refused"),
    (error: unknown) => error,
  );
  if (!StoreError.isInstance(refusal)) throw refusal;
  expect({ code: refusal.code, message: refusal.message }).toEqual({
    code: "invalid-append",
    message: `expected the batch of 3 event(s) of run "r1" to start where thread "stale-writer"'s log ends, at sequence number 2, but it starts at 1: it overlaps what is logged and is not the last batch logged sent again`,
  });
  await expect(writer.append([ev.stepStarted("after")])).rejects.toBe(refusal);
  expect((await threadLog(client, prefix, threadId)).map((entry) => entry.event.type)).toEqual(["RUN_STARTED", "STEP_STARTED"]);
});
