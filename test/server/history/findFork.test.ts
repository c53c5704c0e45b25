/** Whether a post starts a sibling (docs/threads.md#edit-and-regenerate): by name, by shape, and every refusal. */
import { forkForwardedProps } from "../../../src/protocol/branchMeta";
import { runAgentInput } from "../../../src/protocol/build";
import type { Message } from "../../../src/protocol/messages";
import type { RunAgentInput } from "../../../src/protocol/input";
import { findFork } from "../../../src/server/history/findFork";
import { activity, answer, asks, result, user } from "../../thread/branches/support";

const path = [user("u1"), answer("a1"), user("u2"), answer("a2")];

function input(messages: readonly Message[], extra: Partial<RunAgentInput> = {}): RunAgentInput {
  return runAgentInput("t", "r9", { messages: [...messages], ...extra });
}

const named = (forkAfter: string | null, messages: readonly Message[] = []) =>
  findFork(path, messages, input(messages, { forwardedProps: forkForwardedProps(forkAfter) }));
const shaped = (messages: readonly Message[], extra: Partial<RunAgentInput> = {}, on: readonly Message[] = path) =>
  findFork(on, messages, input(messages, extra));

describe("by name: forwardedProps['agui-rx'].forkAfter", () => {
  test("a regenerate names the user message and posts nothing new (or repeats the fork point as its anchor)", () => {
    expect(named("u2")).toEqual({ kind: "fork", after: "u2", at: 3, added: [] });
    expect(named("u2", [user("u2")])).toEqual({ kind: "fork", after: "u2", at: 3, added: [] });
  });

  test("an edit names the message before the edited one and posts the edit with a new id", () => {
    expect(named("a1", [user("u2e", "edited")])).toEqual({ kind: "fork", after: "a1", at: 2, added: [user("u2e", "edited")] });
    expect(named(null, [user("u1e")])).toEqual({ kind: "fork", after: null, at: 0, added: [user("u1e")] });
  });

  test("naming the path's last message continues the path: no fork", () => {
    expect(named("a2", [user("u3")])).toBeUndefined();
  });

  test("a fork point not on the path is a 409 naming it", () => {
    expect(named("gone", [user("u9")])).toMatchObject({ error: "history-conflict", messageId: "gone", message: expect.stringContaining('"gone"') });
  });

  test("a malformed request is a 409 that says what was expected", () => {
    const messages = [user("u9")];
    const verdict = findFork(path, messages, input(messages, { forwardedProps: { "agui-rx": { forkAfter: 5 } } }));
    expect(verdict).toMatchObject({ error: "history-conflict", messageId: "u9", message: expect.stringContaining("forkAfter") });
  });

  test("a message the path holds after the fork point, posted again, is a 409 naming it", () => {
    expect(named("a1", [user("u2")])).toMatchObject({ error: "history-conflict", messageId: "u2" });
    expect(named("u1", [user("u2")])).toMatchObject({ error: "history-conflict", messageId: "u2" });
  });

  test("a kept message posted changed is a 409 (the anchor rule up to the fork point)", () => {
    expect(named("u2", [user("u1", "changed"), user("u2")])).toMatchObject({ error: "history-conflict", messageId: "u1" });
  });

  test("a fork point inside an answer (no sibling group can start there) is a 409 naming it", () => {
    const long = [user("u1"), asks("a1", "c1"), result("t1", "c1"), answer("a1x"), user("u2")];
    const verdict = findFork(long, [], input([], { forwardedProps: forkForwardedProps("t1") }));
    expect(verdict).toMatchObject({ error: "history-conflict", messageId: "t1", message: expect.stringContaining('answer to "u1"') });
  });

  test("a regenerate after a message that is not a user message is a 409: its answer could not join that group", () => {
    expect(named("a1")).toMatchObject({ error: "history-conflict", messageId: "a1" });
  });

  test("a new assistant message or a tool result is left to the rules of what a request may add (reconcileHistory)", () => {
    expect(named("u2", [answer("a9")])).toEqual({ kind: "fork", after: "u2", at: 3, added: [answer("a9")] });
  });
});

describe("by shape: a client that posts the whole path", () => {
  test("an in-place edit (same id, new text) after the repeated path forks after the message before it", () => {
    expect(shaped([user("u1"), answer("a1"), user("u2", "edited")])).toEqual({ kind: "fork", after: "a1", at: 2, added: [user("u2", "edited")] });
  });

  test("an in-place edit of the first message, repeating nothing, forks at the thread's start", () => {
    expect(shaped([user("u1", "edited")])).toEqual({ kind: "fork", after: null, at: 0, added: [user("u1", "edited")] });
  });

  test("an edit with a new id after the repeated prefix forks there", () => {
    expect(shaped([user("u1"), answer("a1"), user("u2e")])).toEqual({ kind: "fork", after: "a1", at: 2, added: [user("u2e")] });
  });

  test("a fresh client posting only its new message is not a fork (it anchors at the path's end)", () => {
    expect(shaped([user("u9")])).toBeUndefined();
  });

  test("a regenerate: the post ends at a user message the path answers", () => {
    expect(shaped([user("u1"), answer("a1"), user("u2")])).toEqual({ kind: "fork", after: "u2", at: 3, added: [] });
    expect(shaped([user("u1")])).toEqual({ kind: "fork", after: "u1", at: 1, added: [] });
  });

  test("with a resume it is not a regenerate", () => {
    expect(shaped([user("u1"), answer("a1"), user("u2")], { resume: [{ interruptId: "i1", status: "cancelled" }] })).toBeUndefined();
  });

  test("a post ending at a message that is not a user message is not a regenerate", () => {
    expect(shaped([user("u1"), answer("a1")])).toBeUndefined();
  });

  test("a post that reaches the path's end, or continues it, is not a fork; nor is a client tool's result", () => {
    expect(shaped(path)).toBeUndefined();
    expect(shaped([...path, user("u3")])).toBeUndefined();
    const calling = [user("u1"), asks("a1", "c1")];
    expect(shaped([...calling, result("t1", "c1")], {}, calling)).toBeUndefined();
  });

  test("an assistant message where the path has a user message is not an edit (the anchor rule refuses it)", () => {
    expect(shaped([user("u1"), answer("a1"), answer("a9")])).toBeUndefined();
  });

  test("activity messages (never posted) are skipped: the regenerate forks after the user message, the activity goes with the old answer", () => {
    const withActivity = [user("u1"), activity("p1"), answer("a1"), activity("p2"), user("u2"), answer("a2")];
    expect(shaped([user("u1")], {}, withActivity)).toEqual({ kind: "fork", after: "u1", at: 1, added: [] });
    expect(shaped([user("u1"), answer("a1"), user("u2e")], {}, withActivity)).toEqual({ kind: "fork", after: "p2", at: 4, added: [user("u2e")] });
  });

  test("a kept message posted again after the edit is a 409 naming it", () => {
    expect(shaped([user("u1"), answer("a1"), user("u2e"), user("u1")])).toMatchObject({ error: "history-conflict", messageId: "u1" });
  });
});
