/**
 * The owned-threads half of the ThreadStore contract (docs/threads.md#owners, #the-thread-list,
 * #paginated-history) as one suite, run against every store like threadStoreContract.ts:
 * `describeOwnedThreads("memoryStore", (options) => memoryStore(options))`, and the same call with
 * `redisStore` against a real redis-server. Everything goes through the interface; time moves only
 * through the ManualClock the factory is given (leases, tombstones, `updatedAt`).
 *
 * Listening tests assume what the contract says of `listEvents`: hot from subscription on, so a
 * change made right after subscribing is heard.
 */
import { ev } from "../../../src/protocol/build";
import { StoreError } from "../../../src/server/store/StoreError";
import type { ThreadStore } from "../../../src/server/store/ThreadStore";
import { ManualClock } from "./manualClock";
import {
  begin,
  collect,
  conversation,
  expectRefused,
  finished,
  newOwner,
  newThreadId,
  snapshotOf,
  text,
  turn,
  user,
  type OwnedContext,
} from "./ownedThreadsSupport";
import type { StoreFactory } from "./threadStoreContract";
import { describeThreadList } from "./threadListContract";

const LEASE = 1000;
const MAX_RUNS = 3;

/** Runs `describe(name)` with the owned-threads contract against stores from `make`. */
export function describeOwnedThreads(name: string, make: StoreFactory, close: (store: ThreadStore) => Promise<void> = async () => undefined): void {
  describe(`ThreadStore owned threads: ${name}`, () => {
    const context: { current?: OwnedContext } = {};
    const ctx = (): OwnedContext => {
      if (context.current === undefined) throw new Error("the store is made in beforeEach");
      return context.current;
    };
    beforeEach(async () => {
      const clock = new ManualClock();
      context.current = { clock, lease: LEASE, store: await make({ clock, lease: LEASE, maxRunsPerThread: MAX_RUNS }) };
    });
    afterEach(() => close(ctx().store));

    describe("owners", () => {
      test("the same thread id under two owners is two threads: each reads its own, and neither's live run blocks the other", async () => {
        const { store } = ctx();
        const [alice, bob, threadId] = [newOwner(), newOwner(), newThreadId()];
        const hers = await begin(store, alice, threadId, "r1", [user("ua", "from alice")]);
        const his = await begin(store, bob, threadId, "r1", [user("ub", "from bob")]);
        expect(snapshotOf(await store.read(threadId, undefined, { owner: alice })).messages).toEqual([user("ua", "from alice")]);
        expect(snapshotOf(await store.read(threadId, undefined, { owner: bob })).messages).toEqual([user("ub", "from bob")]);
        await his.append([finished(threadId, "r1")]);
        expect(snapshotOf(await store.read(threadId, undefined, { owner: alice })).run.status).toBe("running");
        await hers.append([finished(threadId, "r1")]);
        expect((await store.list({ owner: alice }, { limit: 10 })).threads.map((row) => row.threadId)).toEqual([threadId]);
      });

      test("another owner's thread answers exactly as an unknown one on every operation, and is left untouched", async () => {
        const { store } = ctx();
        const [alice, bob, threadId, unknown] = [newOwner(), newOwner(), newThreadId(), newThreadId()];
        const writer = await begin(store, alice, threadId, "r1", [user("u1", "mine")]);
        const [cursor] = await writer.append(text("a1", "secret"));
        const stopWatch = collect(writer.stopRequested);
        for (const scope of [{ owner: bob }, {}]) {
          const answers = async (id: string) => ({
            read: await store.read(id, undefined, scope),
            readAfter: await store.read(id, cursor, { ...scope, limit: 5 }),
            tail: await collect(store.tail(id, cursor, scope)).then(
              () => "completed",
              (error: unknown) => (StoreError.isInstance(error) ? error.code : "other"),
            ),
            stop: await store.stop(id, "r1", scope),
            update: await store.update(id, { title: "taken" }, scope),
            history: await store.history(id, { before: "a1", limit: 5 }, scope),
            remove: await store.remove(id, scope),
          });
          const foreign = await answers(threadId);
          expect(foreign).toEqual(await answers(unknown));
          expect(foreign).toEqual({
            read: undefined,
            readAfter: undefined,
            tail: "evicted",
            stop: "unknown",
            update: undefined,
            history: undefined,
            remove: false,
          });
        }
        await writer.append([finished(threadId, "r1")]);
        expect(await stopWatch).toEqual([]); // the stop asked as bob never reached alice's run
        const [row] = (await store.list({ owner: alice }, { limit: 10 })).threads;
        expect(row).toMatchObject({ threadId, title: "mine", archived: false });
        expect(snapshotOf(await store.read(threadId, undefined, { owner: alice })).messages.map((m) => m.id)).toEqual(["u1", "a1"]);
      });

      test("threads without an owner are invisible to every owner, and no owner's thread is visible without one", async () => {
        const { store } = ctx();
        const [alice, ownerless, hers] = [newOwner(), newThreadId(), newThreadId()];
        await turn(store, undefined, ownerless, 1);
        await turn(store, alice, hers, 1);
        expect(await store.read(ownerless, undefined, { owner: alice })).toBeUndefined();
        expect(await store.read(hers)).toBeUndefined();
        expect(snapshotOf(await store.read(ownerless)).messages.map((m) => m.id)).toEqual(["u1", "a1"]);
        expect((await store.list({ owner: alice }, { limit: 10 })).threads.map((row) => row.threadId)).toEqual([hers]);
        expect(await store.list({}, { limit: 10 })).toEqual({ threads: [] });
      });
    });

    describe("beginRun with expectCursor", () => {
      test("null starts a new thread; the thread's last cursor starts the next run; anything else is history-moved and logs nothing", async () => {
        const { store } = ctx();
        const [owner, threadId] = [newOwner(), newThreadId()];
        const first = await begin(store, owner, threadId, "r1", [user("u1", "hi")], { expectCursor: null });
        const cursors = await first.append([...text("a1", "hello"), finished(threadId, "r1")]);
        const end = cursors[cursors.length - 1];
        const before = snapshotOf(await store.read(threadId, undefined, { owner }));
        expect(before.cursor).toBe(end);
        for (const stale of [null, first.started.cursor, "not-a-cursor"]) {
          const error = await expectRefused(begin(store, owner, threadId, "r2", [user("u2", "again")], { expectCursor: stale }), "history-moved");
          expect(error.message).toMatch(/expected .+, but /);
        }
        expect(snapshotOf(await store.read(threadId, undefined, { owner }))).toEqual(before);
        await expect(begin(store, owner, threadId, "r2", [user("u2", "again")], { expectCursor: end })).resolves.toMatchObject({ runId: "r2" });
      });

      test("a cursor expected on a thread the caller does not have is history-moved; null on another owner's id starts the caller's own", async () => {
        const { store } = ctx();
        const [alice, bob, threadId] = [newOwner(), newOwner(), newThreadId()];
        const hers = await turn(store, alice, threadId, 1);
        await expectRefused(begin(store, bob, threadId, "r1", [], { expectCursor: hers.writer.started.cursor }), "history-moved");
        await expect(begin(store, bob, threadId, "r1", [user("b1", "mine")], { expectCursor: null })).resolves.toMatchObject({ runId: "r1" });
      });
    });

    describe("read with a limit and history pages", () => {
      test("read with a limit gives the last messages of the path and whether older ones exist; the rest of the snapshot is whole", async () => {
        const { store } = ctx();
        const [owner, threadId] = [newOwner(), newThreadId()];
        const path = await conversation(store, owner, threadId, 3);
        const whole = snapshotOf(await store.read(threadId, undefined, { owner }));
        expect(whole.messages).toEqual(path);
        for (const [limit, hasOlder] of [
          [1, true],
          [4, true],
          [6, false],
          [50, false],
        ] as const) {
          const read = await store.read(threadId, undefined, { owner, limit });
          expect(read).toEqual({ kind: "snapshot", snapshot: { ...whole, messages: path.slice(-limit) }, hasOlder });
        }
      });

      test("history pages walk back from the oldest message read to the first, oldest first, without gaps or repeats", async () => {
        const { store } = ctx();
        const [owner, threadId] = [newOwner(), newThreadId()];
        const path = await conversation(store, owner, threadId, 4); // u1 a1 … u4 a4
        const read = await store.read(threadId, undefined, { owner, limit: 3 });
        let held = snapshotOf(read).messages;
        const pages: boolean[] = [];
        for (let hasOlder = read?.kind === "snapshot" && read.hasOlder === true; hasOlder;) {
          const page = await store.history(threadId, { before: held[0].id, limit: 2 }, { owner });
          if (page === undefined) throw new Error(`expected a page before ${held[0].id}`);
          held = [...page.messages, ...held];
          hasOlder = page.hasOlder;
          pages.push(page.hasOlder);
        }
        expect(held).toEqual(path);
        expect(pages).toEqual([true, true, false]); // 5 older messages in pages of 2
        expect(await store.history(threadId, { before: "a2", limit: 10 }, { owner })).toEqual({ messages: path.slice(0, 3), hasOlder: false });
        expect(await store.history(threadId, { before: "u1", limit: 10 }, { owner })).toEqual({ messages: [], hasOlder: false });
        expect(await store.history(threadId, { before: "nope", limit: 10 }, { owner })).toBeUndefined();
        expect(await store.history(newThreadId(), { before: "a2", limit: 10 }, { owner })).toBeUndefined();
      });
    });

    describe("remove and the tombstone", () => {
      test("remove stops the live run, forgets everything, and keeps late writes out for two leases; then the id is a new thread", async () => {
        const { store, clock } = ctx();
        const [owner, threadId] = [newOwner(), newThreadId()];
        const path = (await turn(store, owner, threadId, 1)).path;
        const writer = await begin(store, owner, threadId, "r2", [...path, user("u2", "more")]);
        const [cursor] = await writer.append(text("a2", "partial"));
        const tail = collect(store.tail(threadId, cursor, { owner }));
        const stopped = collect(writer.stopRequested);
        expect(await store.remove(threadId, { owner })).toBe(true);
        expect(await stopped).toEqual([undefined]); // its producer hears the stop
        await expectRefused(tail, "evicted"); // a tail of it ends instead of waiting
        expect(await store.read(threadId, undefined, { owner })).toBeUndefined();
        expect(await store.read(threadId, cursor, { owner })).toBeUndefined();
        expect(await store.history(threadId, { before: "a2", limit: 5 }, { owner })).toBeUndefined();
        expect(await store.stop(threadId, "r2", { owner })).toBe("unknown");
        expect(await store.update(threadId, { archived: true }, { owner })).toBeUndefined();
        expect(await store.list({ owner }, { limit: 10 })).toEqual({ threads: [] });
        expect(await store.remove(threadId, { owner })).toBe(false);

        // The tombstone: the cancelled end, an ABANDONED, a queued run write nothing back.
        await expectRefused(writer.append([ev.runFinished(threadId, "r2", { outcome: { type: "cancelled" } })]), "run-ended");
        expect(await writer.renewLease()).toBe(false);
        await expectRefused(writer.setTitle("late"), "run-ended");
        clock.advance(LEASE); // past the lease: nothing ends the run ABANDONED into a new record
        await expectRefused(begin(store, owner, threadId, "r3", [user("u3", "queued")]), "deleted");
        clock.advance(LEASE - 1);
        const refused = await expectRefused(begin(store, owner, threadId, "r3", [user("u3", "queued")]), "deleted");
        expect(refused.threadId).toBe(threadId);
        expect(await store.read(threadId, undefined, { owner })).toBeUndefined();
        expect(await store.list({ owner }, { limit: 10 })).toEqual({ threads: [] });

        clock.advance(1); // two leases after the delete
        const fresh = await begin(store, owner, threadId, "r1", [user("n1", "new")], { expectCursor: null });
        await fresh.append([finished(threadId, "r1")]);
        expect(snapshotOf(await store.read(threadId, undefined, { owner })).messages).toEqual([user("n1", "new")]);
        const [row] = (await store.list({ owner }, { limit: 10 })).threads;
        expect(row).toMatchObject({ threadId, title: "new", createdAt: 2 * LEASE, running: false });
      });

      test("a tombstone is the owner's: another owner starts the same id meanwhile as a new thread of their own", async () => {
        const { store } = ctx();
        const [alice, bob, threadId] = [newOwner(), newOwner(), newThreadId()];
        await turn(store, alice, threadId, 1);
        expect(await store.remove(threadId, { owner: alice })).toBe(true);
        const his = await turn(store, bob, threadId, 1);
        expect(snapshotOf(await store.read(threadId, undefined, { owner: bob })).messages).toEqual(his.path);
        await expectRefused(begin(store, alice, threadId, "r2"), "deleted");
      });
    });

    describeThreadList(ctx);

    describe("pendingToolCallIds (passes once ThreadFold fills it: branch threads-pending)", () => {
      test("the client tool calls a run left to the client are kept in the snapshot, also when read with a limit", async () => {
        const { store } = ctx();
        const [owner, threadId] = [newOwner(), newThreadId()];
        const writer = await begin(store, owner, threadId, "r1", [user("u1", "where am I?")]);
        await writer.append([ev.toolCallStart("tc1", "geolocate", { parentMessageId: "a1" }), ev.toolCallArgs("tc1", "{}"), ev.toolCallEnd("tc1")]);
        // a success outcome names the calls left to the client (AG-UI 1.0.0), as the driver's RUN_FINISHED does
        await writer.append([ev.runFinished(threadId, "r1", { outcome: { type: "success", pendingToolCallIds: ["tc1"] } })]);
        expect(snapshotOf(await store.read(threadId, undefined, { owner })).pendingToolCallIds).toEqual(["tc1"]);
        expect(snapshotOf(await store.read(threadId, undefined, { owner, limit: 1 })).pendingToolCallIds).toEqual(["tc1"]);
      });
    });
  });
}
