import type { ToolCall, ToolMessage } from "../../../src/protocol/messages";
import { toolCardView } from "../toolCard";

const call = (name: string, args: string): ToolCall => ({ id: "tc-1", type: "function", function: { name, arguments: args } });
const result = (content: ToolMessage["content"], error?: string): ToolMessage => ({
  id: "r-1",
  role: "tool",
  toolCallId: "tc-1",
  content,
  ...(error ? { error } : {}),
});
const running = { running: true, stopped: false };
const over = { running: false, stopped: false };

describe("toolCardView", () => {
  it("is running, with its arguments as fields, until the result comes", () => {
    const view = toolCardView(call("add_task", '{"title":"buy milk"}'), undefined, running);
    expect(view).toEqual({
      id: "tc-1",
      name: "add_task",
      title: "Add task",
      status: "running",
      statusLabel: "Running…",
      args: { kind: "fields", fields: [{ key: "title", label: "title", value: "buy milk" }] },
      result: undefined,
    });
  });

  it("is done with its result read as fields", () => {
    const view = toolCardView(call("add_task", '{"title":"buy milk"}'), result('{"id":1}'), over);
    expect(view.status).toBe("done");
    expect(view.result).toEqual({ kind: "fields", fields: [{ key: "id", label: "id", value: "1" }] });
  });

  it("is failed when the result says so (ok: false, an error field, or the message's error)", () => {
    expect(toolCardView(call("complete_task", '{"id":9}'), result('{"ok":false,"error":"there is no task 9"}'), over).status).toBe("failed");
    expect(toolCardView(call("lookup", "{}"), result('{"error":"timeout"}'), over).status).toBe("failed");
    expect(toolCardView(call("lookup", "{}"), result("gave up", "timeout"), over).status).toBe("failed");
  });

  it("is stopped when Stop cut it off, and unanswered when a run ended without its result", () => {
    expect(toolCardView(call("add_task", '{"title":"x"}'), undefined, { running: false, stopped: true })).toMatchObject({
      status: "stopped",
      statusLabel: "Stopped",
    });
    expect(toolCardView(call("add_task", '{"title":"x"}'), undefined, over)).toMatchObject({ status: "unanswered", statusLabel: "No result" });
  });

  it("is waiting while a client tool call waits for the user's answer, and done once it has it", () => {
    const confirm = call("confirm_delete", '{"id":1,"title":"buy milk"}');
    expect(toolCardView(confirm, undefined, { running: true, stopped: false, waiting: true })).toMatchObject({
      status: "waiting",
      statusLabel: "Waiting for you",
    });
    expect(toolCardView(confirm, result('{"confirmed":true}'), { running: true, stopped: false, waiting: true }).status).toBe("done");
  });

  it("reads a result made of content parts by its text parts", () => {
    const view = toolCardView(call("lookup", "{}"), result([{ type: "text", text: '{"found":true}' }]), over);
    expect(view.result).toEqual({ kind: "fields", fields: [{ key: "found", label: "found", value: "yes" }] });
  });
});
