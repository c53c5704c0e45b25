/**
 * The queue contract's runs (docs/queue.md#in-the-store): how `beginRun` keeps the queue first and
 * starts its head (`dequeue`, atomic), how a live run's `steers` offer and its appends take the
 * steers sent into it, and `selectBranch` while messages wait. Called by `describeQueueContract`
 * with the running test's store.
 */
import { StoreError } from "../../../src/server/store/StoreError";
import { answer, chat, postForked, type BranchThread } from "./branchesSupport";
import { collect, expectRefused, newOwner, nextValues, snapshotOf } from "./ownedThreadsSupport";
import {
  beginOn,
  changed,
  cursorOf,
  dequeue,
  enqueue,
  entryOf,
  finish,
  messageIdOf,
  queueIds,
  scopeOf,
  steerOf,
  takenEvents,
  type QueueContext,
  type QueueThread,
} from "./queueSupport";

/** The ids of what a source of entries gave. */
const idsOf = (entries: readonly { readonly id: string }[]): string[] => entries.map((entry) => entry.id);

/** The runs sections, against the store `ctx()` gives the running test and new threads from `thread()`. */
export function describeQueueRuns(ctx: () => QueueContext, thread: () => QueueThread): void {
  describe("beginRun", () => {
    test("a plain run waits for the queue (queue-pending, nothing logged), after run-active; passQueue runs ahead of it", async () => {
      const t = thread();
      const r1 = await beginOn(t, "r1");
      await enqueue(t, entryOf(t, "q1"));
      await expectRefused(beginOn(t, "r2"), "run-active"); // a live run answers first
      await finish(r1);
      const before = await cursorOf(t);
      await expectRefused(beginOn(t, "r2"), "queue-pending");
      expect(await cursorOf(t)).toBe(before);
      const r2 = await beginOn(t, "r2", { passQueue: true });
      expect(await queueIds(t)).toEqual(["q1"]);
      await finish(r2);
      await expectRefused(beginOn(t, "r3"), "queue-pending");
    });

    test("dequeue starts the head as its run: it leaves the queue, started, with its message in the thread", async () => {
      const t = thread();
      await finish(await beginOn(t, "r1"));
      await enqueue(t, entryOf(t, "q1"));
      await enqueue(t, entryOf(t, "f1", { policy: "interrupt" }), { front: true });
      const before = await cursorOf(t);
      await expectRefused(dequeue(t, entryOf(t, "q1")), "queue-moved"); // not the head
      expect(await cursorOf(t)).toBe(before);
      const writer = await dequeue(t, entryOf(t, "f1", { policy: "interrupt" }));
      expect(writer.runId).toBe("f1");
      expect(await t.store.queueEntry(t.threadId, "f1", scopeOf(t))).toEqual({ state: "started", runId: "f1" });
      expect(await t.store.cancelQueued(t.threadId, "f1", "too late", scopeOf(t))).toBe("started");
      expect(await queueIds(t)).toEqual(["q1"]);
      const during = snapshotOf(await t.store.read(t.threadId, undefined, scopeOf(t)));
      expect(during.run).toMatchObject({ runId: "f1", status: "running" });
      expect(during.messages.map((message) => message.id)).toContain(messageIdOf("f1"));
      await finish(writer);
      await dequeue(t, entryOf(t, "q1"));
      expect(await queueIds(t)).toBeUndefined();
    });

    test("dequeue on an empty queue, or a thread that does not exist, is queue-moved", async () => {
      const t = thread();
      await expectRefused(dequeue(t, entryOf(t, "q1")), "queue-moved");
      expect(await t.store.read(t.threadId, undefined, scopeOf(t))).toBeUndefined();
      await finish(await beginOn(t, "r1"));
      await expectRefused(dequeue(t, entryOf(t, "q1")), "queue-moved");
    });

    test("two begins of the same head at once: exactly one starts it, once", async () => {
      const t = thread();
      await finish(await beginOn(t, "r1"));
      await enqueue(t, entryOf(t, "q1"));
      await enqueue(t, entryOf(t, "q2"));
      const heard = nextValues(t.store.queueChanges(t.threadId, scopeOf(t)), 2);
      const both = await Promise.allSettled([dequeue(t, entryOf(t, "q1")), dequeue(t, entryOf(t, "q1"))]);
      expect(both.filter((result) => result.status === "fulfilled")).toHaveLength(1);
      const [lost] = both.filter((result): result is PromiseRejectedResult => result.status === "rejected");
      expect(StoreError.isInstance(lost.reason) && ["queue-moved", "run-active"].includes(lost.reason.code)).toBe(true);
      await t.store.cancelQueued(t.threadId, "q2", "after", scopeOf(t));
      expect((await heard).map(changed)).toEqual(["started q1", "cancelled q2"]);
    });

    test("a dequeue refused for another reason (run-active, history-moved) leaves the entry at the head", async () => {
      const t = thread();
      await finish(await beginOn(t, "r1"));
      const read = await cursorOf(t);
      await enqueue(t, entryOf(t, "q1"));
      const r2 = await beginOn(t, "r2", { passQueue: true });
      await expectRefused(dequeue(t, entryOf(t, "q1")), "run-active");
      await finish(r2);
      await expectRefused(dequeue(t, entryOf(t, "q1"), { expectCursor: read }), "history-moved");
      expect(await t.store.queueEntry(t.threadId, "q1", scopeOf(t))).toEqual({ state: "waiting", entry: entryOf(t, "q1") });
      expect(await queueIds(t)).toEqual(["q1"]);
      await dequeue(t, entryOf(t, "q1"), { expectCursor: await cursorOf(t) });
    });
  });

  describe("steers", () => {
    test("a run's steers: those already waiting first, then each sent later, each once per subscription; other entries never; they complete with the run", async () => {
      const t = thread();
      await finish(await beginOn(t, "r0"));
      const r1 = await beginOn(t, "r1");
      await enqueue(t, steerOf(t, "s1", "r1"), { front: true });
      await enqueue(t, entryOf(t, "q1"));
      await enqueue(t, steerOf(t, "s0", "r0"), { front: true }); // into a run that ended: a queued run, not r1's
      const first = nextValues(r1.steers, 2);
      const whole = collect(r1.steers);
      expect(await enqueue(t, steerOf(t, "s2", "r1"), { front: true })).toBe("steering");
      expect(idsOf(await first)).toEqual(["s1", "s2"]);
      expect(idsOf(await nextValues(r1.steers, 2))).toEqual(["s1", "s2"]); // a later subscription: the waiting ones again
      await finish(r1);
      expect(idsOf(await whole)).toEqual(["s1", "s2"]);
      expect(await collect(r1.steers)).toEqual([]); // the run is over
      expect(await queueIds(t)).toEqual(["s1", "s0", "s2", "q1"]);
    });

    test("an append with a steer's user message takes it, once: it leaves the queue as taken by the run; a plain entry's id is not taken", async () => {
      const t = thread();
      const r1 = await beginOn(t, "r1");
      await enqueue(t, steerOf(t, "s1", "r1"), { front: true });
      await enqueue(t, steerOf(t, "s2", "r1"), { front: true });
      await enqueue(t, entryOf(t, "q1"));
      const heard = nextValues(t.store.queueChanges(t.threadId, scopeOf(t)), 2);
      await r1.append(takenEvents(entryOf(t, "q1"))); // the same message id as the plain entry: not a steer, not taken
      await r1.append(takenEvents(steerOf(t, "s1", "r1")));
      expect(await t.store.queueEntry(t.threadId, "s1", scopeOf(t))).toEqual({ state: "taken", runId: "r1" });
      expect(await t.store.cancelQueued(t.threadId, "s1", "too late", scopeOf(t))).toBe("taken");
      expect(idsOf(await nextValues(r1.steers, 1))).toEqual(["s2"]);
      await t.store.cancelQueued(t.threadId, "s2", "after", scopeOf(t));
      expect((await heard).map(changed)).toEqual(["taken s1", "cancelled s2"]);
      expect(await queueIds(t)).toEqual(["q1"]);
      const messages = snapshotOf(await t.store.read(t.threadId, undefined, scopeOf(t))).messages;
      expect(messages.filter((message) => message.id === messageIdOf("s1"))).toEqual([{ id: messageIdOf("s1"), role: "user", content: "message s1" }]);
    });

    test("another run's append does not take a steer sent into an earlier run", async () => {
      const t = thread();
      await finish(await beginOn(t, "r1"));
      await enqueue(t, steerOf(t, "s1", "r1"), { front: true }); // r1 is over: queued
      const r2 = await beginOn(t, "r2", { passQueue: true });
      await r2.append(takenEvents(steerOf(t, "s1", "r1")));
      expect(await t.store.queueEntry(t.threadId, "s1", scopeOf(t))).toEqual({ state: "waiting", entry: steerOf(t, "s1", "r1") });
      await finish(r2);
    });

    test("a steer the run did not take stays: a queued run at the head, ahead of plain entries", async () => {
      const t = thread();
      const r1 = await beginOn(t, "r1");
      await enqueue(t, entryOf(t, "b1"));
      await enqueue(t, steerOf(t, "s1", "r1"), { front: true });
      await finish(r1);
      expect(await queueIds(t)).toEqual(["s1", "b1"]);
      expect(await t.store.queueEntry(t.threadId, "s1", scopeOf(t))).toEqual({ state: "waiting", entry: steerOf(t, "s1", "r1") });
      await expectRefused(dequeue(t, entryOf(t, "b1")), "queue-moved");
      const own = await dequeue(t, steerOf(t, "s1", "r1"));
      const offered = collect(own.steers);
      await finish(own);
      expect(await offered).toEqual([]); // its own run is not steered by it
      expect(await queueIds(t)).toEqual(["b1"]);
    });
  });

  describe("selectBranch", () => {
    test("refused (queue-pending) while messages wait: they run on the branch they were sent on", async () => {
      const t = thread();
      const owned: BranchThread = { store: t.store, owner: t.owner ?? newOwner(), threadId: t.threadId };
      await chat(owned);
      await answer((await postForked(owned, "u2")).writer, "a2b");
      await enqueue(t, entryOf(t, "q1"));
      expect(await t.store.selectBranch(t.threadId, "a2b", 0, scopeOf(t))).toBe("queue-pending");
      expect(await t.store.selectBranch(t.threadId, "a2b", 0, { owner: newOwner() })).toBe("unknown");
      await t.store.cancelQueued(t.threadId, "q1", "switch instead", scopeOf(t));
      expect(await t.store.selectBranch(t.threadId, "a2b", 0, scopeOf(t))).toBe("switched");
    });
  });
}
