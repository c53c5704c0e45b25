// decodeEvent's leniency table (docs/architecture.md#protocol-layer, docs/wire.md#1.4), its errors, and that it never throws.
import * as fc from "fast-check";
import { isLeft, type Either } from "fp-ts/Either";
import { EVENT_TYPES, type Event } from "../../src/protocol/events";
import { decodeEvent } from "../../src/wire/decodeEvent";
import { DecodeError } from "../../src/wire/DecodeError";

const right = (event: Record<string, unknown>) => ({ _tag: "Right", right: event });
const leftOf = (result: Either<DecodeError, Event>): DecodeError => {
  if (!isLeft(result)) throw new Error(`expected a decode error, got ${JSON.stringify(result.right)}`);
  return result.left;
};

describe("an optional member sent as null reads as absent", () => {
  const rows: [string, Record<string, unknown>, Record<string, unknown>][] = [
    [
      "TOOL_CALL_START.parentMessageId",
      { type: "TOOL_CALL_START", toolCallId: "t", toolCallName: "n", parentMessageId: null },
      { type: "TOOL_CALL_START", toolCallId: "t", toolCallName: "n" },
    ],
    ["TOOL_CALL_CHUNK.parentMessageId", { type: "TOOL_CALL_CHUNK", toolCallId: "t", parentMessageId: null }, { type: "TOOL_CALL_CHUNK", toolCallId: "t" }],
    ["RUN_FINISHED.outcome", { type: "RUN_FINISHED", threadId: "t", runId: "r", outcome: null }, { type: "RUN_FINISHED", threadId: "t", runId: "r" }],
    ["RUN_FINISHED.result", { type: "RUN_FINISHED", threadId: "t", runId: "r", result: null }, { type: "RUN_FINISHED", threadId: "t", runId: "r" }],
    ["SUBAGENT_FINISHED.result", { type: "SUBAGENT_FINISHED", subagentRunId: "s", result: null }, { type: "SUBAGENT_FINISHED", subagentRunId: "s" }],
    ["rawEvent", { type: "TEXT_MESSAGE_END", messageId: "m", rawEvent: null }, { type: "TEXT_MESSAGE_END", messageId: "m" }],
    ["timestamp", { type: "TEXT_MESSAGE_END", messageId: "m", timestamp: null }, { type: "TEXT_MESSAGE_END", messageId: "m" }],
    [
      "TEXT_MESSAGE_START.name",
      { type: "TEXT_MESSAGE_START", messageId: "m", role: "user", name: null },
      { type: "TEXT_MESSAGE_START", messageId: "m", role: "user" },
    ],
    ["RUN_ERROR.code", { type: "RUN_ERROR", message: "x", code: null }, { type: "RUN_ERROR", message: "x" }],
    ["RAW.source", { type: "RAW", event: 1, source: null }, { type: "RAW", event: 1 }],
    [
      "RUN_STARTED.parentRunId and input.state, input.forwardedProps",
      {
        type: "RUN_STARTED",
        threadId: "t",
        runId: "r",
        parentRunId: null,
        input: { threadId: "t", runId: "r", messages: [], tools: [], context: [], state: null, forwardedProps: null },
      },
      { type: "RUN_STARTED", threadId: "t", runId: "r", input: { threadId: "t", runId: "r", messages: [], tools: [], context: [] } },
    ],
    [
      "a message's name inside MESSAGES_SNAPSHOT",
      { type: "MESSAGES_SNAPSHOT", messages: [{ id: "u", role: "user", content: "hi", name: null }] },
      { type: "MESSAGES_SNAPSHOT", messages: [{ id: "u", role: "user", content: "hi" }] },
    ],
  ];
  test.each(rows)("%s", (_where, input, expected) => {
    expect(decodeEvent(input)).toEqual(right(expected));
  });

  test("the input object is not modified", () => {
    const input = { type: "RUN_FINISHED", threadId: "t", runId: "r", outcome: null };
    decodeEvent(input);
    expect(input).toEqual({ type: "RUN_FINISHED", threadId: "t", runId: "r", outcome: null });
  });

  test("null as data is kept: STATE_SNAPSHOT.snapshot, CUSTOM.value, RAW.event, metadata values", () => {
    for (const input of [
      { type: "STATE_SNAPSHOT", snapshot: null },
      { type: "CUSTOM", name: "n", value: null },
      { type: "RAW", event: null },
      { type: "TEXT_MESSAGE_END", messageId: "m", metadata: { k: null } },
    ]) {
      expect(decodeEvent(input)).toEqual(right(input));
    }
  });
});

