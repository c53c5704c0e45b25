/**
 * The quiet append on a real Redis (issue #28 §3; docs/durability.md#the-quiet-append): within the
 * quiet window of a renewing append, a plain batch renews neither the run's lease nor the keys'
 * expiries, and loses none of the append's guarantees: the same batch sent twice is logged once
 * (the full append answers it from the log's tail), a batch out of place, of a stale run or of a
 * deleted thread logs nothing, a stop still arrives, an abandon after quiet appends is logged at
 * the true head. A renewing append leaves every key living its TTL past the window's end.
 */
import { defaultIfEmpty, firstValueFrom, map } from "rxjs";
import { ev, runAgentInput } from "../../../src/protocol/build";
import type { Event } from "../../../src/protocol/events";
import { encodeEvent } from "../../../src/redis/entries";
import { logKeys, signalChannel, threadKeys } from "../../../src/redis/keys";
import { nodeRedisPort } from "../../../src/redis/nodeRedisPort";
import { RedisCalls } from "../../../src/redis/RedisCalls";
import { redisStore, type RedisStore } from "../../../src/redis/redisStore";
import { appendArguments, appendScript, parseAppendReply, type AppendReply } from "../../../src/redis/scripts/appendBatch";
import { parseQuietAppendReply, quietAppendArguments, quietAppendMs, quietAppendScript } from "../../../src/redis/scripts/quietAppend";
import { closeClient, connectClient, uniquePrefix, type TestClient } from "../support/clients";
import { logProblems, threadLog } from "../support/threadLog";

const prefix = uniquePrefix("quiet");
const TTL = 3_600_000;
/** Long, so that a test's appends all fall inside one quiet window (its tenth: 60 s) even on a stalled machine. */
const LEASE = 600_000;
let client: TestClient;
let store: RedisStore;

beforeAll(async () => {
  client = await connectClient("quiet");
  store = redisStore({ client, prefix, ttl: TTL, lease: LEASE });
});

afterAll(async () => {
  await store.close();
  await closeClient(client);
});

function contextOf(threadId: string) {
  return { now: "", channel: signalChannel(prefix), threadId, ttl: TTL };
}

/** Sends one batch of run `runId` straight to the quiet append script: its cursors, or `undefined` when it logged nothing. */
function sendQuiet(threadId: string, firstSeq: number, events: readonly Event[]): Promise<readonly string[] | undefined> {
  const json = events.map((event, i) => encodeEvent(event, i, threadId).json);
  return new RedisCalls(5000)
    .script(nodeRedisPort(client), quietAppendScript, logKeys(threadKeys(prefix, threadId)), contextOf(threadId), quietAppendArguments(firstSeq, json))
    .then(parseQuietAppendReply);
}

/** Sends one batch straight to the full append script, as a writer does when the quiet one logged nothing. */
function sendFull(threadId: string, runId: string, firstSeq: number, events: readonly Event[]): Promise<AppendReply> {
  const request = {
    runId,
    lease: LEASE,
    leaseTtl: LEASE,
    terminal: false,
    maxEvents: 0,
    firstSeq,
    quietMs: quietAppendMs(LEASE, TTL, true),
    events: events.map((event, i) => encodeEvent(event, i, threadId)),
  };
  return new RedisCalls(5000)
    .script(nodeRedisPort(client), appendScript, threadKeys(prefix, threadId), contextOf(threadId), appendArguments(request))
    .then(parseAppendReply);
}

async function pttl(key: string): Promise<number> {
  return Number(await client.sendCommand(["PTTL", key]));
}

const text = (id: string, content: string): Event[] => [ev.textMessageStart(id), ev.textMessageContent(id, content), ev.textMessageEnd(id)];

test("the window: a tenth of the lease, at most half the expiries' slack, none on an injected clock", () => {
  expect(quietAppendMs(30_000, 7 * 24 * 3_600_000, true)).toBe(3_000);
  expect(quietAppendMs(30_000, 20_000, true)).toBe(1_000); // slack 2,000
  expect(quietAppendMs(30_000, 7 * 24 * 3_600_000, false)).toBe(0);
});

