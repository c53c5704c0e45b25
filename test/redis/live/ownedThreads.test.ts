/**
 * What only the Redis store promises of owned threads (docs/threads.md#redis-keys), on a real
 * redis-server: the owner's index is written after the thread's script, so a crash between the two
 * is repaired (a thread missing from its index comes back with its next write; an entry whose
 * thread is gone is dropped by the next list); a delete raced against a producer on another
 * instance leaves no key of the thread once its tombstone ends; list changes cross instances and
 * never another owner's; threads stored before messages had their own list still read and go on.
 */
import { firstValueFrom, take, toArray, type Observable } from "rxjs";
import { ev, runAgentInput } from "../../../src/protocol/build";
import { ownerKeys, threadKeys } from "../../../src/redis/keys";
import { redisStore, type RedisStore, type RedisStoreSettings } from "../../../src/redis/redisStore";
import type { Event } from "../../../src/protocol/events";
import { StoreError } from "../../../src/server/store/StoreError";
import { rejection } from "../../server/store/threadStoreContract";
import type { ThreadListEvent } from "../../../src/thread/threadList";
import { closeClient, connectClient, redisUrl, uniquePrefix, type TestClient } from "../support/clients";
import { recordingPort, scriptCalls, scriptSource } from "../support/ports";
import { startRedisProxy, type RedisProxy } from "../support/redisProxy";
import { assistant, begin, conversation, newOwner, newThreadId, snapshotOf, turn, user } from "../../server/store/ownedThreadsSupport";

const prefix = uniquePrefix("owned-redis");
const opened: { store: RedisStore; client: TestClient }[] = [];
let admin: TestClient;
let proxy: RedisProxy | undefined;

beforeAll(async () => {
  admin = await connectClient("owned-redis-admin");
});

afterEach(async () => {
  for (const { store, client } of opened.splice(0)) {
    await store.close();
    await closeClient(client);
  }
  await proxy?.close();
  proxy = undefined;
});

afterAll(async () => {
  await closeClient(admin);
});

async function instance(settings: RedisStoreSettings = {}, url = redisUrl()): Promise<RedisStore> {
  const client = await connectClient("owned-redis", url);
  const store = redisStore({ client, prefix, ...settings });
  opened.push({ store, client });
  return store;
}

async function listed(store: RedisStore, owner: string): Promise<string[]> {
  return (await store.list({ owner }, { limit: 100 })).threads.map((row) => row.threadId);
}

/** Every key under the test's prefix whose name holds `fragment` (SCAN, as an operator would). */
async function keysWith(fragment: string): Promise<string[]> {
  const found: string[] = [];
  let cursor = "0";
  do {
    const reply: unknown = await admin.sendCommand(["SCAN", cursor, "MATCH", `${prefix}*`, "COUNT", "1000"]);
    if (!Array.isArray(reply) || typeof reply[0] !== "string" || !Array.isArray(reply[1])) throw new Error("expected a SCAN reply");
    cursor = reply[0];
    for (const key of reply[1]) if (typeof key === "string" && key.includes(fragment)) found.push(key);
  } while (cursor !== "0");
  return found;
}

function next<T>(source: Observable<T>, count: number): Promise<T[]> {
  return firstValueFrom(source.pipe(take(count), toArray()));
}

const said = (event: ThreadListEvent): string => ("thread" in event ? `${event.type} ${event.thread.threadId}` : `${event.type} ${event.threadId}`);

describe("the owner's index, written after the thread's script, repairs itself", () => {
  test("a crash before the index write: the thread is missing from its list until its next write puts it back", async () => {
    proxy = await startRedisProxy(Number(new URL(redisUrl()).port));
    const store = await instance({}, proxy.url);
    const [owner, threadId, other] = [newOwner(), newThreadId(), newThreadId()];
    await turn(store, owner, other, 1);
    // The begin script runs; the index write after it never reaches Redis (as if the process died between).
    proxy.refuseRequestWith(ownerKeys(prefix, owner).active);
    const writer = await store.beginRun(runAgentInput(threadId, "r1", { messages: [user("u1", "hello")] }), { owner });
    expect(proxy.refusedRequests).toBe(1);
    expect(await listed(store, owner)).toEqual([other]); // the thread is stored, not listed
    expect(snapshotOf(await store.read(threadId, undefined, { owner })).messages).toEqual([user("u1", "hello")]);
    await writer.append([ev.runFinished(threadId, "r1")]); // its next write: the run's end
    expect(await listed(store, owner)).toEqual([threadId, other]);
  });

  test("a crash before a deletion's index write: the next list drops the entry whose thread is gone, and the index forgets it", async () => {
    proxy = await startRedisProxy(Number(new URL(redisUrl()).port));
    const store = await instance({}, proxy.url);
    const [owner, threadId, other] = [newOwner(), newThreadId(), newThreadId()];
    await turn(store, owner, threadId, 1);
    await turn(store, owner, other, 1);
    proxy.refuseRequestWith(ownerKeys(prefix, owner).active);
    expect(await store.remove(threadId, { owner })).toBe(true);
    expect(proxy.refusedRequests).toBe(1);
    expect(await admin.sendCommand(["ZSCORE", ownerKeys(prefix, owner).active, threadId])).not.toBeNull(); // the stale entry
    expect(await listed(store, owner)).toEqual([other]);
    expect(await admin.sendCommand(["ZSCORE", ownerKeys(prefix, owner).active, threadId])).toBeNull(); // repaired
  });
});

