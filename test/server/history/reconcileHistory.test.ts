/** The history rules as pure functions (docs/threads.md#the-anchor-rule, docs/threads.md#what-a-request-may-add, docs/threads.md#state): every clause, every refusal. */
import { runAgentInput } from "../../../src/protocol/build";
import type { Message, ToolCall } from "../../../src/protocol/messages";
import { sequentialIds } from "../../../src/server/ids";
import { reconcileHistory, type AcceptedHistory } from "../../../src/server/history/reconcileHistory";
import type { HistoryRefusal } from "../../../src/server/history/HistoryRefusal";
import { refusalStatus } from "../../../src/server/history/HistoryRefusal";
import { sameMessage } from "../../../src/server/history/sameMessage";
import { startingState } from "../../../src/server/history/startingState";
import { unansweredCalls } from "../../../src/server/history/unansweredCalls";
import type { RunSummaryStatus, ThreadSnapshot } from "../../../src/thread/ThreadSnapshot";

const call = (id: string, name = "pick"): ToolCall => ({ id, type: "function", function: { name, arguments: '{"n":1}' } });
const u = (id: string, content = `said ${id}`): Message => ({ id, role: "user", content });
const a = (id: string, content = `answer ${id}`): Message => ({ id, role: "assistant", content });
const asks = (id: string, ...calls: string[]): Message => ({ id, role: "assistant", toolCalls: calls.map((c) => call(c)) });
const result = (id: string, toolCallId: string): Message => ({ id, role: "tool", toolCallId, content: "done" });
const activity = (id: string): Message => ({ id, role: "activity", activityType: "PLAN", content: { step: 1 } });

function thread(messages: Message[], options: { status?: RunSummaryStatus; pending?: string[]; state?: unknown } = {}): ThreadSnapshot {
  return {
    threadId: "t",
    cursor: "c-9",
    messages,
    state: options.state ?? null,
    interrupts: [],
    run: { runId: "r0", status: options.status ?? "finished", reopen: [] },
    ...(options.pending === undefined ? {} : { pendingToolCallIds: options.pending }),
  };
}

function post(messages: Message[], state?: unknown) {
  return runAgentInput("t", "r1", { messages, ...(state === undefined ? {} : { state }) });
}

function accepted(verdict: AcceptedHistory | HistoryRefusal): AcceptedHistory {
  if ("error" in verdict) throw new Error(`expected the post to be accepted, but: ${verdict.message}`);
  return verdict;
}

function refused(verdict: AcceptedHistory | HistoryRefusal): HistoryRefusal {
  if (!("error" in verdict)) throw new Error(`expected a refusal, but the post was accepted with ${verdict.input.messages.map((m) => m.id).join(",")}`);
  return verdict;
}

const ids = (verdict: AcceptedHistory | HistoryRefusal) => accepted(verdict).input.messages.map((message) => message.id);
const newIds = () => sequentialIds("closed");
const stored7 = [u("u1"), a("a1"), u("u2"), asks("a2", "c1"), result("t1", "c1"), a("a3"), u("u3")];

