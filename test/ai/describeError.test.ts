/** The default `onError` and the usage mapping: small pure functions, tested with tables. */
import { APICallError, type LanguageModelUsage } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { describeError, MAX_ERROR_MESSAGE_LENGTH, providerName, toTokenUsage } from "../../src/ai";

describe("describeError", () => {
  test.each<[string, unknown, string]>([
    ["an Error: its message", new Error("Overloaded"), "Overloaded"],
    ["a string: itself", "quota exceeded", "quota exceeded"],
    [
      "a provider's JSON error: its message member",
      { type: "invalid_request_error", message: "max_tokens too large", param: "max_tokens" },
      "max_tokens too large",
    ],
    ["an object without a message: a fixed sentence, never its JSON", { secret: "sk-123" }, "the model call failed without a message"],
    ["an empty message: the fixed sentence", new Error(""), "the model call failed without a message"],
    ["undefined: the fixed sentence", undefined, "the model call failed without a message"],
  ])("%s", (_name, error, message) => {
    expect(describeError(error, { kind: "model" })).toEqual({ message, code: "MODEL_ERROR" });
  });

  test("an APICallError gives its message only: no URL, request body, headers or response body", () => {
    const error = new APICallError({
      message: "Rate limit reached",
      url: "https://api.example.com/v1",
      requestBodyValues: { prompt: "private" },
      statusCode: 429,
      responseHeaders: { authorization: "Bearer sk-secret" },
      responseBody: "private body",
    });
    expect(describeError(error, { kind: "model" })).toEqual({ message: "Rate limit reached", code: "MODEL_ERROR" });
  });

  test("a long message is cut to the limit", () => {
    const { message } = describeError(new Error("x".repeat(5000)), { kind: "model" });
    expect(message).toHaveLength(MAX_ERROR_MESSAGE_LENGTH);
    expect(message.endsWith("…")).toBe(true);
  });

  test("a tool error names the tool when there is nothing else to say", () => {
    expect(describeError({}, { kind: "tool", toolName: "search", toolCallId: "c1" })).toEqual({
      message: 'the tool "search" failed without a message',
      code: "TOOL_ERROR",
    });
  });
});

describe("toTokenUsage", () => {
  const full: LanguageModelUsage = {
    inputTokens: 100,
    inputTokenDetails: { noCacheTokens: 60, cacheReadTokens: 30, cacheWriteTokens: 10 },
    outputTokens: 20,
    outputTokenDetails: { textTokens: 15, reasoningTokens: 5 },
    totalTokens: 120,
    raw: { anything: 1 },
  };

  test("every AG-UI count is mapped from its SDK field", () => {
    expect(toTokenUsage(full, { provider: "anthropic", model: "claude-x" })).toEqual({
      provider: "anthropic",
      model: "claude-x",
      inputTokens: 100,
      outputTokens: 20,
      totalTokens: 120,
      reasoningTokens: 5,
      cachedInputTokens: 30,
      cacheWriteInputTokens: 10,
    });
  });

  test("unreported counts are left out, never sent as 0; so are counts the wire would refuse", () => {
    const sparse: LanguageModelUsage = {
      inputTokens: 7,
      inputTokenDetails: { noCacheTokens: undefined, cacheReadTokens: undefined, cacheWriteTokens: undefined },
      outputTokens: -1,
      outputTokenDetails: { textTokens: undefined, reasoningTokens: 2.5 },
      totalTokens: undefined,
    };
    expect(toTokenUsage(sparse)).toEqual({ inputTokens: 7 });
  });
});

describe("providerName", () => {
  test.each<[string, ConstructorParameters<typeof MockLanguageModelV4>[0] | string, string | undefined]>([
    ["a provider id with a sub-API", { provider: "openai.responses" }, "openai"],
    ["a plain provider id", { provider: "mock-provider" }, "mock-provider"],
    ["a gateway model string", "anthropic/claude-sonnet-4", "anthropic"],
    ["a model string without a provider", "gpt-4o", undefined],
  ])("%s", (_name, model, expected) => {
    expect(providerName(typeof model === "string" ? model : new MockLanguageModelV4(model))).toBe(expected);
  });
});