test("a delete raced against a producer on another instance: the producer is stopped and refused, nothing recreates the thread, and once the tombstone ends no key of it is left", async () => {
  const lease = 300;
  const producer = await instance({ lease });
  const deleter = await instance({ lease });
  const [owner, threadId] = [newOwner(), newThreadId()];
  const writer = await producer.beginRun(runAgentInput(threadId, "r1", { messages: [user("u1", "hello")] }), { owner });
  const stopped = firstValueFrom(writer.stopRequested, { defaultValue: "completed" });
  // The producer keeps appending while the other instance deletes the thread.
  const appending = (async () => {
    for (let i = 0; ; i++) {
      try {
        await writer.append([ev.textMessageStart(`m${i}`), ev.textMessageContent(`m${i}`, "x"), ev.textMessageEnd(`m${i}`)]);
      } catch (error) {
        return error;
      }
    }
  })();
  const [removed] = await Promise.all([deleter.remove(threadId, { owner }), producer.read(threadId, undefined, { owner })]);
  expect(removed).toBe(true);
  expect(await stopped).toBeUndefined(); // stopRequested emitted on the producer's instance
  const refused = await appending;
  expect(StoreError.isInstance(refused) && { code: refused.code, deleted: refused.message.endsWith("(its thread was deleted)") }).toEqual({
    code: "run-ended",
    deleted: true,
  });
  // Late writes: the cancelled end, a renewal, a queued run, from either instance.
  expect(await rejection(writer.append([ev.runFinished(threadId, "r1")]))).toMatchObject({ code: "run-ended" });
  expect(await writer.renewLease()).toBe(false);
  expect(await rejection(deleter.beginRun(runAgentInput(threadId, "r2"), { owner }))).toMatchObject({ code: "deleted" });
  expect(await producer.read(threadId, undefined, { owner })).toBeUndefined();
  expect(await deleter.list({ owner }, { limit: 10 })).toEqual({ threads: [] });
  const tag = threadKeys(prefix, threadId, owner).meta.slice(prefix.length, -":meta".length);
  expect(await keysWith(tag)).toEqual([threadKeys(prefix, threadId, owner).tombstone]);
  // The tombstone expires by itself (two leases); then nothing of the thread is left.
  const deadline = Date.now() + 10 * lease;
  while (Number(await admin.sendCommand(["EXISTS", threadKeys(prefix, threadId, owner).tombstone])) === 1 && Date.now() < deadline) {
    // each turn is one round trip to Redis: no sleeping
  }
  expect(await keysWith(tag)).toEqual([]);
  expect(await admin.sendCommand(["ZSCORE", ownerKeys(prefix, owner).active, threadId])).toBeNull();
});

test("list changes cross instances, and each owner's listener hears its own threads only", async () => {
  const writerInstance = await instance();
  const listenerInstance = await instance();
  const [ann, bob, annThread, bobThread] = [newOwner(), newOwner(), newThreadId(), newThreadId()];
  const annHears = next(listenerInstance.listEvents({ owner: ann }), 3);
  const bobHears = next(listenerInstance.listEvents({ owner: bob }), 2);
  // other instances' changes need the subscription: opened by the first listener
  await writerInstance.beginRun(runAgentInput("warm-up", "w"), {}).then((writer) => writer.append([ev.runFinished("warm-up", "w")]));
  await turn(writerInstance, ann, annThread, 1); // created, run-ended
  await writerInstance.update(annThread, { title: "Ann's" }, { owner: ann }); // renamed
  await turn(writerInstance, bob, bobThread, 1); // created, run-ended
  expect((await annHears).map(said)).toEqual([`created ${annThread}`, `run-ended ${annThread}`, `renamed ${annThread}`]);
  expect((await bobHears).map(said)).toEqual([`created ${bobThread}`, `run-ended ${bobThread}`]); // nothing of Ann's before Bob's
});

