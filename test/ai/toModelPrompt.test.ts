/** `toModelPrompt` and `clientTools`: AG-UI messages and tools as the AI SDK's prompt and tools, case by case. */
import type { Message } from "../../src/protocol/messages";
import { AgentError } from "../../src/server";
import { clientTools, INVALID_MESSAGES_CODE, toModelPrompt } from "../../src/ai";

/** The error `fn` throws (an AgentError here), or a failure if it throws nothing. */
function thrown(fn: () => unknown): AgentError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(AgentError);
    return error as AgentError; // test-only: checked on the line above
  }
  throw new Error("expected a throw, but nothing was thrown");
}

const user = (content: Extract<Message, { role: "user" }>["content"]): Message => ({ id: "u", role: "user", content });
const assistantWithCall = (id: string, name = "lookup", args = "{}"): Message => ({
  id: `a-${id}`,
  role: "assistant",
  toolCalls: [{ id, type: "function", function: { name, arguments: args } }],
});

describe("roles", () => {
  test("system and developer messages become the instructions, in order, wherever they stand", () => {
    const prompt = toModelPrompt([{ id: "s", role: "system", content: "A" }, user("hi"), { id: "d", role: "developer", content: "B" }]);
    expect(prompt).toEqual({
      instructions: [
        { role: "system", content: "A" },
        { role: "system", content: "B" },
      ],
      messages: [{ role: "user", content: "hi" }],
    });
  });

  test("activity messages are left out; names, metadata and subagent tags are not sent", () => {
    const prompt = toModelPrompt([
      { id: "act", role: "activity", activityType: "plan", content: { steps: [] } },
      { id: "u", role: "user", content: "hi", name: "Ada", metadata: { a: 1 }, subagentRunId: "s1" },
    ]);
    expect(prompt.messages).toEqual([{ role: "user", content: "hi" }]);
  });

  test("an assistant message with neither text nor tool calls is skipped", () => {
    expect(
      toModelPrompt([
        { id: "a", role: "assistant" },
        { id: "b", role: "assistant", content: "" },
      ]).messages,
    ).toEqual([]);
  });

  test("reasoning joins the next assistant message; reasoning followed by a user message is dropped", () => {
    const prompt = toModelPrompt([
      { id: "r1", role: "reasoning", content: "lost" },
      user("hi"),
      { id: "r2", role: "reasoning", content: "kept", encryptedValue: "opaque-not-json" },
      { id: "a", role: "assistant", content: "Hello" },
    ]);
    expect(prompt.messages).toEqual([
      { role: "user", content: "hi" },
      {
        role: "assistant",
        content: [
          { type: "reasoning", text: "kept" },
          { type: "text", text: "Hello" },
        ],
      },
    ]);
  });
});

describe("tool calls and results", () => {
  test('arguments are parsed; "" is no arguments; malformed ones are kept as the raw string', () => {
    const prompt = toModelPrompt([
      {
        id: "a",
        role: "assistant",
        toolCalls: [
          { id: "c1", type: "function", function: { name: "t", arguments: '{"x":1}' } },
          { id: "c2", type: "function", function: { name: "t", arguments: "" } },
          { id: "c3", type: "function", function: { name: "t", arguments: "{oops" } },
        ],
      },
    ]);
    expect(prompt.messages[0]).toEqual({
      role: "assistant",
      content: [
        { type: "tool-call", toolCallId: "c1", toolName: "t", input: { x: 1 } },
        { type: "tool-call", toolCallId: "c2", toolName: "t", input: {} },
        { type: "tool-call", toolCallId: "c3", toolName: "t", input: "{oops" },
      ],
    });
  });

  test.each<[string, Extract<Message, { role: "tool" }>, unknown]>([
    ["an error as error text", { id: "t", role: "tool", toolCallId: "c", content: "ignored", error: "timed out" }, { type: "error-text", value: "timed out" }],
    ["a JSON object as JSON", { id: "t", role: "tool", toolCallId: "c", content: '{"ok":true}' }, { type: "json", value: { ok: true } }],
    ["a JSON array as JSON", { id: "t", role: "tool", toolCallId: "c", content: "[1,2]" }, { type: "json", value: [1, 2] }],
    [
      "a bare number as text (only objects and arrays are read as JSON)",
      { id: "t", role: "tool", toolCallId: "c", content: "42" },
      { type: "text", value: "42" },
    ],
    ["text that only starts like JSON as text", { id: "t", role: "tool", toolCallId: "c", content: "{not json" }, { type: "text", value: "{not json" }],
    [
      "multimodal content as content parts",
      {
        id: "t",
        role: "tool",
        toolCallId: "c",
        content: [
          { type: "text", text: "chart:" },
          { type: "image", source: { type: "data", value: "iVBO", mimeType: "image/png" } },
        ],
      },
      {
        type: "content",
        value: [
          { type: "text", text: "chart:" },
          { type: "file", data: { type: "data", data: "iVBO" }, mediaType: "image/png" },
        ],
      },
    ],
  ])("a tool result: %s", (_name, message, output) => {
    const prompt = toModelPrompt([assistantWithCall("c"), message]);
    expect(prompt.messages[1]).toEqual({ role: "tool", content: [{ type: "tool-result", toolCallId: "c", toolName: "lookup", output }] });
  });

  test("consecutive tool results share one tool message", () => {
    const prompt = toModelPrompt([
      {
        id: "a",
        role: "assistant",
        toolCalls: [
          { id: "c1", type: "function", function: { name: "x", arguments: "" } },
          { id: "c2", type: "function", function: { name: "y", arguments: "" } },
        ],
      },
      { id: "t1", role: "tool", toolCallId: "c1", content: "one" },
      { id: "t2", role: "tool", toolCallId: "c2", content: "two" },
    ]);
    expect(prompt.messages[1]).toEqual({
      role: "tool",
      content: [
        { type: "tool-result", toolCallId: "c1", toolName: "x", output: { type: "text", value: "one" } },
        { type: "tool-result", toolCallId: "c2", toolName: "y", output: { type: "text", value: "two" } },
      ],
    });
  });

  test("a tool result that answers no earlier tool call is refused, naming the message and the call", () => {
    const refused = () => toModelPrompt([user("hi"), { id: "t9", role: "tool", toolCallId: "ghost", content: "x" }]);
    expect(thrown(refused)).toMatchObject({
      name: "AgentError",
      code: INVALID_MESSAGES_CODE,
      message: 'message "t9": expected a tool result for a tool call of an earlier assistant message, but no assistant message has the tool call "ghost"',
    });
  });
});

