/** A post that forks, read against the stored thread (docs/threads.md#edit-and-regenerate): the effective input, the refusals, the starting state. */
import { forkForwardedProps } from "../../../src/protocol/branchMeta";
import { runAgentInput } from "../../../src/protocol/build";
import type { Message } from "../../../src/protocol/messages";
import type { RunAgentInput } from "../../../src/protocol/input";
import { sequentialIds } from "../../../src/server/ids";
import { reconcileHistory, type AcceptedHistory } from "../../../src/server/history/reconcileHistory";
import type { HistoryRefusal } from "../../../src/server/history/HistoryRefusal";
import type { Checkpoint } from "../../../src/thread/branches/BranchTree";
import type { ThreadSnapshot } from "../../../src/thread/ThreadSnapshot";
import { activity, answer, asks, result, user } from "../../thread/branches/support";

// u1 ran from {} and set {n:1}; u2 ran from {n:1} and set {n:2}
const path = [user("u1"), answer("a1"), activity("p1"), user("u2"), answer("a2")];
const checkpoints: Checkpoint[] = [{ at: 3, state: { n: 1 } }];

function thread(messages: readonly Message[] = path, options: { state?: unknown; checkpoints?: Checkpoint[]; pending?: string[] } = {}): ThreadSnapshot {
  return {
    threadId: "t",
    cursor: "c-9",
    messages,
    state: "state" in options ? options.state : { n: 2 },
    interrupts: [],
    run: { runId: "r0", status: "finished", reopen: [] },
    branches: { forks: [], checkpoints: options.checkpoints ?? checkpoints, groups: [] },
    ...(options.pending === undefined ? {} : { pendingToolCallIds: options.pending }),
  };
}

function post(messages: readonly Message[], extra: Partial<RunAgentInput> = {}): RunAgentInput {
  return runAgentInput("t", "r1", { messages: [...messages], ...extra });
}

function accepted(verdict: AcceptedHistory | HistoryRefusal): AcceptedHistory {
  if ("error" in verdict) throw new Error(`expected the post to be accepted, but: ${verdict.message}`);
  return verdict;
}

const ids = (verdict: AcceptedHistory | HistoryRefusal) => accepted(verdict).input.messages.map((message) => message.id);
const reconcile = (input: RunAgentInput, stored: ThreadSnapshot = thread()) => reconcileHistory(stored, input, sequentialIds("closed"));

describe("the effective input of a fork", () => {
  test("a regenerate by name: the path up to the user message (activity left out), forkAfter set, at the cursor read", () => {
    const verdict = accepted(reconcile(post([], { forwardedProps: forkForwardedProps("u2") })));
    expect(ids(verdict)).toEqual(["u1", "a1", "u2"]);
    expect(verdict.forkAfter).toBe("u2");
    expect(verdict.expectCursor).toBe("c-9");
  });

  test("an edit by name: the path up to the fork point, then the edited message", () => {
    const verdict = accepted(reconcile(post([user("u2e")], { forwardedProps: forkForwardedProps("p1") })));
    expect(ids(verdict)).toEqual(["u1", "a1", "u2e"]);
    expect(verdict.forkAfter).toBe("p1");
  });

  test("an edit by shape keeps the id; the agent gets the edited copy", () => {
    const verdict = accepted(reconcile(post([user("u1"), answer("a1"), user("u2", "edited")])));
    expect(verdict.input.messages).toEqual([user("u1"), answer("a1"), user("u2", "edited")]);
    expect(verdict.forkAfter).toBe("p1");
  });

  test("a regenerate by shape; a fork of the whole thread (forkAfter null)", () => {
    expect(accepted(reconcile(post([user("u1"), answer("a1"), user("u2")]))).forkAfter).toBe("u2");
    const fromStart = accepted(reconcile(post([user("v1")], { forwardedProps: forkForwardedProps(null) })));
    expect(ids(fromStart)).toEqual(["v1"]);
    expect(fromStart.forkAfter).toBeNull();
  });

  test("a resume is left out: the new sibling has no pending interrupts (they stay with the branch the post leaves)", () => {
    const resume = [{ interruptId: "i1", status: "cancelled" as const }];
    const edit = accepted(reconcile(post([user("u1"), answer("a1"), user("u2", "edited")], { resume })));
    expect(edit.forkAfter).toBe("p1");
    expect(edit.input.resume).toBeUndefined();
    expect(accepted(reconcile(post([], { resume, forwardedProps: forkForwardedProps("u2") }))).input.resume).toBeUndefined();
    expect(accepted(reconcile(post([user("u3")], { resume }))).input.resume).toEqual(resume);
  });

  test("a post that continues the path has no forkAfter", () => {
    expect(accepted(reconcile(post([user("u3")]))).forkAfter).toBeUndefined();
  });
});