describe("null is rejected where both protocol revisions reject it (decision in decodeEvent's doc comment)", () => {
  const rows: [string, Record<string, unknown>, string][] = [
    ["subagentRunId on an attributable event", { type: "TEXT_MESSAGE_END", messageId: "m", subagentRunId: null }, "/subagentRunId"],
    ["subagentRunId on a SUBAGENT_* event", { type: "SUBAGENT_STARTED", subagentRunId: null, name: "n" }, "/subagentRunId"],
    ["metadata", { type: "RUN_ERROR", message: "x", metadata: null }, "/metadata"],
    [
      "subagentRunId on a message",
      { type: "MESSAGES_SNAPSHOT", messages: [{ id: "u", role: "user", content: "hi", subagentRunId: null }] },
      "/messages/0/subagentRunId",
    ],
  ];
  test.each(rows)("%s", (_name, input, path) => {
    const error = leftOf(decodeEvent(input));
    expect(error).toBeInstanceOf(DecodeError);
    expect([error.code, error.eventType, error.path, error.actual]).toEqual(["invalid-event", input.type, path, null]);
  });

  test("metadata that is an array is rejected", () => {
    expect(leftOf(decodeEvent({ type: "RUN_ERROR", message: "x", metadata: [] })).path).toBe("/metadata");
  });
});

test("unknown top-level members are stripped (AG-UI 1.1; revised: they used to be kept); unrecognisedMaterial.test.ts has the rest", () => {
  const input = { type: "TEXT_MESSAGE_CONTENT", messageId: "m", delta: "d", vendorField: { nested: [1] }, another: null };
  expect(decodeEvent(input)).toEqual(right({ type: "TEXT_MESSAGE_CONTENT", messageId: "m", delta: "d" }));
});

describe("defaults are filled on decode", () => {
  test.each([undefined, null])("TEXT_MESSAGE_START.role %p → assistant", (role) => {
    expect(decodeEvent({ type: "TEXT_MESSAGE_START", messageId: "m", role })).toEqual(right({ type: "TEXT_MESSAGE_START", messageId: "m", role: "assistant" }));
  });
  test("TEXT_MESSAGE_START.role, when given, is kept", () => {
    expect(decodeEvent({ type: "TEXT_MESSAGE_START", messageId: "m", role: "system" })).toEqual(
      right({ type: "TEXT_MESSAGE_START", messageId: "m", role: "system" }),
    );
  });
  test.each([undefined, null])("ACTIVITY_SNAPSHOT.replace %p → true", (replace) => {
    expect(decodeEvent({ type: "ACTIVITY_SNAPSHOT", messageId: "a", activityType: "T", content: {}, replace })).toEqual(
      right({ type: "ACTIVITY_SNAPSHOT", messageId: "a", activityType: "T", content: {}, replace: true }),
    );
  });
  test("ACTIVITY_SNAPSHOT.replace false is kept", () => {
    const input = { type: "ACTIVITY_SNAPSHOT", messageId: "a", activityType: "T", content: {}, replace: false };
    expect(decodeEvent(input)).toEqual(right(input));
  });
});

describe("a missing or ill-typed required member names the event type, the path, what was expected and what arrived", () => {
  const rows: [string, Record<string, unknown>, string, string, unknown][] = [
    ["missing delta", { type: "TEXT_MESSAGE_CONTENT", messageId: "m" }, "/delta", "string", undefined],
    ["number as delta", { type: "TEXT_MESSAGE_CONTENT", messageId: "m", delta: 5 }, "/delta", "string", 5],
    ["null as a required member", { type: "TOOL_CALL_ARGS", toolCallId: null, delta: "" }, "/toolCallId", "string", null],
    ["a role that is not a string", { type: "TEXT_MESSAGE_START", messageId: "m", role: 7 }, "/role", "TextMessageRole", 7],
    ["content that is not an object", { type: "ACTIVITY_SNAPSHOT", messageId: "a", activityType: "T", content: [] }, "/content", "UnknownRecord", []],
    ["missing CUSTOM.value", { type: "CUSTOM", name: "n" }, "/value", "null is allowed", undefined],
    ["missing RAW.event", { type: "RAW" }, "/event", "null is allowed", undefined],
    ["missing STATE_SNAPSHOT.snapshot", { type: "STATE_SNAPSHOT" }, "/snapshot", "null is allowed", undefined],
    [
      "a nested interrupt member",
      { type: "RUN_FINISHED", threadId: "t", runId: "r", outcome: { type: "interrupt", interrupts: [{ id: "i", reason: 3 }] } },
      "/outcome/interrupts/0/reason",
      "string",
      3,
    ],
    [
      "an empty interrupts list",
      { type: "RUN_FINISHED", threadId: "t", runId: "r", outcome: { type: "interrupt", interrupts: [] } },
      "/outcome/interrupts",
      "at least one",
      [],
    ],
    ["a patch op that is not a string", { type: "STATE_DELTA", delta: [{ op: 1, path: "/a" }] }, "/delta/0/op", "JsonPatchOperation", 1],
    ["an outcome that is an array", { type: "RUN_FINISHED", threadId: "t", runId: "r", outcome: [] }, "/outcome", "RunFinishedOutcome", []],
    ["a negative token count", { type: "RUN_ERROR", message: "m", usage: [{ inputTokens: -1 }] }, "/usage/0/inputTokens", "non-negative integer", -1],
  ];
  test.each(rows)("%s", (_name, input, path, expectedMentions, actual) => {
    const error = leftOf(decodeEvent(input));
    expect(error.code).toBe("invalid-event");
    expect(error.eventType).toBe(input.type);
    expect(error.path).toBe(path);
    expect(error.actual).toEqual(actual);
    expect(error.expected).toContain(expectedMentions);
    expect(error.message).toContain(String(input.type));
    expect(error.message).toContain(path);
    expect(error.message).toContain(actual === undefined ? "missing" : JSON.stringify(actual));
  });
});

