import * as t from "io-ts";
import { clientTool, type ToolCallContext } from "../../../src/client/tools/clientTool";
import { runToolCall, type ToolCallFailure, type ToolCallResult } from "../../../src/client/tools/runToolCall";
import type { ToolCall } from "../../../src/protocol/messages";
import { toolSession } from "./support";

const call = (args: string, name = "get_weather", id = "call-1"): ToolCall => ({ id, type: "function", function: { name, arguments: args } });
const session = toolSession();
const context = { messageId: "tool-1", signal: new AbortController().signal, session };

function weather(execute: (args: { city: string }, context: ToolCallContext) => unknown) {
  return clientTool({ name: "get_weather", description: "The weather", parameters: t.type({ city: t.string }), execute });
}

function failure(result: ToolCallResult): ToolCallFailure {
  if (result.kind !== "failed") throw new Error(`expected a failed result, but got ${JSON.stringify(result)}`);
  return result;
}

describe("runToolCall: success", () => {
  test("decodes the arguments, passes the call's context, and answers with the JSON-encoded result", async () => {
    const seen: unknown[] = [];
    const tool = weather((args, ctx) => {
      seen.push(args, ctx.toolCallId, ctx.signal, ctx.session);
      return { temperature: 21 };
    });
    const result = await runToolCall(call('{"city":"Seoul"}'), tool, context);
    expect(seen).toEqual([{ city: "Seoul" }, "call-1", context.signal, session]);
    expect(result).toEqual({
      kind: "success",
      toolCallId: "call-1",
      toolName: "get_weather",
      value: { temperature: 21 },
      message: { id: "tool-1", role: "tool", toolCallId: "call-1", content: '{"temperature":21}' },
    });
  });

  test.each([
    ["a string, as it is", "14:05", "14:05"],
    ["nothing, as an empty content", undefined, ""],
    ["null", null, "null"],
    ["a number", 3, "3"],
  ])("a result that is %s", async (_what, value, content) => {
    const result = await runToolCall(
      call('{"city":"x"}'),
      weather(() => value),
      context,
    );
    expect(result.kind).toBe("success");
    expect(result.message.content).toBe(content);
  });

  test("awaits a promise, and encodes through the result codec", async () => {
    const DateIso = new t.Type<Date, string, unknown>(
      "DateIso",
      (u): u is Date => u instanceof Date,
      (u, c) => t.failure(u, c),
      (d) => d.toISOString(),
    );
    const clock = clientTool({ name: "clock", description: "Now", result: t.type({ at: DateIso }), execute: async () => ({ at: new Date(0) }) });
    const result = await runToolCall(call("", "clock"), clock, context);
    expect(result.message.content).toBe('{"at":"1970-01-01T00:00:00.000Z"}');
  });

  test("blank arguments read as an empty object", async () => {
    const now = clientTool({ name: "now", description: "Now", execute: (args) => Object.keys(args).length });
    for (const args of ["", "  \n"]) expect((await runToolCall(call(args, "now"), now, context)).message.content).toBe("0");
  });
});

