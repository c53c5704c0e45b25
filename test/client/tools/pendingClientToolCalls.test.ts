import { clientTool, type ClientTool } from "../../../src/client/tools/clientTool";
import { pendingClientToolCalls, type PendingToolCallsInput } from "../../../src/client/tools/pendingClientToolCalls";
import type { Message, ToolCall } from "../../../src/protocol/messages";

const getTime = clientTool({ name: "get_time", description: "The local time", execute: () => "12:00" });
const confirm = clientTool({ name: "confirm_delete", description: "Asks the user", execute: () => true });
const tools = new Map<string, ClientTool>([
  ["get_time", getTime],
  ["confirm_delete", confirm],
]);

const tc = (id: string, name: string): ToolCall => ({ id, type: "function", function: { name, arguments: "{}" } });
const assistant = (id: string, ...toolCalls: ToolCall[]): Message => ({ id, role: "assistant", toolCalls });
const result = (id: string, toolCallId: string): Message => ({ id, role: "tool", toolCallId, content: "done" });
const user: Message = { id: "u1", role: "user", content: "what is due today?" };

/** `[execute ids, left ids, unknown ids]` for compact expectations. */
function split(input: PendingToolCallsInput): [string[], string[], string[]] {
  const found = pendingClientToolCalls(input);
  return [
    found.execute.map((item) => `${item.messageId}/${item.call.id}`),
    found.leftForApplication.map((item) => `${item.messageId}/${item.call.id}`),
    [...found.unknownIds],
  ];
}

const conversation: Message[] = [
  user,
  assistant("a1", tc("old", "get_time")),
  assistant("a2", tc("answered", "get_time"), tc("t1", "get_time"), tc("app", "open_url")),
  result("r1", "answered"),
  assistant("a3", tc("t2", "confirm_delete")),
];

describe("pendingClientToolCalls without pendingToolCallIds: calls with no result message", () => {
  test("the whole conversation, in order, split by whether the session knows the tool", () => {
    expect(split({ messages: conversation, tools })).toEqual([["a1/old", "a2/t1", "a3/t2"], ["a2/app"], []]);
  });

  test("only the run's assistant messages when runMessageIds is given", () => {
    expect(split({ messages: conversation, tools, runMessageIds: new Set(["a2", "a3"]) })).toEqual([["a2/t1", "a3/t2"], ["a2/app"], []]);
  });

  test("each entry pairs the call with its tool", () => {
    const [first] = pendingClientToolCalls({ messages: conversation, tools, runMessageIds: new Set(["a3"]) }).execute;
    expect(first).toEqual({ call: tc("t2", "confirm_delete"), messageId: "a3", tool: confirm });
  });

  test("nothing when every call has its result, or there are no calls", () => {
    expect(split({ messages: [user, assistant("a1", tc("c", "get_time")), result("r", "c")], tools })).toEqual([[], [], []]);
    expect(split({ messages: [user, { id: "a", role: "assistant", content: "hi" }], tools })).toEqual([[], [], []]);
  });

  test("a call id held by two messages is one call", () => {
    expect(split({ messages: [assistant("a1", tc("c", "get_time")), assistant("a2", tc("c", "get_time"))], tools })).toEqual([["a1/c"], [], []]);
  });
});

describe("pendingClientToolCalls with pendingToolCallIds (docs/wire.md#4.10): exactly the calls named", () => {
  test("named calls anywhere in the conversation, in conversation order, whatever runMessageIds says", () => {
    expect(split({ messages: conversation, tools, pendingToolCallIds: ["t2", "old", "app"], runMessageIds: new Set(["a3"]) })).toEqual([
      ["a1/old", "a3/t2"],
      ["a2/app"],
      [],
    ]);
  });

  test("an empty list means none, even with calls that have no result", () => {
    expect(split({ messages: conversation, tools, pendingToolCallIds: [] })).toEqual([[], [], []]);
  });

  test("a named call that already has a result is not answered twice", () => {
    expect(split({ messages: conversation, tools, pendingToolCallIds: ["answered", "t1"] })).toEqual([["a2/t1"], [], []]);
  });

  test("ids that name no call are reported, once each, in the given order", () => {
    expect(split({ messages: conversation, tools, pendingToolCallIds: ["ghost", "t1", "ghost", "phantom"] })).toEqual([["a2/t1"], [], ["ghost", "phantom"]]);
  });
});