test("a 100,000-message thread joins with a limit of 50 by the same commands as a 50-message one, and a turn on it rewrites only the messages it changed", async () => {
  const client = await connectClient("owned-redis-big");
  const port = recordingPort(client);
  const store = redisStore({ port, prefix, timeout: 60_000 }); // writing 100,000 messages at once takes a while on a busy machine
  opened.push({ store, client });
  const owner = newOwner();
  const [big, small] = [newThreadId(), newThreadId()];
  const many = Array.from({ length: 100_000 }, (_, i) => user(`m${i}`, `message ${i}`));
  await (await store.beginRun(runAgentInput(big, "r1", { messages: many }), { owner })).append([ev.runFinished(big, "r1")]);
  await (await store.beginRun(runAgentInput(small, "r1", { messages: many.slice(0, 50) }), { owner })).append([ev.runFinished(small, "r1")]);

  // A turn on the big thread: its begin and end write only the new messages, not the 100,000.
  port.sent.length = 0;
  await turn(store, owner, big, 2, many);
  const written = port.sent.reduce((bytes, args) => bytes + args.reduce((sum, arg) => sum + arg.length, 0), 0);
  expect(written).toBeLessThan(30_000);

  const bigRead = await store.read(big, undefined, { owner, limit: 50 });
  expect(bigRead).toMatchObject({ kind: "snapshot", hasOlder: true });
  expect(snapshotOf(bigRead).messages.map((m) => m.id)).toEqual([...many.slice(99_952).map((m) => m.id), "u2", "a2"]);
  // What a read with a limit asks of Redis does not grow with the thread: the same commands, with
  // as many arguments each, for 100,000 messages as for 50 (its time is measured by `npm run bench -- threads`).
  const askedFor = async (threadId: string): Promise<number[]> => {
    port.sent.length = 0;
    await store.read(threadId, undefined, { owner, limit: 50 });
    return port.sent.map((args) => args.length);
  };
  expect(await askedFor(big)).toEqual(await askedFor(small));
  const page = await store.history(big, { before: "m50000", limit: 3 }, { owner });
  expect(page).toEqual({ messages: many.slice(49_997, 50_000), hasOlder: true });

  // A live run on each (a message started, not ended, a new tool call started, answered, no
  // checkpoint yet): a read with a limit folds its entries into the kept snapshot's last messages
  // only, and answers the whole read's last 50.
  for (const threadId of [big, small]) {
    const writer = await begin(store, owner, threadId, "r3", [user("u3", "question 3")]);
    await writer.append([ev.textMessageStart("a3"), ev.textMessageContent("a3", "so far")]);
    await writer.append([ev.toolCallStart("call3", "look", { parentMessageId: "a3" }), ev.toolCallArgs("call3", "{}"), ev.toolCallEnd("call3")]);
    await writer.append([ev.toolCallResult("t3", "call3", "found")]);
  }
  const whole = snapshotOf(await store.read(big, undefined, { owner })).messages;
  const call3 = { id: "call3", type: "function" as const, function: { name: "look", arguments: "{}" } };
  expect(whole.slice(-3)).toEqual([
    user("u3", "question 3"),
    { ...assistant("a3", "so far"), toolCalls: [call3] },
    { id: "t3", role: "tool", toolCallId: "call3", content: "found" },
  ]);
  const liveRead = await store.read(big, undefined, { owner, limit: 50 });
  expect(liveRead).toMatchObject({ kind: "snapshot", hasOlder: true });
  expect(snapshotOf(liveRead).messages).toEqual(whole.slice(-50));
  // Asked of Redis: the read script (a window of the last messages) and the ids-absent check of
  // the live messages' ids and the new tool call's id; the replies about the size of the
  // 50-message thread's, not 100,000 messages.
  const asked = async (threadId: string): Promise<{ scripts: (string | undefined)[]; bytes: number }> => {
    port.sent.length = 0;
    port.replied.length = 0;
    await store.read(threadId, undefined, { owner, limit: 50 });
    return { scripts: port.sent.map((args) => (scriptSource(args) === undefined ? args[0] : "script")), bytes: port.replied.reduce((sum, n) => sum + n, 0) };
  };
  const [bigAsked, smallAsked] = [await asked(big), await asked(small)];
  expect(scriptCalls(port.sent, "local after, count, limit")).toHaveLength(1); // the small thread: one read, no fallback
  expect(bigAsked.scripts).toEqual(["script", "script"]);
  expect(bigAsked.bytes).toBeLessThan(2 * smallAsked.bytes);
}, 120_000);

