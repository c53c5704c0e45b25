/**
 * What only the memory store promises of owned threads (docs/threads.md#in-the-store): its key
 * cannot collide, eviction keeps the lists true, deleting frees the bytes, the page arguments are
 * checked, a read with a limit never copies the path, and a list of 10,000 threads stays fast.
 */
import fc from "fast-check";
import { lastValueFrom, toArray } from "rxjs";
import { ev, runAgentInput } from "../../../src/protocol/build";
import type { Message } from "../../../src/protocol/messages";
import { ListChanges } from "../../../src/server/store/memory/ListChanges";
import { memoryStore } from "../../../src/server/store/memory/memoryStore";
import { threadKey } from "../../../src/server/store/memory/threadKey";
import type { ThreadListEvent } from "../../../src/thread/threadList";
import { MessageList } from "../../../src/thread/reducers/MessageList";
import { ManualClock } from "./manualClock";

const finished = (threadId: string, runId: string) => ev.runFinished(threadId, runId, { outcome: { type: "success" } });
const user = (id: string, content = `question ${id}`): Message => ({ id, role: "user", content });

describe("the key of (owner, thread id)", () => {
  test("two different pairs never share a key, whatever characters owners and ids hold", () => {
    const pair = fc.tuple(
      fc.option(fc.string({ maxLength: 6, unit: fc.constantFrom("a", ":", "/", "-", "1") }), { nil: undefined }),
      fc.string({ maxLength: 6 }),
    );
    fc.assert(
      fc.property(pair, pair, ([ownerA, idA], [ownerB, idB]) => {
        fc.pre(ownerA !== ownerB || idA !== idB);
        expect(threadKey(ownerA, idA)).not.toBe(threadKey(ownerB, idB));
      }),
      { numRuns: 2000 },
    );
  });

  test("owners and ids that spell the same text together are different threads in the store", async () => {
    const store = memoryStore();
    const pairs: [string | undefined, string][] = [
      ["a", "b/c"],
      ["a/b", "c"],
      [undefined, "1:a/b/c"],
      [undefined, "3:a/b/c"],
      ["1:a", "b/c"],
    ];
    for (const [i, [owner, threadId]] of pairs.entries()) {
      const writer = await store.beginRun(runAgentInput(threadId, "r1", { messages: [user(`u${i}`)] }), { owner });
      await writer.append([finished(threadId, "r1")]);
    }
    for (const [i, [owner, threadId]] of pairs.entries()) {
      const read = await store.read(threadId, undefined, { owner });
      expect(read?.kind === "snapshot" && read.snapshot.messages).toEqual([user(`u${i}`)]);
    }
    expect(store.stats().threads).toBe(pairs.length);
  });
});

describe("bounds and the list", () => {
  test("an evicted thread leaves its owner's list at once, and the owner's listeners hear it deleted", async () => {
    const store = memoryStore({ maxThreads: 2 });
    const events: ThreadListEvent[] = [];
    store.listEvents({ owner: "alice" }).subscribe((event) => events.push(event));
    for (const threadId of ["a", "b", "c"]) {
      const writer = await store.beginRun(runAgentInput(threadId, "r1"), { owner: "alice" });
      await writer.append([finished(threadId, "r1")]);
    }
    expect((await store.list({ owner: "alice" }, { limit: 10 })).threads.map((row) => row.threadId).sort()).toEqual(["b", "c"]);
    expect(events.filter((event) => event.type === "deleted")).toEqual([{ type: "deleted", threadId: "a" }]);
    expect(await store.read("a", undefined, { owner: "alice" })).toBeUndefined();
  });

  test("deleting gives back every byte, a live run's too, and a deleted thread is no longer counted", async () => {
    const store = memoryStore();
    const idle = await store.beginRun(runAgentInput("idle", "r1", { messages: [user("u1", "x".repeat(500))] }), { owner: "alice" });
    await idle.append([ev.textMessageStart("a1"), ev.textMessageContent("a1", "y".repeat(500)), ev.textMessageEnd("a1"), finished("idle", "r1")]);
    const live = await store.beginRun(runAgentInput("live", "r1", { messages: [user("u2", "z".repeat(500))] }), { owner: "alice" });
    await live.append([ev.textMessageStart("a2"), ev.textMessageContent("a2", "w".repeat(500))]);
    expect(store.stats()).toMatchObject({ threads: 2, liveRuns: 1 });
    expect(store.stats().bytes).toBeGreaterThan(2_000);
    expect(await store.remove("idle", { owner: "alice" })).toBe(true);
    expect(await store.remove("live", { owner: "alice" })).toBe(true);
    expect(store.stats()).toMatchObject({ threads: 0, liveRuns: 0, bytes: 0, liveRunBytes: 0 });
    await expect(live.append([ev.textMessageEnd("a2")])).rejects.toThrow(
      'expected run "r1" of thread "live" to be live, but it is over (its thread was deleted)',
    );
  });
});