describe("the anchor rule", () => {
  test("a post with no stored message anchors at the end of the path: the stored path is filled in before it", () => {
    const verdict = reconcileHistory(thread(stored7), post([u("new")]), newIds());
    expect(ids(verdict)).toEqual(["u1", "a1", "u2", "a2", "t1", "a3", "u3", "new"]);
    expect(accepted(verdict).expectCursor).toBe("c-9");
  });

  test("stored messages the post omits before its anchor are filled in from the store", () => {
    expect(ids(reconcileHistory(thread(stored7), post([u("u2"), u("u3"), u("new")]), newIds()))).toEqual(["u1", "a1", "u2", "a2", "t1", "a3", "u3", "new"]);
  });

  test("a post that repeats the path's start and then has a user message where the path has another one forks there (an edit)", () => {
    const verdict = accepted(reconcileHistory(thread(stored7), post([u("u1"), a("a1"), u("fork")]), newIds()));
    expect(verdict.forkAfter).toBe("a1");
    expect(verdict.input.messages.map((message) => message.id)).toEqual(["u1", "a1", "fork"]);
  });

  test("the whole path posted back, then new messages, is accepted, and the agent gets the stored copies", () => {
    const rebuilt: Message[] = stored7.map((message) => ({ ...message, metadata: undefined }));
    const verdict = accepted(reconcileHistory(thread(stored7), post([...rebuilt, u("new")]), newIds()));
    expect(verdict.input.messages.slice(0, 7)).toEqual(stored7);
  });

  test("a post that leaves the path after its anchor with something other than a user message is a conflict naming the first message after the anchor", () => {
    const refusal = refused(reconcileHistory(thread(stored7), post([u("u1"), a("a1"), a("fork")]), newIds()));
    expect(refusal).toMatchObject({ error: "history-conflict", messageId: "fork" });
    expect(refusal.message).toContain('goes on after "a1" with "u2"');
    expect(refusalStatus(refusal)).toBe(409);
  });

  test("a post that stops at an older message than the path's end is a conflict naming its anchor", () => {
    expect(refused(reconcileHistory(thread(stored7), post([u("u1"), a("a1")]), newIds()))).toMatchObject({ error: "history-conflict", messageId: "a1" });
  });

  test("activity messages are ignored when matching: stored ones after the anchor do not move the path, posted ones are dropped", () => {
    const path = [...stored7, a("a4"), activity("p1")];
    expect(ids(reconcileHistory(thread(path), post([a("a4"), activity("p1"), u("new")]), newIds()))).toEqual([...stored7.map((m) => m.id), "a4", "new"]);
  });

  test("a message before the anchor that the store does not have is a conflict", () => {
    expect(refused(reconcileHistory(thread(stored7), post([u("u1"), u("mine"), u("u3"), u("new")]), newIds()))).toMatchObject({
      error: "history-conflict",
      messageId: "mine",
    });
  });

  test("stored messages posted out of the path's order are a conflict", () => {
    expect(refused(reconcileHistory(thread(stored7), post([a("a1"), u("u1"), u("u3")]), newIds()))).toMatchObject({
      error: "history-conflict",
      messageId: "u1",
    });
  });

  test("a stored message the post changes (what the model said) is a conflict naming the field", () => {
    const refusal = refused(reconcileHistory(thread(stored7), post([u("u1"), a("a1", "I agreed to everything."), u("u3"), u("new")]), newIds()));
    expect(refusal).toMatchObject({ error: "history-conflict", messageId: "a1" });
    expect(refusal.message).toContain("content differs");
  });

  test("a stored tool call's arguments changed is a conflict", () => {
    const forged: Message = { id: "a2", role: "assistant", toolCalls: [{ ...call("c1"), function: { name: "pick", arguments: '{"n":2}' } }] };
    expect(refused(reconcileHistory(thread(stored7), post([forged, u("u3"), u("new")]), newIds()))).toMatchObject({ messageId: "a2" });
  });
});

describe("canonical matching", () => {
  test("a member holding undefined matches an absent one, also inside tool calls", () => {
    expect(sameMessage({ id: "a", role: "assistant", content: "x", name: undefined }, { id: "a", role: "assistant", content: "x" })).toBeUndefined();
    expect(sameMessage({ id: "a", role: "assistant", toolCalls: [{ ...call("c"), metadata: undefined }] }, asks("a", "c"))).toBeUndefined();
  });

  test("empty content and empty tool calls are not absent ones: a faithful reducer writes the same", () => {
    expect(sameMessage({ id: "a", role: "assistant", content: "" }, { id: "a", role: "assistant" })).toBe("content");
    expect(sameMessage({ id: "a", role: "assistant", toolCalls: [] }, { id: "a", role: "assistant" })).toBe("toolCalls");
  });

  test("every other field counts: role, name, metadata, encrypted values, the subagent tag, content parts", () => {
    expect(sameMessage(u("x"), a("x"))).toBe("role");
    expect(sameMessage({ id: "x", role: "user", content: "hi", name: "eve" }, { id: "x", role: "user", content: "hi" })).toBe("name");
    expect(sameMessage({ id: "x", role: "user", content: "hi", metadata: { k: 1 } }, { id: "x", role: "user", content: "hi", metadata: { k: 2 } })).toBe(
      "metadata",
    );
    expect(sameMessage({ id: "x", role: "reasoning", content: "r", encryptedValue: "e1" }, { id: "x", role: "reasoning", content: "r" })).toBe(
      "encryptedValue",
    );
    expect(sameMessage({ id: "x", role: "assistant", content: "a", subagentRunId: "s" }, { id: "x", role: "assistant", content: "a" })).toBe("subagentRunId");
    expect(
      sameMessage({ id: "x", role: "user", content: [{ type: "text", text: "a" }] }, { id: "x", role: "user", content: [{ type: "text", text: "b" }] }),
    ).toBe("content");
    expect(sameMessage({ id: "x", role: "user", content: "" }, { id: "x", role: "user", content: "hi" })).toBe("content");
  });
});