test("a live run's entries that touch a message or tool call before the window (or one the ids hash cannot rule out), or replace the messages, make a read with a limit read the whole thread", async () => {
  const client = await connectClient("owned-redis-window");
  const port = recordingPort(client);
  const store = redisStore({ port, prefix });
  opened.push({ store, client });
  const owner = newOwner();
  const call = { id: "call0", type: "function" as const, function: { name: "look", arguments: "{}" } };
  const path = [{ id: "c0", role: "assistant" as const, toolCalls: [call] }, ...Array.from({ length: 199 }, (_, i) => user(`m${i}`, `message ${i}`))];
  const newCall = [ev.toolCallStart("call9", "look", { parentMessageId: "a9" }), ev.toolCallArgs("call9", "{}"), ev.toolCallEnd("call9")];
  const cases: [string, Event[], boolean?][] = [
    ["a tool result for a call held before the window (inserted right after it)", [ev.toolCallResult("t0", "call0", "done")]],
    ["a tool call started with the id of one held before the window (found there)", [ev.toolCallStart("call0", "look"), ev.toolCallArgs("call0", "{}")]],
    ["a new tool call, the ids hash kept before tool call ids were indexed (no tc-indexed field)", newCall, true],
    ["a message started with the id of one before the window (refused: ids stay unique)", [ev.textMessageStart("m10"), ev.textMessageContent("m10", "again")]],
    ["a MESSAGES_SNAPSHOT", [ev.messagesSnapshot([user("s1", "only this")])]],
  ];
  for (const [what, events, unmarked] of cases) {
    const threadId = newThreadId();
    await (await store.beginRun(runAgentInput(threadId, "r1", { messages: path }), { owner })).append([ev.runFinished(threadId, "r1")]);
    // as the previous version of the store left it: no field says its tool call ids are indexed
    if (unmarked === true) expect(await admin.sendCommand(["HDEL", threadKeys(prefix, threadId, owner).ids, "tc-indexed"])).toBe(1);
    await (await begin(store, owner, threadId, "r2", [])).append(events);
    const whole = snapshotOf(await store.read(threadId, undefined, { owner })).messages;
    port.sent.length = 0;
    const read = await store.read(threadId, undefined, { owner, limit: 50 });
    expect([what, snapshotOf(read).messages]).toEqual([what, whole.slice(-50)]);
    expect([what, read?.kind === "snapshot" && read.hasOlder]).toEqual([what, whole.length > 50]);
    expect([what, scriptCalls(port.sent, "local after, count, limit").length]).toEqual([what, 2]); // the window read, then the whole
  }
});

test("a thread kept before messages had their own list (its snapshot's JSON holds them) still reads, and its next run moves them to the list", async () => {
  const store = await instance();
  const threadId = newThreadId();
  const path = await conversation(store, undefined, threadId, 2);
  const keys = threadKeys(prefix, threadId);
  // Rewrite the kept snapshot as the previous version of the store left it.
  const body: unknown = await admin.sendCommand(["HGET", keys.snapshot, "body"]);
  if (typeof body !== "string") throw new Error("expected a kept snapshot");
  const legacy: unknown = JSON.parse(body);
  if (typeof legacy !== "object" || legacy === null) throw new Error("expected the kept snapshot's JSON to be an object");
  await admin.sendCommand(["HSET", keys.snapshot, "body", JSON.stringify({ ...legacy, messages: path })]);
  await admin.sendCommand(["HDEL", keys.snapshot, "count"]);
  await admin.sendCommand(["DEL", keys.messages, keys.ids]);
  expect(snapshotOf(await store.read(threadId)).messages).toEqual(path);
  expect(snapshotOf(await store.read(threadId, undefined, { limit: 1 })).messages).toEqual(path.slice(-1));
  const { path: longer } = await turn(store, undefined, threadId, 3, path);
  expect(await admin.sendCommand(["LLEN", keys.messages])).toBe(longer.length);
  expect(snapshotOf(await store.read(threadId)).messages).toEqual(longer);
});