describe("not an event", () => {
  test("an unknown type is an error whose message quotes the type", () => {
    const error = leftOf(decodeEvent({ type: "TELEPATHY_START", mind: "reader" }));
    expect(error.code).toBe("unknown-type");
    expect(error.message).toContain("TELEPATHY_START");
    expect(error.eventType).toBe("TELEPATHY_START");
  });

  test.each([null, undefined, 42, "RUN_STARTED", true, [], [{ type: "RUN_STARTED" }], {}, { type: 5 }, { type: null }])("%p", (input) => {
    expect(leftOf(decodeEvent(input)).code).toBe("not-an-event");
  });
});

describe("decodeEvent never throws", () => {
  const neverThrows = (input: unknown) => {
    let result: Either<DecodeError, Event> | undefined;
    expect(() => (result = decodeEvent(input))).not.toThrow();
    expect(result?._tag === "Right" || result?.left instanceof DecodeError).toBe(true);
  };

  test("for any value", () => {
    fc.assert(fc.property(fc.anything(), neverThrows), { numRuns: 2000 });
  });

  test("for objects with a known type and arbitrary members", () => {
    const member = fc.oneof(fc.anything(), fc.constant(null), fc.string());
    const known = fc.record({ type: fc.constantFrom(...EVENT_TYPES) });
    fc.assert(
      fc.property(
        known,
        fc.dictionary(fc.string(), member),
        fc.dictionary(fc.constantFrom("messageId", "delta", "subagentRunId", "metadata", "outcome", "messages", "input", "delta", "content", "role"), member),
        (head, extra, likely) => neverThrows({ ...extra, ...likely, ...head }),
      ),
      { numRuns: 2000 },
    );
  });

  test("for hostile objects", () => {
    const throwingType = Object.defineProperty({}, "type", {
      enumerable: true,
      get: () => {
        throw new Error("no type for you");
      },
    });
    const throwingMember = Object.defineProperty({ type: "TEXT_MESSAGE_END" }, "messageId", {
      enumerable: true,
      get: () => {
        throw new Error("no id");
      },
    });
    const proxy = new Proxy(
      {},
      {
        get: () => {
          throw new Error("trap");
        },
        ownKeys: () => {
          throw new Error("trap");
        },
      },
    );
    const cyclic: Record<string, unknown> = { type: "TEXT_MESSAGE_CONTENT", messageId: "m" };
    cyclic.delta = cyclic;
    const bigint = { type: "TEXT_MESSAGE_CONTENT", messageId: "m", delta: 10n };
    const throwingJson = {
      type: "TEXT_MESSAGE_CONTENT",
      messageId: "m",
      delta: {
        toJSON: () => {
          throw new Error("json");
        },
      },
    };
    const nullProto = Object.assign(Object.create(null), { type: "TEXT_MESSAGE_END", messageId: "m" });
    const stringObject = { type: new String("RUN_ERROR"), message: "m" };
    for (const input of [
      throwingType,
      throwingMember,
      proxy,
      cyclic,
      bigint,
      throwingJson,
      nullProto,
      stringObject,
      Symbol("x"),
      () => 1,
      new Date(0),
      new Map(),
    ]) {
      neverThrows(input);
    }
    expect(leftOf(decodeEvent(throwingType)).message).toContain("no type for you");
    expect(decodeEvent(nullProto)._tag).toBe("Right");
  });
});