test("a writer's first append renews; those within its window renew nothing; a terminal ends the lease", async () => {
  const threadId = "writer";
  const keys = threadKeys(prefix, threadId);
  const writer = await store.beginRun(runAgentInput(threadId, "r1"));
  // as if time had passed: a renewing append brings the lease back to the whole of it
  await client.sendCommand(["PEXPIRE", keys.lease, "400000"]);
  await writer.append([ev.textMessageStart("m1")]);
  expect(await pttl(keys.lease)).toBeGreaterThan(500_000);
  // every key lives its TTL past the end of the quiet window that follows
  for (const key of [keys.events, keys.meta]) expect(await pttl(key)).toBeGreaterThan(TTL + quietAppendMs(LEASE, TTL, true) - 5_000);

  await client.sendCommand(["PEXPIRE", keys.lease, "400000"]);
  await client.sendCommand(["PEXPIRE", keys.meta, String(TTL + 100_000)]);
  const renewBefore = await client.sendCommand(["HGET", keys.meta, "renew"]);
  for (let i = 0; i < 5; i++) await writer.append([ev.textMessageContent("m1", ` token${i}`)]);
  expect(await pttl(keys.lease)).toBeLessThanOrEqual(400_000); // not renewed
  expect(await pttl(keys.meta)).toBeLessThanOrEqual(TTL + 100_000); // nor the expiries
  expect(await client.sendCommand(["HGET", keys.meta, "renew"])).toEqual(renewBefore);

  await writer.append([ev.textMessageEnd("m1"), ev.runFinished(threadId, "r1")]);
  expect(await client.sendCommand(["EXISTS", keys.lease])).toBe(0);
  const log = await threadLog(client, prefix, threadId);
  expect(logProblems(log)).toEqual([]);
  expect(log.map((entry) => entry.event.type)).toEqual([
    "RUN_STARTED",
    "TEXT_MESSAGE_START",
    ...Array.from({ length: 5 }, () => "TEXT_MESSAGE_CONTENT"),
    "TEXT_MESSAGE_END",
    "RUN_FINISHED",
  ]);
});

test("a quiet batch sent twice is logged once: the second finds the head moved, and the full append answers it from the log's tail with the same cursors", async () => {
  const threadId = "twice";
  await store.beginRun(runAgentInput(threadId, "r1")); // its RUN_STARTED is sequence number 0
  expect(await sendQuiet(threadId, 1, text("m1", "once"))).toBeUndefined(); // no head yet: only a renewing append sets it
  const first = await sendFull(threadId, "r1", 1, text("m1", "once"));
  expect(first).toMatchObject({ kind: "logged", firstSeq: 1 });
  const second = await sendQuiet(threadId, 4, text("m2", "quiet"));
  expect(second).toHaveLength(3);
  expect(await sendQuiet(threadId, 4, text("m2", "quiet"))).toBeUndefined();
  expect(await sendFull(threadId, "r1", 4, text("m2", "quiet"))).toMatchObject({ kind: "logged", firstSeq: 4, cursors: second });
  expect(await sendFull(threadId, "r1", 4, text("m2", "other"))).toEqual({ kind: "misplaced", next: 7 });
  expect(await sendQuiet(threadId, 9, [ev.stepStarted("gap")])).toBeUndefined();
  expect(await sendFull(threadId, "r1", 9, [ev.stepStarted("gap")])).toEqual({ kind: "misplaced", next: 7 });
  // the quiet batch after one answered from the tail goes quietly again
  expect(await sendQuiet(threadId, 7, [ev.stepStarted("s")])).toHaveLength(1);
  const log = await threadLog(client, prefix, threadId);
  expect(logProblems(log)).toEqual([]);
  expect(log.map((entry) => entry.cursor).slice(1, 7)).toEqual([...(first.kind === "logged" ? first.cursors : []), ...(second ?? [])]);
  expect(log).toHaveLength(8);
});

