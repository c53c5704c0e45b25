// Where the pages put Edit, Copy, Regenerate and the version arrows (examples/shared/turnControls.ts).
import type { Message } from "../../../src/protocol/messages";
import { groupMessageId, turnControls, versionLabel } from "../turnControls";

const user = (id: string, content: string): Message => ({ id, role: "user", content });
const assistant = (id: string, content: string | undefined, extra: Partial<Message> = {}): Message => ({ id, role: "assistant", content, ...extra }) as Message;
const tool = (id: string, toolCallId: string): Message => ({ id, role: "tool", toolCallId, content: "{}" });

describe("turnControls", () => {
  it("puts Edit on every question and the answer's controls on its last own assistant message, with the answer's texts", () => {
    const controls = turnControls([
      user("u1", "add buy milk"),
      assistant("a1", "On it.", { toolCalls: [{ id: "c1", type: "function", function: { name: "add_task", arguments: "{}" } }] }),
      tool("t1", "c1"),
      assistant("a2", "1 task."),
      user("u2", "research rxjs"),
      assistant("a3", "Asking."),
      assistant("s1", "notes", { subagentRunId: "sub-1" }),
    ]);
    expect(controls.get("u1")).toEqual({ kind: "question", messageId: "u1", text: "add buy milk" });
    expect(controls.get("a1")).toBeUndefined();
    expect(controls.get("a2")).toEqual({ kind: "answer", questionId: "u1", firstId: "a1", text: "On it.\n\n1 task." });
    expect(controls.get("u2")).toEqual({ kind: "question", messageId: "u2", text: "research rxjs" });
    expect(controls.get("a3")).toEqual({ kind: "answer", questionId: "u2", firstId: "a3", text: "Asking." }); // not on the subagent's message
    expect(controls.get("s1")).toBeUndefined();
    expect([...controls.keys()]).toEqual(["u1", "a2", "u2", "a3"]);
  });

  it("gives no answer controls before the first question, nor to an answer without an assistant message yet", () => {
    const controls = turnControls([assistant("g", "Hello."), user("u1", "hi"), tool("t1", "c9")]);
    expect([...controls.keys()]).toEqual(["u1"]);
  });

  it("names a question's group by its own id and an answer's by its first message", () => {
    const controls = turnControls([user("u1", "hi"), assistant("a1", ""), assistant("a2", "there")]);
    expect(groupMessageId(controls.get("u1")!)).toBe("u1");
    expect(groupMessageId(controls.get("a2")!)).toBe("a1");
    expect(controls.get("a2")).toMatchObject({ text: "there" }); // the empty text is left out, not joined as a blank
  });
});

describe("versionLabel", () => {
  it("reads 1-based, with arrows only where there is a version to go to", () => {
    expect(versionLabel({ index: 0, count: 2 })).toEqual({ text: "1 / 2", hasPrevious: false, hasNext: true });
    expect(versionLabel({ index: 1, count: 3 })).toEqual({ text: "2 / 3", hasPrevious: true, hasNext: true });
    expect(versionLabel({ index: 2, count: 3 })).toEqual({ text: "3 / 3", hasPrevious: true, hasNext: false });
  });

  it("shows no arrows for a group of one, or none known", () => {
    expect(versionLabel({ index: 0, count: 1 })).toBeUndefined();
    expect(versionLabel(undefined)).toBeUndefined();
  });
});