describe("user content parts", () => {
  test.each<[string, Exclude<Extract<Message, { role: "user" }>["content"], string>[number], unknown]>([
    ["text", { type: "text", text: "hi" }, { type: "text", text: "hi" }],
    [
      "an image URL without a mime type (the top-level type)",
      { type: "image", source: { type: "url", value: "https://x.test/a.png" } },
      { type: "file", data: { type: "url", url: new URL("https://x.test/a.png") }, mediaType: "image" },
    ],
    [
      "audio data",
      { type: "audio", source: { type: "data", value: "UklG", mimeType: "audio/wav" } },
      { type: "file", data: { type: "data", data: "UklG" }, mediaType: "audio/wav" },
    ],
    [
      "a video URL",
      { type: "video", source: { type: "url", value: "https://x.test/v.mp4", mimeType: "video/mp4" } },
      { type: "file", data: { type: "url", url: new URL("https://x.test/v.mp4") }, mediaType: "video/mp4" },
    ],
    [
      "a document URL without a mime type",
      { type: "document", source: { type: "url", value: "https://x.test/d" } },
      { type: "file", data: { type: "url", url: new URL("https://x.test/d") }, mediaType: "application" },
    ],
    [
      "an uploaded file (a provider reference)",
      { type: "document", source: { type: "file", value: "file-abc", provider: "openai", mimeType: "application/pdf" } },
      { type: "file", data: { type: "reference", reference: { openai: "file-abc" } }, mediaType: "application/pdf" },
    ],
    [
      "a legacy binary part with a URL",
      { type: "binary", mimeType: "image/jpeg", url: "https://x.test/b.jpg", filename: "b.jpg" },
      { type: "file", data: { type: "url", url: new URL("https://x.test/b.jpg") }, mediaType: "image/jpeg", filename: "b.jpg" },
    ],
  ])("%s", (_name, part, expected) => {
    expect(toModelPrompt([user([part])]).messages).toEqual([{ role: "user", content: [expected] }]);
  });

  test.each<[string, Exclude<Extract<Message, { role: "user" }>["content"], string>[number], string]>([
    [
      "a relative URL",
      { type: "image", source: { type: "url", value: "/images/cat.png" } },
      'message "u", part 1: expected an absolute URL, but got "/images/cat.png"',
    ],
    [
      "a file id without a provider",
      { type: "document", source: { type: "file", value: "file-abc" } },
      'message "u", part 1: expected a file source with a "provider" (the AI SDK references uploaded files per provider), but got the file "file-abc" without one',
    ],
    [
      "a binary part with only an id",
      { type: "binary", mimeType: "image/png", id: "blob-1" },
      'message "u", part 1: expected a binary part with "data" or "url", but got one with only the id "blob-1"',
    ],
  ])("%s is refused with an AgentError naming the part", (_name, part, message) => {
    expect(thrown(() => toModelPrompt([user([{ type: "text", text: "look:" }, part])]))).toMatchObject({
      name: "AgentError",
      code: INVALID_MESSAGES_CODE,
      message,
    });
  });
});

describe("clientTools", () => {
  test("each client tool becomes an SDK tool with its description and schema and no execute", () => {
    const tools = clientTools([
      { name: "pick", description: "Pick a color", parameters: { type: "object", properties: { c: { type: "string" } } } },
      { name: "ping", description: "No parameters" },
    ]);
    expect(Object.keys(tools)).toEqual(["pick", "ping"]);
    expect(tools.pick.description).toBe("Pick a color");
    expect(tools.pick.execute).toBeUndefined();
    expect(tools.ping.execute).toBeUndefined();
  });

  test.each([
    ["an array", [1], "an array"],
    ["a string", "object", '"object"'],
    ["a number", 3, "3"],
  ])("parameters that are %s are refused, naming the tool", (_name, parameters, got) => {
    expect(thrown(() => clientTools([{ name: "bad", description: "", parameters }]))).toMatchObject({
      name: "AgentError",
      code: INVALID_MESSAGES_CODE,
      message: `tool "bad": expected its parameters to be a JSON Schema object, but got ${got}`,
    });
  });
});