describe("page arguments", () => {
  test("a cursor the store did not make and a limit that is not a positive integer are refused, naming what was wrong", async () => {
    const store = memoryStore();
    for (const cursor of ["page-2", ":t1", "01:t1", "1e3:t1", "Infinity:t1", ""]) {
      await expect(store.list({ owner: "alice" }, { limit: 10, cursor })).rejects.toThrow(/expected a list cursor "<updatedAt>:<threadId>".*, but got/);
    }
    await expect(store.list({ owner: "alice" }, { limit: 10, cursor: "12:any id: with colons" })).resolves.toEqual({ threads: [] });
    await expect(store.list({ owner: "alice" }, { limit: 0 })).rejects.toThrow("list: expected limit to be a positive integer, but got 0");
    await expect(store.read("t1", undefined, { limit: 2.5 })).rejects.toThrow("read: expected limit to be a positive integer, but got 2.5");
    await expect(store.history("t1", { before: "m1", limit: -1 })).rejects.toThrow("history: expected limit to be a positive integer, but got -1");
  });

  test("listEvents without an owner completes at once: no list holds threads without one", async () => {
    await expect(lastValueFrom(memoryStore().listEvents({}).pipe(toArray()))).resolves.toEqual([]);
  });
});

describe("reading a long thread", () => {
  test("a read with a limit, a history page and the list never copy the whole path", async () => {
    const store = memoryStore();
    const messages = Array.from({ length: 10_000 }, (_, i) => user(`u${i}`));
    const writer = await store.beginRun(runAgentInput("long", "r1", { messages }), { owner: "alice" });
    await writer.append([ev.textMessageStart("a1"), ev.textMessageContent("a1", "latest")]); // a change since any copy was cached
    const copies = jest.spyOn(MessageList.prototype, "snapshot");
    try {
      const read = await store.read("long", undefined, { owner: "alice", limit: 50 });
      expect(read?.kind === "snapshot" && read.snapshot.messages.map((m) => m.id)).toEqual([...messages.slice(-49).map((m) => m.id), "a1"]);
      expect(read?.kind === "snapshot" && read.hasOlder).toBe(true);
      const page = await store.history("long", { before: "u9951", limit: 50 }, { owner: "alice" });
      expect(page?.messages.map((m) => m.id)).toEqual(messages.slice(9901, 9951).map((m) => m.id));
      expect((await store.list({ owner: "alice" }, { limit: 10 })).threads[0]).toMatchObject({
        title: "question u0",
        lastMessage: { role: "assistant", preview: "latest" },
      });
      expect(copies).not.toHaveBeenCalled();
    } finally {
      copies.mockRestore();
    }
  });
});

describe("a list of 10,000 threads of one owner", () => {
  // Its latency (the p99 ≤ 50 ms) is measured by `npm run bench -- threads`, not here: a test is never timed.
  test("pages through every thread once, in order", async () => {
    const clock = new ManualClock();
    const store = memoryStore({ maxThreads: 10_000, clock });
    for (let i = 0; i < 10_000; i++) {
      if (i % 7 === 0) clock.advance(1); // ties too
      const writer = await store.beginRun(runAgentInput(`t${i}`, "r1", { messages: [user(`u${i}`)] }), { owner: "alice" });
      await writer.append([finished(`t${i}`, "r1")]);
    }
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await store.list({ owner: "alice" }, { limit: 20, cursor });
      seen.push(...page.threads.map((row) => row.threadId));
      cursor = page.next;
    } while (cursor !== undefined);
    expect(new Set(seen).size).toBe(10_000);
    expect(seen.slice(0, 3)).toEqual(["t9996", "t9997", "t9998"]); // the last tick (9996 to 9999), ties by id
  });
});

describe("ListChanges", () => {
  test("an event is built only when its owner listens, and reaches each of that owner's listeners until they unsubscribe", () => {
    const changes = new ListChanges();
    let built = 0;
    const deleted = (threadId: string) => () => {
      built++;
      return { type: "deleted" as const, threadId };
    };
    changes.announce("alice", deleted("t0"));
    const [first, second]: ThreadListEvent[][] = [[], []];
    const one = changes.listen("alice").subscribe((event) => first.push(event));
    changes.listen("alice").subscribe((event) => second.push(event));
    changes.announce("alice", deleted("t1"));
    changes.announce("bob", deleted("t2"));
    one.unsubscribe();
    changes.announce("alice", deleted("t3"));
    expect(first.map((event) => event.type === "deleted" && event.threadId)).toEqual(["t1"]);
    expect(second.map((event) => event.type === "deleted" && event.threadId)).toEqual(["t1", "t3"]);
    expect(built).toBe(2);
  });
});