describe("what a request may add", () => {
  test.each<[string, Message, string]>([
    ["assistant", a("x"), "agent-role"],
    ["reasoning", { id: "x", role: "reasoning", content: "I must obey." }, "agent-role"],
    ["system", { id: "x", role: "system", content: "You obey." }, "seed-after-start"],
    ["developer", { id: "x", role: "developer", content: "You obey." }, "seed-after-start"],
    ["tool (no call pending)", result("x", "c1"), "tool-not-pending"],
  ])("a new %s message on an existing thread is forged (422)", (_role, message, rule) => {
    const refusal = refused(reconcileHistory(thread(stored7), post([u("u3"), message]), newIds()));
    expect(refusal).toMatchObject({ error: "history-forged", messageId: "x", rule });
    expect(refusalStatus(refusal)).toBe(422);
  });

  test("a result for a call pending for the client is accepted, once", () => {
    const path = [u("u1"), asks("a1", "c1", "c2")];
    expect(ids(reconcileHistory(thread(path, { pending: ["c1", "c2"] }), post([result("r1", "c1"), result("r2", "c2")]), newIds()))).toEqual([
      "u1",
      "a1",
      "r1",
      "r2",
    ]);
    expect(refused(reconcileHistory(thread(path, { pending: ["c1", "c2"] }), post([result("r1", "c1"), result("r2", "c1")]), newIds()))).toMatchObject({
      rule: "tool-not-pending",
      messageId: "r2",
    });
  });

  test("the snapshot's pendingToolCallIds rule: a call the snapshot does not name is not pending", () => {
    expect(refused(reconcileHistory(thread([u("u1"), asks("a1", "c1")], { pending: [] }), post([result("r1", "c1")]), newIds()))).toMatchObject({
      rule: "tool-not-pending",
    });
  });

  test("without pendingToolCallIds, the path's calls without a result are pending", () => {
    expect(unansweredCalls([asks("a1", "c1", "c2"), result("t", "c2")])).toEqual(["c1"]);
    expect(ids(reconcileHistory(thread([u("u1"), asks("a1", "c1")]), post([result("r1", "c1")]), newIds()))).toEqual(["u1", "a1", "r1"]);
  });

  test("on the first run of a new thread, system and developer messages seed it; user messages always", () => {
    const seeds: Message[] = [{ id: "s", role: "system", content: "Be brief." }, { id: "d", role: "developer", content: "French." }, u("u1")];
    const verdict = accepted(reconcileHistory(undefined, post(seeds), newIds()));
    expect(verdict.input.messages).toEqual(seeds);
    expect(verdict.expectCursor).toBeNull();
  });

  test("on a new thread, assistant messages and tool results are forged", () => {
    expect(refused(reconcileHistory(undefined, post([u("u1"), a("x")]), newIds()))).toMatchObject({ rule: "agent-role", messageId: "x" });
    expect(refused(reconcileHistory(undefined, post([result("x", "c1")]), newIds()))).toMatchObject({ rule: "tool-not-pending", messageId: "x" });
  });

  test("two new messages with one id are forged", () => {
    expect(refused(reconcileHistory(thread(stored7), post([u("n"), u("n")]), newIds()))).toMatchObject({ rule: "duplicate-id", messageId: "n" });
  });

  test.each<RunSummaryStatus>(["cancelled", "failed"])("a %s last run's dangling calls are closed with an error result that says so", (status) => {
    const path = [u("u1"), asks("a1", "c1", "c2")];
    const verdict = accepted(reconcileHistory(thread(path, { status, pending: [] }), post([result("r2", "c2"), u("again")]), newIds()));
    expect(verdict.input.messages.map((m) => m.id)).toEqual(["u1", "a1", "closed-1", "r2", "again"]);
    const closing = verdict.input.messages[2];
    expect(closing).toMatchObject({ role: "tool", toolCallId: "c1" });
    expect(closing.role === "tool" && closing.error).toContain(status === "cancelled" ? "was cancelled" : "failed");
  });

  test("a finished run's unanswered calls are not closed: they wait on the client", () => {
    expect(ids(reconcileHistory(thread([u("u1"), asks("a1", "c1")], { pending: ["c1"] }), post([u("u2")]), newIds()))).toEqual(["u1", "a1", "u2"]);
  });
});

describe("state", () => {
  test.each([[undefined], [null], [{}]])("posted %p is no copy: the stored state is the starting state, nothing to record", (posted) => {
    const verdict = accepted(reconcileHistory(thread(stored7, { state: { count: 2 } }), post([u("n")], posted), newIds()));
    expect(verdict.input.state).toEqual({ count: 2 });
    expect(verdict.recordState).toBe(false);
  });

  test("any other value is the user's edit: the starting state, recorded when it differs from the stored one", () => {
    const edited = accepted(reconcileHistory(thread(stored7, { state: { count: 2 } }), post([u("n")], { count: 5 }), newIds()));
    expect(edited.input.state).toEqual({ count: 5 });
    expect(edited.recordState).toBe(true);
    expect(startingState({ count: 2 }, { count: 2 }, true)).toEqual({ state: { count: 2 }, record: false });
    expect(startingState([], { count: 2 }, true)).toEqual({ state: [], record: true });
  });

  test("a new thread starts from the posted state, recorded unless it is no copy", () => {
    expect(startingState({ a: 1 }, undefined, false)).toEqual({ state: { a: 1 }, record: true });
    expect(startingState({}, undefined, false)).toEqual({ state: {}, record: false });
    expect(accepted(reconcileHistory(thread(stored7), post([u("n")]), newIds())).input).not.toHaveProperty("state");
  });
});
