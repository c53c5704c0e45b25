/**
 * The branches half of the ThreadStore contract (docs/threads.md#the-tree, #edit-and-regenerate,
 * #branches-on-the-wire) as one suite, run against every store like ownedThreadsContract.ts:
 * `describeBranches("memoryStore", (options) => memoryStore(options))`, and the same call with
 * `redisStore` against a real redis-server. Every post is begun as the HTTP handler begins it
 * (`beginReconciledRun`), so a fork is found by the history rules and passed as `forkAfter`; every
 * expectation follows from the scenario (the ids, texts and states the test itself posts).
 */
import { lastValueFrom, toArray } from "rxjs";
import { forkMarkerOf } from "../../../src/protocol/branchMeta";
import type { ThreadStore } from "../../../src/server/store/ThreadStore";
import { applyEvent } from "../../../src/thread/reducers/applyEvent";
import { ClientState } from "../../../src/thread/reducers/ClientState";
import { ManualClock } from "./manualClock";
import { answer, answered, chat, current, ids, postForked, postWhole, type BranchThread } from "./branchesSupport";
import { describeBranchSwitches, type BranchesContext } from "./branchesSwitchContract";
import { newOwner, newThreadId, user } from "./ownedThreadsSupport";
import type { StoreFactory } from "./threadStoreContract";
import { asLogged } from "../../support/storedEvents";

const LEASE = 1000;
const MAX_RUNS = 50;