describe("runToolCall: failures become error results, and execute never sees bad arguments", () => {
  const cases: readonly [string, string, string][] = [
    ["a wrong member type", '{"city":42}', 'invalid arguments for "get_weather" at /city: expected string, but got 42'],
    ["a missing member", "{}", 'invalid arguments for "get_weather" at /city: expected string, but got nothing (the member is missing)'],
    ["not an object", '"Seoul"', 'invalid arguments for "get_weather": expected { city: string }, but got "Seoul"'],
  ];
  test.each(cases)("%s: the path, what was expected and what arrived, with the io-ts errors as cause", async (_what, args, text) => {
    const execute = jest.fn();
    const result = failure(await runToolCall(call(args), weather(execute), context));
    expect(execute).not.toHaveBeenCalled();
    expect(result.message).toEqual({ id: "tool-1", role: "tool", toolCallId: "call-1", content: JSON.stringify({ error: text }), error: text });
    expect(result.error).toMatchObject({ code: "invalid-arguments", toolName: "get_weather", toolCallId: "call-1", message: text });
    expect(Array.isArray(result.error.cause)).toBe(true); // io-ts Errors
    expect(result.error.failure?.path).toBe(result.error.path);
  });

  test("arguments that are not JSON", async () => {
    const execute = jest.fn();
    const result = failure(await runToolCall(call('{"city": Seoul}'), weather(execute), context));
    expect(execute).not.toHaveBeenCalled();
    expect(result.error.code).toBe("invalid-arguments");
    expect(result.error.message).toMatch(/^invalid arguments for "get_weather": expected JSON, but got "\{\\"city\\": Seoul\}" \(/);
    expect(result.error.cause).toBeInstanceOf(SyntaxError);
  });

  test("a codec whose validate throws", async () => {
    const Exploding = new t.Type<string, string, unknown>(
      "Exploding",
      t.string.is,
      () => {
        throw new Error("codec bug");
      },
      String,
    );
    const tool = clientTool({ name: "x", description: "d", parameters: t.type({ a: Exploding }), jsonSchema: { type: "object" }, execute: jest.fn() });
    const result = failure(await runToolCall(call('{"a":"b"}', "x"), tool, context));
    expect(result.error).toMatchObject({ code: "invalid-arguments", message: 'invalid arguments for "x": decoding them threw: codec bug' });
  });

  test.each([
    [
      "a synchronous throw",
      () => {
        throw new Error("no network");
      },
      "no network",
    ],
    ["a rejection", () => Promise.reject(new Error("offline")), "offline"],
    [
      "a thrown string",
      () => {
        // eslint-disable-next-line @typescript-eslint/only-throw-error -- a tool that fails with a non-Error on purpose: that is the case under test
        throw "denied";
      },
      "denied",
    ],
    [
      "a thrown object",
      () => {
        // eslint-disable-next-line @typescript-eslint/only-throw-error -- a tool that fails with a non-Error on purpose: that is the case under test
        throw { code: 7 };
      },
      'the tool "get_weather" failed with {"code":7}',
    ],
    ["an error without a message", () => Promise.reject(new Error("")), 'the tool "get_weather" failed without a message'],
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- a tool that fails with a non-Error on purpose: that is the case under test
    ["a rejection with undefined", () => Promise.reject(undefined), 'the tool "get_weather" failed without a message'],
  ])("%s of execute", async (_what, execute, text) => {
    const result = failure(await runToolCall(call('{"city":"x"}'), weather(execute), context));
    expect(result.error.code).toBe("execute-failed");
    expect(result.message.content).toBe(JSON.stringify({ error: text }));
    expect(result.message.error).toBe(text);
  });

  test("the thrown value is kept as cause", async () => {
    const thrown = new Error("no network");
    const result = failure(
      await runToolCall(
        call('{"city":"x"}'),
        weather(() => Promise.reject(thrown)),
        context,
      ),
    );
    expect(result.error.cause).toBe(thrown);
  });

  const cycle: Record<string, unknown> = {};
  cycle.self = cycle;
  test.each([
    ["a BigInt", 1n, /^the result of "get_weather" cannot be sent: expected a JSON value, but encoding it failed: /],
    ["a function", () => 1, /^the result of "get_weather" cannot be sent: expected a JSON value, but got a function$/],
    ["a cycle", cycle, /^the result of "get_weather" cannot be sent: expected a JSON value, but encoding it failed: /],
  ])("a result with no JSON form: %s", async (_what, value, text) => {
    const result = failure(
      await runToolCall(
        call('{"city":"x"}'),
        weather(() => value),
        context,
      ),
    );
    expect(result.error.code).toBe("invalid-result");
    expect(result.error.message).toMatch(text);
    // eslint-disable-next-line @typescript-eslint/no-base-to-string -- the tool answer in this test is text
    expect(JSON.parse(String(result.message.content))).toEqual({ error: result.error.message });
  });
});
