/** `ctx.toolResultFor(id)` and `ctx.lastToolResults`: what the client sent back for earlier calls (docs/tools.md § the server's side). */
import { runAgentInput } from "../../src/protocol/build";
import type { Message, ToolCall, ToolMessage } from "../../src/protocol/messages";
import { createRunContext } from "../../src/server";

const tc = (id: string, name = "get_time"): ToolCall => ({ id, type: "function", function: { name, arguments: "{}" } });
const answer = (id: string, toolCallId: string, content: string, error?: string): ToolMessage =>
  error === undefined ? { id, role: "tool", toolCallId, content } : { id, role: "tool", toolCallId, content, error };

const contextOf = (messages: Message[]) => createRunContext(undefined, runAgentInput("t", "r", { messages })).ctx;

const thread: Message[] = [
  { id: "u1", role: "user", content: "what is due today?" },
  { id: "a1", role: "assistant", toolCalls: [tc("old")] },
  answer("r-old", "old", "09:00"),
  { id: "a2", role: "assistant", content: "One moment.", toolCalls: [tc("time"), tc("locale", "get_locale"), tc("unanswered")] },
  answer("r-locale", "locale", "ko-KR"),
  answer("r-time", "time", JSON.stringify({ error: "no clock" }), "no clock"),
];

describe("ctx.toolResultFor", () => {
  test("finds the tool message answering a call of any earlier turn", () => {
    const ctx = contextOf(thread);
    expect(ctx.toolResultFor("old")).toEqual(answer("r-old", "old", "09:00"));
    expect(ctx.toolResultFor("time")).toMatchObject({ error: "no clock", content: '{"error":"no clock"}' });
    expect(ctx.toolResultFor("unanswered")).toBeUndefined();
    expect(ctx.toolResultFor("nonexistent")).toBeUndefined();
  });

  test("the last answer wins when a call was answered twice", () => {
    const ctx = contextOf([{ id: "a", role: "assistant", toolCalls: [tc("c")] }, answer("r1", "c", "first"), answer("r2", "c", "second")]);
    expect(ctx.toolResultFor("c")?.content).toBe("second");
  });

  test("reads the messages of the run it is in (each context its own)", () => {
    expect(contextOf([]).toolResultFor("old")).toBeUndefined();
    expect(contextOf(thread).toolResultFor("old")?.id).toBe("r-old");
  });
});

describe("ctx.lastToolResults", () => {
  test("the answers to the last assistant message that made calls, in the calls' order", () => {
    expect(contextOf(thread).lastToolResults.map((message) => message.id)).toEqual(["r-time", "r-locale"]);
  });

  test("looks past a later assistant message without calls", () => {
    const ctx = contextOf([...thread, { id: "a3", role: "assistant", content: "Thanks." }, { id: "u2", role: "user", content: "and tomorrow?" }]);
    expect(ctx.lastToolResults.map((message) => message.id)).toEqual(["r-time", "r-locale"]);
  });

  test("empty when no assistant message made a call, or none of its calls is answered", () => {
    expect(contextOf([{ id: "u1", role: "user", content: "hi" }]).lastToolResults).toEqual([]);
    expect(contextOf([...thread, { id: "a3", role: "assistant", toolCalls: [tc("fresh")] }]).lastToolResults).toEqual([]);
  });
});