describe("what a fork may add", () => {
  test("a new assistant message is a 422 agent-role", () => {
    expect(reconcile(post([answer("a9")], { forwardedProps: forkForwardedProps("u2") }))).toMatchObject({
      error: "history-forged",
      rule: "agent-role",
      messageId: "a9",
    });
  });

  test("a tool result is a 422 tool-not-pending, even for a call the old branch waits on", () => {
    const calling = [user("u1"), asks("a1", "c1")];
    const stored = thread(calling, { pending: ["c1"], checkpoints: [] });
    expect(reconcile(post([user("u1e"), result("t1", "c1")], { forwardedProps: forkForwardedProps(null) }), stored)).toMatchObject({
      error: "history-forged",
      rule: "tool-not-pending",
      messageId: "t1",
    });
  });

  test("refusals of findFork come through: a fork point not on the path is a 409 naming it", () => {
    expect(reconcile(post([user("u9")], { forwardedProps: forkForwardedProps("gone") }))).toMatchObject({ error: "history-conflict", messageId: "gone" });
  });
});

describe("the state a fork starts from", () => {
  test("the fork point's: the state before the answered user message's run, recorded since it differs from the current one", () => {
    const regenerate = accepted(reconcile(post([], { forwardedProps: forkForwardedProps("u2") })));
    expect(regenerate.input.state).toEqual({ n: 1 });
    expect(regenerate.recordState).toBe(true);
    const fromStart = accepted(reconcile(post([user("v1")], { forwardedProps: forkForwardedProps(null) })));
    expect(fromStart.input.state).toEqual({});
    expect(fromStart.recordState).toBe(true);
  });

  test("a posted state equal to the current one is the client's copy of the branch it leaves: not an edit", () => {
    const verdict = accepted(reconcile(post([user("u1"), answer("a1"), user("u2")], { state: { n: 2 } })));
    expect(verdict.input.state).toEqual({ n: 1 });
  });

  test("any other posted state is an edit: the starting state, recorded", () => {
    const verdict = accepted(reconcile(post([user("u1"), answer("a1"), user("u2")], { state: { n: 7 } })));
    expect(verdict.input.state).toEqual({ n: 7 });
    expect(verdict.recordState).toBe(true);
  });

  test("no copy ({} or none): the fork point's state", () => {
    expect(accepted(reconcile(post([], { forwardedProps: forkForwardedProps("u2"), state: {} }))).input.state).toEqual({ n: 1 });
  });

  test("a fork point's state equal to the current one is not recorded", () => {
    const verdict = accepted(reconcile(post([], { forwardedProps: forkForwardedProps("u2") }), thread(path, { state: { n: 1 } })));
    expect(verdict.input.state).toEqual({ n: 1 });
    expect(verdict.recordState).toBe(false);
  });

  test("after an unanswered question and another: a regenerate of the first starts before its run, an edit of the second before the second's", () => {
    const unanswered = [user("u1"), answer("a1"), user("u2"), user("u3"), answer("a3")];
    const stored = thread(unanswered, {
      state: { n: 4 },
      checkpoints: [
        { at: 2, state: { n: 1 } },
        { at: 3, state: { n: 3 } },
      ],
    });
    expect(accepted(reconcile(post([user("u1"), answer("a1"), user("u2")]), stored)).input.state).toEqual({ n: 1 });
    expect(accepted(reconcile(post([user("u1"), answer("a1"), user("u2"), user("u3", "edited")]), stored)).input.state).toEqual({ n: 3 });
    expect(accepted(reconcile(post([user("u3e")], { forwardedProps: forkForwardedProps("u2") }), stored)).input.state).toEqual({ n: 3 });
  });

  test("a thread without state ({} or null stored) forks without recording a state", () => {
    for (const state of [{}, null]) {
      const verdict = accepted(reconcile(post([], { forwardedProps: forkForwardedProps("u2") }), thread(path, { state, checkpoints: [] })));
      expect(verdict.recordState).toBe(false);
    }
  });
});