/** Runs `describe(name)` with the branches contract against stores from `make`. */
export function describeBranches(name: string, make: StoreFactory, close: (store: ThreadStore) => Promise<void> = async () => undefined): void {
  describe(`ThreadStore branches: ${name}`, () => {
    const context: { current?: BranchesContext } = {};
    const ctx = (): BranchesContext => {
      if (context.current === undefined) throw new Error("the store is made in beforeEach");
      return context.current;
    };
    const thread = (): BranchThread => ({ store: ctx().store, owner: newOwner(), threadId: newThreadId() });
    beforeEach(async () => {
      const clock = new ManualClock();
      context.current = { clock, lease: LEASE, store: await make({ clock, lease: LEASE, maxRunsPerThread: MAX_RUNS }), thread };
    });
    afterEach(() => close(ctx().store));

    describe("forks", () => {
      test("a regenerate makes a sibling answer: its RUN_STARTED carries the marker, and it starts from the state before its user message's run", async () => {
        const t = thread();
        const path = await chat(t);
        const begun = await postForked(t, "u2");
        expect(forkMarkerOf(begun.writer.started.event.metadata)).toEqual({ after: "u2", siblingIds: ["a2"] });
        // u2's run started with a1's state ({ n: 1 }); a2 set { n: 2 }, which the new answer must not see
        expect(begun.input.state).toEqual({ n: 1 });
        const during = await current(t);
        expect(during.messages).toEqual(path.slice(0, 3));
        expect(during.state).toEqual({ n: 1 });
        expect(during.branches?.groups).toEqual([{ after: "u2", selected: 1, siblingIds: ["a2", ""] }]);
        await answer(begun.writer, "a2b", { state: { n: 3 } });
        const after = await current(t);
        expect(after.messages).toEqual([...path.slice(0, 3), answered("a2b")]);
        expect(after.state).toEqual({ n: 3 });
        expect(after.branches?.groups).toEqual([{ after: "u2", selected: 1, siblingIds: ["a2", "a2b"] }]);

        // by shape (the official client posts the path up to u2 again): a third sibling, after the two earlier ones
        const again = await postWhole(t, [], (whole) => whole.slice(0, 3));
        expect(forkMarkerOf(again.writer.started.event.metadata)).toEqual({ after: "u2", siblingIds: ["a2", "a2b"] });
        expect(again.input.state).toEqual({ n: 1 });
        await answer(again.writer, "a2c");
        const third = await current(t);
        expect(ids(third.messages)).toEqual(["u1", "a1", "u2", "a2c"]);
        expect(third.branches?.groups).toEqual([{ after: "u2", selected: 2, siblingIds: ["a2", "a2b", "a2c"] }]);
      });

      test("an edit by name (a new id) makes a sibling user message after the message before it, from the state before the replaced one's run", async () => {
        const t = thread();
        const path = await chat(t);
        const edited = user("u2e", "more, edited");
        const begun = await postForked(t, "a1", [edited]);
        expect(forkMarkerOf(begun.writer.started.event.metadata)).toEqual({ after: "a1", siblingIds: ["u2"] });
        expect(begun.input.state).toEqual({ n: 1 });
        await answer(begun.writer, "a3");
        const after = await current(t);
        expect(after.messages).toEqual([path[0], path[1], edited, answered("a3")]);
        expect(after.state).toEqual({ n: 1 });
        expect(after.branches?.groups).toEqual([{ after: "a1", selected: 1, siblingIds: ["u2", "u2e"] }]);

        // the thread's first message: a group after the thread's start
        const first = await postForked(t, null, [user("u1e", "hi, edited")]);
        expect(forkMarkerOf(first.writer.started.event.metadata)).toEqual({ after: null, siblingIds: ["u1"] });
        await answer(first.writer, "a1e");
        const top = await current(t);
        expect(top.messages).toEqual([user("u1e", "hi, edited"), answered("a1e")]);
        expect(top.branches?.groups).toEqual([{ after: null, selected: 1, siblingIds: ["u1", "u1e"] }]);
      });

      test("an in-place edit (the same id, changed, posted whole) makes a sibling user message of the same id", async () => {
        const t = thread();
        const path = await chat(t);
        const changed = user("u2", "more, changed");
        const begun = await postWhole(t, [], (whole) => [whole[0], whole[1], changed]);
        expect(forkMarkerOf(begun.writer.started.event.metadata)).toEqual({ after: "a1", siblingIds: ["u2"] });
        expect(begun.input.state).toEqual({ n: 1 });
        await answer(begun.writer, "a3");
        const after = await current(t);
        expect(after.messages).toEqual([path[0], path[1], changed, answered("a3")]);
        expect(after.branches?.groups).toEqual([{ after: "a1", selected: 1, siblingIds: ["u2", "u2"] }]);
        expect(await t.store.selectBranch(t.threadId, "u2", 0, { owner: t.owner })).toBe("switched");
        const back = await current(t);
        expect(back.messages).toEqual(path);
        expect(back.state).toEqual({ n: 2 });
        expect(back.branches?.groups).toEqual([{ after: "a1", selected: 0, siblingIds: ["u2", "u2"] }]);
      });

      test("a tab tailing the thread gets the forking run's RUN_STARTED with its marker, and cuts its path with it", async () => {
        const t = thread();
        const path = await chat(t);
        const seen = await current(t);
        const tail = lastValueFrom(t.store.tail(t.threadId, seen.cursor, { owner: t.owner }).pipe(toArray()));
        const begun = await postForked(t, "u2");
        await answer(begun.writer, "a2b");
        const events = await tail;
        expect(asLogged(events[0])).toEqual(begun.writer.started);
        expect(forkMarkerOf(events[0].event.metadata)).toEqual({ after: "u2", siblingIds: ["a2"] });
        // the tab held the path it read; the shared reducer cuts it at the marker
        const tab = ClientState.untyped(seen.state);
        tab.messages.reset(seen.messages);
        for (const { event } of events) applyEvent(tab, event);
        expect(tab.messages.snapshot()).toEqual([...path.slice(0, 3), answered("a2b")]);
        expect(tab.rawState).toEqual({ n: 1 });
      });

      test("deleting the thread removes its tree: a new thread of the same id has no branches", async () => {
        const { clock } = ctx();
        const t = thread();
        await chat(t);
        await answer((await postForked(t, "u2")).writer, "a2b");
        expect(await t.store.remove(t.threadId, { owner: t.owner })).toBe(true);
        clock.advance(2 * LEASE); // the tombstone's end
        const path = await chat(t);
        const fresh = await current(t);
        expect(fresh.messages).toEqual(path);
        expect(fresh.branches?.groups ?? []).toEqual([]);
        expect(await t.store.selectBranch(t.threadId, "a2", 1, { owner: t.owner })).toBe("no-such-sibling");
      });
    });

    describeBranchSwitches(ctx);
  });
}
