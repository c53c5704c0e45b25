/**
 * The branch switches of the branches contract (docs/threads.md#the-tree): `selectBranch` and what
 * every read shows after it. Called by `describeBranches` with the running test's store.
 */
import type { ThreadStore } from "../../../src/server/store/ThreadStore";
import { runAgentInput } from "../../../src/protocol/build";
import { reconcileHistory } from "../../../src/server/history/reconcileHistory";
import type { ManualClock } from "./manualClock";
import { answer, answered, called, chat, current, ids, post, postForked, postWhole, type BranchThread } from "./branchesSupport";
import { newOwner, newThreadId, nextValues, snapshotOf, turn, user } from "./ownedThreadsSupport";

/** The store and clock of the test that is running, and a new thread of a new owner on it. */
export interface BranchesContext {
  readonly store: ThreadStore;
  readonly clock: ManualClock;
  readonly lease: number;
  readonly thread: () => BranchThread;
}

/** `selectBranch` of `t` as its owner. */
const select = (t: BranchThread, messageId: string, index: number) => t.store.selectBranch(t.threadId, messageId, index, { owner: t.owner });

/** The branch-switch sections, against the store `ctx()` gives the running test. */
export function describeBranchSwitches(ctx: () => BranchesContext): void {
  describe("selectBranch", () => {
    test("switches the path and its state to the sibling's; each sibling keeps its own", async () => {
      const t = ctx().thread();
      const path = await chat(t);
      await answer((await postForked(t, "u2")).writer, "a2b", { state: { n: 3 } });
      expect(await select(t, "a2b", 0)).toBe("switched");
      const first = await current(t);
      expect(first.messages).toEqual(path);
      expect(first.state).toEqual({ n: 2 });
      expect(first.branches?.groups).toEqual([{ after: "u2", selected: 0, siblingIds: ["a2", "a2b"] }]);
      expect(await select(t, "a2", 1)).toBe("switched");
      const second = await current(t);
      expect(second.messages).toEqual([...path.slice(0, 3), answered("a2b")]);
      expect(second.state).toEqual({ n: 3 });
      expect(second.branches?.groups).toEqual([{ after: "u2", selected: 1, siblingIds: ["a2", "a2b"] }]);
    });

    test("interrupts: a branch that ended interrupted keeps its interrupts; another branch shows none", async () => {
      const t = ctx().thread();
      await answer((await post(t, { messages: [user("u1", "hi")] })).writer, "a1");
      const interrupts: [{ id: string; reason: string }] = [{ id: "i1", reason: "approval" }];
      await answer((await postWhole(t, [user("u2", "delete it")])).writer, "a2", { end: { interrupts } });
      expect((await current(t)).interrupts).toEqual(interrupts);
      await answer((await postForked(t, "u2")).writer, "a2b");
      expect((await current(t)).interrupts).toEqual([]);
      expect(await select(t, "a2b", 0)).toBe("switched");
      const interrupted = await current(t);
      expect(ids(interrupted.messages)).toEqual(["u1", "a1", "u2", "a2"]);
      expect(interrupted.interrupts).toEqual(interrupts);
      expect(await select(t, "a2", 1)).toBe("switched");
      expect((await current(t)).interrupts).toEqual([]);
    });

    test("pendingToolCallIds: the client calls a success left are kept on their branch only", async () => {
      const t = ctx().thread();
      await answer((await post(t, { messages: [user("u1", "hi")] })).writer, "a1");
      await answer((await postWhole(t, [user("u2", "pick one")])).writer, "a2", { call: "call-1", end: { pending: ["call-1"] } });
      expect((await current(t)).pendingToolCallIds).toEqual(["call-1"]);
      await answer((await postForked(t, "u2")).writer, "a2b");
      expect((await current(t)).pendingToolCallIds).toBeUndefined();
      expect(await select(t, "a2b", 0)).toBe("switched");
      const waiting = await current(t);
      expect(waiting.messages[3]).toEqual(called("a2", "call-1"));
      expect(waiting.pendingToolCallIds).toEqual(["call-1"]);
      expect(await select(t, "a2", 1)).toBe("switched");
      expect((await current(t)).pendingToolCallIds).toBeUndefined();
    });

    test("nested forks: a fork inside a frozen sibling comes back when that sibling is selected again, with its own selected child", async () => {
      const t = ctx().thread();
      const path = await chat(t);
      await answer((await postForked(t, "u2")).writer, "a2b", { state: { n: "2b" } });
      await answer((await postForked(t, "u2")).writer, "a2c", { state: { n: "2c" } });
      expect(await select(t, "a2c", 1)).toBe("switched"); // a2b shown in u2's group
      await answer((await postForked(t, "a1", [user("u2e", "edited")])).writer, "a3");
      const edited = await current(t);
      expect(ids(edited.messages)).toEqual(["u1", "a1", "u2e", "a3"]);
      expect(edited.state).toEqual({ n: 1 });
      expect(edited.branches?.groups).toEqual([{ after: "a1", selected: 1, siblingIds: ["u2", "u2e"] }]);
      expect(await select(t, "u2e", 0)).toBe("switched");
      const back = await current(t);
      expect(back.messages).toEqual([...path.slice(0, 3), answered("a2b")]);
      expect(back.state).toEqual({ n: "2b" });
      expect(back.branches?.groups).toEqual([
        { after: "a1", selected: 0, siblingIds: ["u2", "u2e"] },
        { after: "u2", selected: 1, siblingIds: ["a2", "a2b", "a2c"] },
      ]);
      expect(await select(t, "a2b", 2)).toBe("switched");
      expect(ids((await current(t)).messages)).toEqual(["u1", "a1", "u2", "a2c"]);
      expect(await select(t, "u2", 1)).toBe("switched");
      expect(ids((await current(t)).messages)).toEqual(["u1", "a1", "u2e", "a3"]);
      expect(await select(t, "u2e", 0)).toBe("switched"); // u2's branch comes back as it was left: a2c shown
      expect((await current(t)).branches?.groups[1]).toEqual({ after: "u2", selected: 2, siblingIds: ["a2", "a2b", "a2c"] });
    });

    test("answers: unchanged, unknown, unknown-message, no-such-sibling, run-active; another owner's thread is unknown", async () => {
      const t = ctx().thread();
      await chat(t);
      await answer((await postForked(t, "u2")).writer, "a2b");
      expect(await select(t, "a2b", 1)).toBe("unchanged");
      expect(await select(t, "a1", 0)).toBe("unchanged"); // a message without siblings is its own index 0
      expect(await select(t, "a1", 1)).toBe("no-such-sibling");
      expect(await select(t, "nowhere", 0)).toBe("unknown-message");
      expect(await select(t, "a2", 0)).toBe("unknown-message"); // in a sibling, not on the selected path
      for (const index of [2, -1, 0.5, Number.NaN]) expect(await select(t, "a2b", index)).toBe("no-such-sibling");
      expect(await t.store.selectBranch(newThreadId(), "a2b", 0, { owner: t.owner })).toBe("unknown");
      for (const scope of [{ owner: newOwner() }, {}]) expect(await t.store.selectBranch(t.threadId, "a2b", 0, scope)).toBe("unknown");
      const live = await postWhole(t, [user("u3", "and then")]);
      expect(await select(t, "a2b", 0)).toBe("run-active");
      expect(ids((await current(t)).messages)).toEqual(["u1", "a1", "u2", "a2b", "u3"]);
      await answer(live.writer, "a3");
      expect(await select(t, "a2b", 0)).toBe("switched");
      expect(ids((await current(t)).messages)).toEqual(["u1", "a1", "u2", "a2"]);
      expect(await select(t, "a2", 1)).toBe("switched"); // the run's messages went with their sibling
      expect(ids((await current(t)).messages)).toEqual(["u1", "a1", "u2", "a2b", "u3", "a3"]);
    });

    test("a switch is announced to listEvents as path-selected for the owner only, and moves the row's updatedAt", async () => {
      const { clock } = ctx();
      const t = ctx().thread();
      const other: BranchThread = { ...t, threadId: newThreadId() };
      await chat(t);
      await answer((await postForked(t, "u2")).writer, "a2b");
      clock.advance(10);
      await turn(t.store, t.owner, other.threadId, 1);
      clock.advance(10);
      const stranger = newOwner();
      const hers = nextValues(t.store.listEvents({ owner: t.owner }), 1);
      const his = nextValues(t.store.listEvents({ owner: stranger }), 1);
      expect(await select(t, "a2b", 0)).toBe("switched");
      await turn(t.store, stranger, t.threadId, 1); // his own thread of the same id: the first change he hears
      const [heard] = await hers;
      expect(heard).toMatchObject({ type: "path-selected", thread: { threadId: t.threadId, updatedAt: 20, running: false } });
      expect("thread" in heard && heard.thread.lastMessage).toEqual({ role: "assistant", preview: "answer a2" });
      expect((await his).map((event) => event.type)).toEqual(["created"]);
      const rows = (await t.store.list({ owner: t.owner }, { limit: 10 })).threads;
      expect(rows.map((row) => [row.threadId, row.updatedAt])).toEqual([
        [t.threadId, 20],
        [other.threadId, 10],
      ]);
    });
  });

  describe("reads after a switch", () => {
    test("a read with a limit gives the last messages of the selected path, and history pages walk that path", async () => {
      const t = ctx().thread();
      await answer((await post(t, { messages: [user("u1", "one")] })).writer, "a1");
      await answer((await postWhole(t, [user("u2", "two")])).writer, "a2");
      await answer((await postWhole(t, [user("u3", "three")])).writer, "a3");
      await answer((await postForked(t, "a1", [user("u2e", "two, edited")])).writer, "a2e");
      const scope = { owner: t.owner };
      const edited = snapshotOf(await t.store.read(t.threadId, undefined, { ...scope, limit: 3 }));
      expect(ids(edited.messages)).toEqual(["a1", "u2e", "a2e"]);
      expect(await t.store.history(t.threadId, { before: "u2e", limit: 5 }, scope)).toEqual({ messages: [user("u1", "one"), answered("a1")], hasOlder: false });
      expect(await t.store.history(t.threadId, { before: "u3", limit: 5 }, scope)).toBeUndefined();

      expect(await select(t, "u2e", 0)).toBe("switched");
      const read = await t.store.read(t.threadId, undefined, { ...scope, limit: 2 });
      expect(read?.kind === "snapshot" && { ids: ids(read.snapshot.messages), hasOlder: read.hasOlder }).toEqual({ ids: ["u3", "a3"], hasOlder: true });
      expect(snapshotOf(read).branches?.groups).toEqual([{ after: "a1", selected: 0, siblingIds: ["u2", "u2e"] }]);
      expect(await t.store.history(t.threadId, { before: "u3", limit: 2 }, scope)).toEqual({ messages: [user("u2", "two"), answered("a2")], hasOlder: true });
      expect(await t.store.history(t.threadId, { before: "u2", limit: 2 }, scope)).toEqual({ messages: [user("u1", "one"), answered("a1")], hasOlder: false });
      expect(await t.store.history(t.threadId, { before: "a2e", limit: 2 }, scope)).toBeUndefined();
      const whole = await t.store.read(t.threadId, undefined, { ...scope, limit: 10 });
      expect(whole?.kind === "snapshot" && { ids: ids(whole.snapshot.messages), hasOlder: whole.hasOlder }).toEqual({
        ids: ["u1", "a1", "u2", "a2", "u3", "a3"],
        hasOlder: false,
      });
    });

    test("a read by the cursor a client had before the switch shows the switched path: it does not resume into the other branch", async () => {
      const t = ctx().thread();
      const path = await chat(t);
      await answer((await postForked(t, "u2")).writer, "a2b");
      const before = (await current(t)).cursor;
      expect(await select(t, "a2b", 0)).toBe("switched");
      const read = await t.store.read(t.threadId, before, { owner: t.owner });
      expect(read?.kind).toBe("snapshot");
      expect(snapshotOf(read).messages).toEqual(path);
      expect(snapshotOf(read).cursor).toBe(before); // a switch logs no event
    });

    test("a switch between the handler's read and its beginRun is history-moved, though the cursor did not move; nothing is logged", async () => {
      const t = ctx().thread();
      await chat(t);
      await answer((await postForked(t, "u2")).writer, "a2b");
      const read = await current(t);
      const verdict = reconcileHistory(read, runAgentInput(t.threadId, "late", { messages: [user("u3", "next")] }), () => "closing");
      if ("error" in verdict) throw new Error(`expected the post to be accepted, but ${verdict.message}`);
      expect(verdict.expectPath).toEqual({ count: 4, lastId: "a2b" });
      expect(await select(t, "a2b", 0)).toBe("switched");
      await expect(
        t.store.beginRun(verdict.input, { owner: t.owner, expectCursor: verdict.expectCursor, expectPath: verdict.expectPath }),
      ).rejects.toMatchObject({
        code: "history-moved",
      });
      const after = await current(t);
      expect(after.cursor).toBe(read.cursor);
      expect(ids(after.messages)).toEqual(["u1", "a1", "u2", "a2"]);
    });
  });
}
