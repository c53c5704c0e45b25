/**
 * The queue half of the ThreadStore contract (docs/queue.md#in-the-store) as one suite, run against
 * every store like branchesContract.ts: `describeQueueContract("memoryStore", (options) =>
 * memoryStore(options))`, and the same call with `redisStore` against a real redis-server.
 * Everything goes through the interface; time moves only through the ManualClock the factory is
 * given; hot sources are read by counting what a step makes them say (no waiting for silence: a
 * listener that must hear nothing hears a later change of its own first).
 */
import type { ThreadStore } from "../../../src/server/store/ThreadStore";
import { ManualClock } from "./manualClock";
import { newOwner, nextValues } from "./ownedThreadsSupport";
import { describeQueueRuns } from "./queueRunsContract";
import {
  beginOn,
  changed,
  dequeue,
  enqueue,
  entryOf,
  finish,
  listed,
  newQueueThread,
  queueIds,
  scopeOf,
  steerOf,
  takenEvents,
  type QueueContext,
  type QueueThread,
} from "./queueSupport";
import type { StoreFactory } from "./threadStoreContract";

const LEASE = 1000;
const MAX_RUNS = 50;

/** Runs `describe(name)` with the queue contract against stores from `make`. */
export function describeQueueContract(name: string, make: StoreFactory, close: (store: ThreadStore) => Promise<void> = async () => undefined): void {
  describe(`ThreadStore queue: ${name}`, () => {
    const context: { current?: QueueContext } = {};
    const ctx = (): QueueContext => {
      if (context.current === undefined) throw new Error("the store is made in beforeEach");
      return context.current;
    };
    const thread = (): QueueThread => newQueueThread(ctx().store);
    beforeEach(async () => {
      const clock = new ManualClock();
      context.current = { clock, lease: LEASE, store: await make({ clock, lease: LEASE, maxRunsPerThread: MAX_RUNS }) };
    });
    afterEach(() => close(ctx().store));

    describe("enqueue", () => {
      test("only on the owner's own thread: a thread that does not exist, another owner's and the ownerless one of the same id are unknown", async () => {
        const t = thread();
        expect(await enqueue(t, entryOf(t, "q1"))).toBe("unknown"); // nothing stored yet
        await finish(await beginOn(t, "r1"));
        const stranger: QueueThread = { ...t, owner: newOwner() };
        const nobody: QueueThread = { ...t, owner: undefined };
        expect(await enqueue(stranger, entryOf(stranger, "q1"))).toBe("unknown");
        expect(await enqueue(nobody, entryOf(nobody, "q1"))).toBe("unknown");
        expect(await queueIds(t)).toBeUndefined();
        expect(await enqueue(t, entryOf(t, "q1"))).toBe("queued");
        expect(await queueIds(t)).toEqual(["q1"]);
        for (const other of [stranger, nobody]) {
          expect(await t.store.queueEntry(t.threadId, "q1", scopeOf(other))).toEqual({ state: "unknown" });
          expect(await t.store.cancelQueued(t.threadId, "q1", "not mine", scopeOf(other))).toBe("unknown");
          expect(await t.store.read(t.threadId, undefined, scopeOf(other))).toBeUndefined();
        }
        expect(await t.store.queueEntry(t.threadId, "q1", scopeOf(t))).toEqual({ state: "waiting", entry: entryOf(t, "q1") });
      });

      test("front entries run first, each part in the order sent; reads (with a limit too) list the whole entries in that order", async () => {
        const t = thread();
        await beginOn(t, "r1");
        expect(await enqueue(t, entryOf(t, "b1"))).toBe("queued");
        expect(await enqueue(t, entryOf(t, "f1", { policy: "interrupt" }), { front: true })).toBe("queued");
        expect(await enqueue(t, entryOf(t, "b2"))).toBe("queued");
        expect(await enqueue(t, entryOf(t, "f2", { policy: "interrupt" }), { front: true })).toBe("queued");
        expect(await queueIds(t)).toEqual(["f1", "f2", "b1", "b2"]);
        const limited = await t.store.read(t.threadId, undefined, { ...scopeOf(t), limit: 1 });
        expect(limited?.kind === "snapshot" && limited.queue).toEqual([
          entryOf(t, "f1", { policy: "interrupt" }),
          entryOf(t, "f2", { policy: "interrupt" }),
          entryOf(t, "b1"),
          entryOf(t, "b2"),
        ]);
      });

      test("full at max entries, front or back; a cancel makes room again", async () => {
        const t = thread();
        await beginOn(t, "r1");
        expect(await enqueue(t, entryOf(t, "q1"), { max: 2 })).toBe("queued");
        expect(await enqueue(t, entryOf(t, "q2"), { max: 2 })).toBe("queued");
        expect(await enqueue(t, entryOf(t, "q3"), { max: 2 })).toBe("full");
        expect(await enqueue(t, steerOf(t, "s1", "r1"), { max: 2, front: true })).toBe("full");
        expect(await t.store.queueEntry(t.threadId, "q3", scopeOf(t))).toEqual({ state: "unknown" });
        expect(await t.store.cancelQueued(t.threadId, "q1", "room", scopeOf(t))).toBe("cancelled");
        expect(await enqueue(t, entryOf(t, "q3"), { max: 2 })).toBe("queued");
        expect(await queueIds(t)).toEqual(["q2", "q3"]);
      });

      test("duplicate: the id of a waiting entry, of a run of the thread (live or ended), or of an entry that left", async () => {
        const t = thread();
        await finish(await beginOn(t, "r0"));
        await beginOn(t, "r1");
        expect(await enqueue(t, entryOf(t, "q1"))).toBe("queued");
        expect(await enqueue(t, entryOf(t, "q1"), { front: true })).toBe("duplicate");
        expect(await enqueue(t, entryOf(t, "r1"))).toBe("duplicate");
        expect(await enqueue(t, entryOf(t, "r0"))).toBe("duplicate");
        await t.store.cancelQueued(t.threadId, "q1", "gone", scopeOf(t));
        expect(await enqueue(t, entryOf(t, "q1"))).toBe("duplicate");
        expect(await queueIds(t)).toBeUndefined();
      });

      test("deleted while the thread's tombstone stands; its queue went with it", async () => {
        const t = thread();
        await beginOn(t, "r1");
        await enqueue(t, entryOf(t, "q1"));
        expect(await t.store.remove(t.threadId, scopeOf(t))).toBe(true);
        expect(await enqueue(t, entryOf(t, "q2"))).toBe("deleted");
        expect(await t.store.queueEntry(t.threadId, "q1", scopeOf(t))).toEqual({ state: "unknown" });
        expect(await t.store.cancelQueued(t.threadId, "q1", "late", scopeOf(t))).toBe("unknown");
        const stranger: QueueThread = { ...t, owner: newOwner() };
        expect(await enqueue(stranger, entryOf(stranger, "q2"))).toBe("unknown"); // another owner's key has no tombstone
      });

      test("steering only for a steer into the live run; a steer into a run that ended (its lease too) is queued", async () => {
        const { clock, lease } = ctx();
        const t = thread();
        await beginOn(t, "r1");
        expect(await enqueue(t, steerOf(t, "s1", "r1"), { front: true })).toBe("steering");
        expect(await enqueue(t, steerOf(t, "s2", "r0"), { front: true })).toBe("queued");
        expect(await enqueue(t, entryOf(t, "q1"))).toBe("queued");
        const ended = nextValues(t.store.queueChanges(t.threadId, scopeOf(t)), 1);
        clock.advance(lease); // r1's producer is silent: ended ABANDONED
        expect((await ended).map(changed)).toEqual(["ended r1"]);
        expect(await enqueue(t, steerOf(t, "s3", "r1"), { front: true })).toBe("queued");
        expect(await queueIds(t)).toEqual(["s1", "s2", "s3", "q1"]);
      });
    });

    describe("cancelQueued and queueEntry", () => {
      test("a cancel takes the entry out and remembers why; again it answers cancelled with the first reason; an unknown id is unknown", async () => {
        const t = thread();
        await beginOn(t, "r1");
        await enqueue(t, entryOf(t, "q1"));
        await enqueue(t, entryOf(t, "q2"));
        expect(await t.store.cancelQueued(t.threadId, "q1", "changed my mind", scopeOf(t))).toBe("cancelled");
        expect(await t.store.queueEntry(t.threadId, "q1", scopeOf(t))).toEqual({ state: "cancelled", reason: "changed my mind" });
        expect(await t.store.cancelQueued(t.threadId, "q1", "again", scopeOf(t))).toBe("cancelled");
        expect(await t.store.queueEntry(t.threadId, "q1", scopeOf(t))).toEqual({ state: "cancelled", reason: "changed my mind" });
        expect(await t.store.cancelQueued(t.threadId, "q9", "never sent", scopeOf(t))).toBe("unknown");
        expect(await t.store.queueEntry(t.threadId, "q9", scopeOf(t))).toEqual({ state: "unknown" });
        expect(await queueIds(t)).toEqual(["q2"]);
      });

      test("the outcomes of at least the last 64 entries are kept", async () => {
        const t = thread();
        await beginOn(t, "r1");
        for (let i = 0; i < 70; i++) {
          await enqueue(t, entryOf(t, `c${i}`), { max: 1 });
          await t.store.cancelQueued(t.threadId, `c${i}`, `reason ${i}`, scopeOf(t));
        }
        for (let i = 70 - 64; i < 70; i++)
          expect(await t.store.queueEntry(t.threadId, `c${i}`, scopeOf(t))).toEqual({ state: "cancelled", reason: `reason ${i}` });
      });
    });

    describe("announcements", () => {
      test("queueChanges: enqueued, taken, cancelled, ended, started, and ended by the lease, in order; never another owner's thread", async () => {
        const { clock, lease } = ctx();
        const t = thread();
        const heard = nextValues(t.store.queueChanges(t.threadId, scopeOf(t)), 8);
        const stranger: QueueThread = { ...t, owner: newOwner() };
        const his = nextValues(t.store.queueChanges(t.threadId, scopeOf(stranger)), 1);
        const r1 = await beginOn(t, "r1");
        await enqueue(t, entryOf(t, "q1"));
        await enqueue(t, steerOf(t, "s1", "r1"), { front: true });
        await r1.append(takenEvents(steerOf(t, "s1", "r1")));
        await t.store.cancelQueued(t.threadId, "q1", "no", scopeOf(t));
        await enqueue(t, entryOf(t, "q2"));
        await finish(r1);
        await dequeue(t, entryOf(t, "q2"));
        clock.advance(lease); // q2's run is silent: ended ABANDONED
        expect((await heard).map(changed)).toEqual([
          "enqueued q1",
          "enqueued s1",
          "taken s1",
          "cancelled q1",
          "enqueued q2",
          "ended r1",
          "started q2",
          "ended q2",
        ]);
        await beginOn(stranger, "b1");
        await enqueue(stranger, entryOf(stranger, "bq")); // his own thread of the same id: the first change he hears
        expect((await his).map(changed)).toEqual(["enqueued bq"]);
      });

      test("queueChanges: deleting a thread ends its live run and cancels its waiting entries", async () => {
        const t = thread();
        await beginOn(t, "r1");
        await enqueue(t, entryOf(t, "q1"));
        const heard = nextValues(t.store.queueChanges(t.threadId, scopeOf(t)), 2);
        await t.store.remove(t.threadId, scopeOf(t));
        expect((await heard).map(changed).sort()).toEqual(["cancelled q1", "ended r1"]);
      });

      test("listEvents: each queue change with the entry as listed (queued, steering), to the owner only", async () => {
        const t = thread();
        const owner = t.owner ?? "";
        const hers = nextValues(t.store.listEvents({ owner }), 9);
        const stranger: QueueThread = { ...t, owner: newOwner() };
        const his = nextValues(t.store.listEvents(scopeOf(stranger)), 1);
        const r1 = await beginOn(t, "r1");
        await enqueue(t, entryOf(t, "q1"));
        await enqueue(t, steerOf(t, "s1", "r1"), { front: true });
        await t.store.cancelQueued(t.threadId, "q1", "no", scopeOf(t));
        await r1.append(takenEvents(steerOf(t, "s1", "r1")));
        await enqueue(t, entryOf(t, "q2"));
        await finish(r1);
        await dequeue(t, entryOf(t, "q2"));
        const id = t.threadId;
        const events = (await hers).map(listed);
        expect(events.slice(0, 7)).toEqual([
          `created ${id}`,
          `queue-enqueued ${id} q1 queued`,
          `queue-enqueued ${id} s1 steering`,
          `queue-cancelled ${id} q1 queued`,
          `queue-taken ${id} s1 steering`,
          `queue-enqueued ${id} q2 queued`,
          `run-ended ${id}`,
        ]);
        expect(events.slice(7).sort()).toEqual([`queue-started ${id} q2 queued`, `run-started ${id}`]); // the start and the dequeue are one step
        await beginOn(stranger, "b1"); // his own thread: the first change he hears
        expect((await his).map(listed)).toEqual([`created ${id}`]);
      });

      test("listEvents: waiting while no run is live and the thread waits on interrupts or client tool results", async () => {
        const t = thread();
        const owner = t.owner ?? "";
        const hers = nextValues(t.store.listEvents({ owner }), 6);
        const r1 = await beginOn(t, "r1");
        await r1.append([
          { type: "RUN_FINISHED", threadId: t.threadId, runId: "r1", outcome: { type: "interrupt", interrupts: [{ id: "i1", reason: "approve" }] } },
        ]);
        await enqueue(t, entryOf(t, "q1"));
        const r2 = await beginOn(t, "r2", { passQueue: true }); // answers the interrupt, ahead of the queue
        await r2.append([{ type: "RUN_FINISHED", threadId: t.threadId, runId: "r2", outcome: { type: "success", pendingToolCallIds: ["c1"] } }]);
        await enqueue(t, entryOf(t, "q2"));
        const id = t.threadId;
        expect((await hers).map(listed)).toEqual([
          `created ${id}`,
          `run-ended ${id}`,
          `queue-enqueued ${id} q1 waiting`,
          `run-started ${id}`,
          `run-ended ${id}`,
          `queue-enqueued ${id} q2 waiting`,
        ]);
      });
    });

    describeQueueRuns(ctx, thread);
  });
}