test("a stale writer's quiet batch (its run ended, another began) logs nothing, and neither does the full append after it", async () => {
  const threadId = "stale";
  const r1 = await store.beginRun(runAgentInput(threadId, "r1"));
  await r1.append([ev.stepStarted("s")]); // 1: renewing, sets the head
  await r1.append([ev.runFinished(threadId, "r1")]); // 2
  const r2 = await store.beginRun(runAgentInput(threadId, "r2")); // 3
  await r2.append([ev.stepStarted("t")]); // 4: r2's head is 5
  for (const seq of [3, 4]) {
    expect(await sendQuiet(threadId, seq, [ev.stepStarted("late")])).toBeUndefined();
    expect(await sendFull(threadId, "r1", seq, [ev.stepStarted("late")])).toEqual({ kind: "ended", abandoned: false, deleted: false });
  }
  expect((await threadLog(client, prefix, threadId)).map((entry) => entry.event.type)).toEqual([
    "RUN_STARTED",
    "STEP_STARTED",
    "RUN_FINISHED",
    "RUN_STARTED",
    "STEP_STARTED",
  ]);
  expect(await client.sendCommand(["HGET", threadKeys(prefix, threadId).meta, "head"])).toBe("5"); // every undo undone
});

test("a stop reaches a writer whose appends are quiet (its signal; a renewing append says so too); a quiet batch logs nothing on a run that ended or a thread that was deleted", async () => {
  const threadId = "stopped";
  const writer = await store.beginRun(runAgentInput(threadId, "r1"));
  await writer.append([ev.stepStarted("s")]); // renewing: the window opens
  const stopped = firstValueFrom(
    writer.stopRequested.pipe(
      map(() => true),
      defaultIfEmpty(false),
    ),
  );
  expect(await store.stop(threadId, "r1")).toBe("stopping");
  await writer.append([ev.stepFinished("s")]); // quiet
  expect(await stopped).toBe(true);

  const ended = await store.beginRun(runAgentInput("ended", "r1"));
  await ended.append([ev.runFinished("ended", "r1")]);
  expect(await sendQuiet("ended", 2, [ev.stepStarted("late")])).toBeUndefined();

  await store.beginRun(runAgentInput("deleted", "r1"));
  expect(await store.remove("deleted")).toBe(true);
  expect(await sendQuiet("deleted", 1, [ev.stepStarted("late")])).toBeUndefined();
  expect(await client.sendCommand(["EXISTS", threadKeys(prefix, "deleted").events, threadKeys(prefix, "deleted").meta])).toBe(0); // nothing recreated
});

test("a run abandoned after quiet appends ends at the log's true head, and the next run starts after it", async () => {
  const threadId = "abandoned";
  const keys = threadKeys(prefix, threadId);
  const writer = await store.beginRun(runAgentInput(threadId, "r1"));
  await writer.append([ev.textMessageStart("m1")]);
  for (let i = 0; i < 3; i++) await writer.append([ev.textMessageContent("m1", ` token${i}`)]); // quiet
  await client.sendCommand(["DEL", keys.lease]); // as if the lease ran out
  await store.beginRun(runAgentInput(threadId, "r2")); // notices it: r1 ends ABANDONED first
  await expect(writer.append([ev.textMessageEnd("m1")])).rejects.toMatchObject({ code: "run-ended" });
  const log = await threadLog(client, prefix, threadId);
  expect(log.map((entry) => [entry.seq, entry.event.type])).toEqual([
    [0, "RUN_STARTED"],
    [1, "TEXT_MESSAGE_START"],
    [2, "TEXT_MESSAGE_CONTENT"],
    [3, "TEXT_MESSAGE_CONTENT"],
    [4, "TEXT_MESSAGE_CONTENT"],
    [5, "RUN_ERROR"],
    [6, "RUN_STARTED"],
  ]);
});
