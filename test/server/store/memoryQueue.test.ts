/**
 * What the memory store decides about its queues beyond the contract (docs/queue.md#in-the-store):
 * waiting messages count in its byte total, threads with waiting messages are evicted last and take
 * their queue with them, outcomes are bounded, and steers are offered in order to a subscriber that
 * sends or takes steers while it is offered one.
 */
import { lastValueFrom, toArray } from "rxjs";
import { ev } from "../../../src/protocol/build";
import { memoryStore, type MemoryStore } from "../../../src/server/store/memory/memoryStore";
import { QUEUE_OUTCOMES_KEPT } from "../../../src/server/store/memory/ThreadQueue";
import type { QueuedRun } from "../../../src/server/store/QueuedRun";
import { ManualClock } from "./manualClock";
import { expectRefused, nextValues } from "./ownedThreadsSupport";
import { beginOn, changed, enqueue, entryOf, finish, newQueueThread, queueIds, scopeOf, steerOf, takenEvents, type QueueThread } from "./queueSupport";

const sizeOf = (entry: QueuedRun): number => JSON.stringify(entry).length;

describe("memoryStore queue: bytes", () => {
  test("a waiting message's JSON text counts in the byte total while it waits; cancelled or taken, it is given back", async () => {
    const store = memoryStore({ clock: new ManualClock() });
    const t = newQueueThread(store);
    const r1 = await beginOn(t, "r1");
    const base = store.stats().bytes;
    await enqueue(t, entryOf(t, "q1"));
    await enqueue(t, steerOf(t, "s1", "r1"), { front: true });
    expect(store.stats().bytes).toBe(base + sizeOf(entryOf(t, "q1")) + sizeOf(steerOf(t, "s1", "r1")));
    await store.cancelQueued(t.threadId, "q1", "no", scopeOf(t));
    expect(store.stats().bytes).toBe(base + sizeOf(steerOf(t, "s1", "r1")));
    const beforeTake = store.stats().bytes;
    const taken = takenEvents(steerOf(t, "s1", "r1"));
    await r1.append(taken);
    const logged = taken.reduce((total, event) => total + JSON.stringify(event).length, 0);
    // the take's events count twice while the run is live (its log, and what it may add to the state: docs/durability.md §6)
    expect(store.stats().bytes).toBe(beforeTake - sizeOf(steerOf(t, "s1", "r1")) + 2 * logged);
  });

  test("a store with no room it may free for a message answers full, and keeps nothing of it", async () => {
    const store = memoryStore({ clock: new ManualClock(), maxBytes: 4096, maxRunBytes: 2048 });
    const t = newQueueThread(store);
    await beginOn(t, "r1");
    const huge: QueuedRun = { ...entryOf(t, "q1"), input: { ...entryOf(t, "q1").input, context: [{ description: "big", value: "x".repeat(8192) }] } };
    const before = store.stats().bytes;
    expect(await enqueue(t, huge)).toBe("full");
    expect(store.stats().bytes).toBe(before);
    expect(await queueIds(t)).toBeUndefined();
  });
});

describe("memoryStore queue: eviction", () => {
  test("an idle thread with waiting messages goes after those without; evicted, its queue goes too and its listeners hear it cancelled", async () => {
    const store: MemoryStore = memoryStore({ clock: new ManualClock(), maxThreads: 2 });
    const waiting = newQueueThread(store);
    await finish(await beginOn(waiting, "r1"));
    await enqueue(waiting, entryOf(waiting, "q1")); // an interrupted thread's waiting message, say
    const idle = newQueueThread(store);
    await finish(await beginOn(idle, "r1"));
    const third = newQueueThread(store);
    const live = await beginOn(third, "r1"); // evicts `idle`, though `waiting` was used less recently
    expect(await store.read(idle.threadId, undefined, scopeOf(idle))).toBeUndefined();
    expect(await queueIds(waiting)).toEqual(["q1"]);
    const heard = nextValues(store.queueChanges(waiting.threadId, scopeOf(waiting)), 1);
    await beginOn(newQueueThread(store), "r1"); // nothing else may go now
    expect((await heard).map(changed)).toEqual(["cancelled q1"]);
    expect(await store.queueEntry(waiting.threadId, "q1", scopeOf(waiting))).toEqual({ state: "unknown" });
    expect(store.stats()).toMatchObject({ threads: 2, evictedThreads: 2 });
    await finish(live);
  });
});

describe("memoryStore queue: bounds and order", () => {
  test(`outcomes are kept for the last ${QUEUE_OUTCOMES_KEPT} entries only`, async () => {
    const store = memoryStore({ clock: new ManualClock() });
    const t = newQueueThread(store);
    await beginOn(t, "r1");
    const count = QUEUE_OUTCOMES_KEPT + 6;
    for (let i = 0; i < count; i++) {
      await enqueue(t, entryOf(t, `c${i}`), { max: 1 });
      await store.cancelQueued(t.threadId, `c${i}`, `reason ${i}`, scopeOf(t));
    }
    for (let i = 0; i < 6; i++) expect(await store.queueEntry(t.threadId, `c${i}`, scopeOf(t))).toEqual({ state: "unknown" });
    expect(await store.queueEntry(t.threadId, "c6", scopeOf(t))).toEqual({ state: "cancelled", reason: "reason 6" });
  });

  test("a steers subscriber that sends and takes steers while offered one sees each waiting steer once, in order", async () => {
    const store = memoryStore({ clock: new ManualClock() });
    const t: QueueThread = newQueueThread(store);
    const r1 = await beginOn(t, "r1");
    await enqueue(t, steerOf(t, "s1", "r1"), { front: true });
    await enqueue(t, steerOf(t, "s2", "r1"), { front: true });
    const offered: string[] = [];
    r1.steers.subscribe((entry) => {
      offered.push(entry.id);
      if (entry.id !== "s1") return;
      // while s1 is offered: s2 is taken (so it is not offered), and s3 is sent (offered after s1)
      void r1.append(takenEvents(steerOf(t, "s2", "r1")));
      void enqueue(t, steerOf(t, "s3", "r1"), { front: true });
    });
    const done = lastValueFrom(r1.steers.pipe(toArray())); // a later subscriber: what waits then, s1 and s3
    await finish(r1);
    expect(offered).toEqual(["s1", "s3"]);
    expect((await done).map((entry) => entry.id)).toEqual(["s1", "s3"]);
  });

  test("a run the store ends RUN_TOO_LARGE is announced ended; its steers complete and stay queued", async () => {
    const store = memoryStore({ clock: new ManualClock(), maxBytes: 64 * 1024, maxRunBytes: 2048 });
    const t = newQueueThread(store);
    const r1 = await beginOn(t, "r1");
    await enqueue(t, steerOf(t, "s1", "r1"), { front: true });
    const heard = nextValues(store.queueChanges(t.threadId, scopeOf(t)), 1);
    const steers = lastValueFrom(r1.steers.pipe(toArray()));
    await expectRefused(r1.append([ev.textMessageStart("a1"), ev.textMessageContent("a1", "x".repeat(4096))]), "run-too-large");
    expect((await heard).map(changed)).toEqual(["ended r1"]);
    expect((await steers).map((entry) => entry.id)).toEqual(["s1"]);
    expect(await queueIds(t)).toEqual(["s1"]);
  });
});
