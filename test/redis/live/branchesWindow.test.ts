/**
 * A switch on Redis reads only the path from a little before the switched group (docs/threads.md#redis-keys):
 * on a thread longer than that window, a switch of a recent group, of a group far back, and of
 * a group whose answer is longer than the first look back, each leaves the thread exactly as the
 * memory store leaves the same thread (path, state, groups, history pages), and the Redis reads
 * of a recent switch take only the path's last messages.
 */
import { ev } from "../../../src/protocol/build";
import { memoryStore } from "../../../src/server/store/memory/memoryStore";
import { redisStore, type RedisStore } from "../../../src/redis/redisStore";
import type { ThreadStore } from "../../../src/server/store/ThreadStore";
import { answer, current, ids, post, postForked, type BranchThread } from "../../server/store/branchesSupport";
import { newOwner, newThreadId, user } from "../../server/store/ownedThreadsSupport";
import { closeClient, connectClient, uniquePrefix, type TestClient } from "../support/clients";
import { recordingPort, scriptCalls } from "../support/ports";

const prefix = uniquePrefix("branches-window");
let client: TestClient;
let redis: RedisStore;
let sent: () => (readonly string[])[];

beforeAll(async () => {
  client = await connectClient("branches-window");
  const port = recordingPort(client);
  sent = () => port.sent;
  redis = redisStore({ port, prefix });
});

afterAll(async () => {
  await redis.close();
  await closeClient(client);
});

/**
 * The same thread on `store`: 150 turns; turn 5's answer regenerated (a group far back), turn 60's
 * answer regenerated with 140 messages of tool calls and results before its text (a group whose
 * answer outgrows the first look back), turn 149's regenerated (a recent group); later turns
 * continue each regenerated answer. Each run sets the state to its turn.
 */
async function build(store: ThreadStore, threadId: string, owner: string): Promise<BranchThread> {
  const thread: BranchThread = { store, owner, threadId };
  for (let turn = 0; turn < 150; turn++) {
    await answer((await post(thread, { messages: [user(`u${turn}`, `question ${turn}`)] })).writer, `a${turn}`, { state: { turn } });
    if (turn !== 5 && turn !== 60 && turn !== 149) continue;
    const again = await postForked(thread, `u${turn}`);
    if (turn === 60) {
      const calls = Array.from({ length: 70 }, (_, n) => n);
      await again.writer.append(
        calls.flatMap((n) => [
          ev.toolCallStart(`c${n}`, "lookup", { parentMessageId: `t${n}` }),
          ev.toolCallArgs(`c${n}`, "{}"),
          ev.toolCallEnd(`c${n}`),
          ev.toolCallResult(`r${n}`, `c${n}`, `result ${n}`),
        ]),
      );
    }
    await answer(again.writer, `a${turn}b`, { state: { turn, again: true } });
  }
  return thread;
}

/** What a reader sees of a thread: the path, the state, the groups, and a history page from deep in it. */
async function seen(thread: BranchThread) {
  const snapshot = await current(thread);
  const page = await thread.store.history(thread.threadId, { before: "u100", limit: 5 }, { owner: thread.owner });
  return { path: ids(snapshot.messages), state: snapshot.state, groups: snapshot.branches?.groups, page: ids(page?.messages ?? []) };
}

test("switches of a recent group, a group far back and a group with a long answer leave Redis as they leave the memory store", async () => {
  const owner = newOwner();
  const threadId = newThreadId();
  const memory = await build(memoryStore(), threadId, owner);
  const onRedis = await build(redis, threadId, owner);
  expect(await seen(onRedis)).toEqual(await seen(memory));
  expect((await current(onRedis)).messages.length).toBe(440); // far more than a switch reads first

  for (const [messageId, index] of [
    ["a149b", 0], // recent
    ["r69", 0], // inside turn 60's long answer, far back: its question is further back than the first look back
    ["a60", 1],
    ["a149", 1], // recent again
    ["a5b", 0], // far back
    ["a5", 1],
  ] as const) {
    const before = sent().length;
    const [onMemory, onRedisAnswer] = [
      await memory.store.selectBranch(threadId, messageId, index, { owner }),
      await redis.selectBranch(threadId, messageId, index, { owner }),
    ];
    const reads = sent().slice(before);
    expect(onRedisAnswer).toBe(onMemory);
    expect([messageId, onMemory]).toEqual([messageId, "switched"]);
    expect(await seen(onRedis)).toEqual(await seen(memory));
    if (messageId === "r69") {
      // far back: the position from the index, then reads of the path's end only (each with a limit), never the whole path
      // (a5b is near the path's start: from a little before it is the whole path)
      expect(reads.some((args) => args[0] === "HGET")).toBe(true);
      const readScripts = scriptCalls(reads, "local after, count, limit");
      expect(readScripts.length).toBeGreaterThanOrEqual(2);
      expect(readScripts.every((args) => args[args.length - 1] !== "")).toBe(true);
    }
    if (messageId === "a149") {
      // a recent group, once the last run is compacted (the first switch kept the snapshot through
      // it): one read of the path's last messages (no position lookup, no whole read)
      expect(reads.some((args) => args[0] === "HGET" || args[0] === "LLEN")).toBe(false);
      expect(scriptCalls(reads, "local after, count, limit")).toHaveLength(1);
    }
  }
});
