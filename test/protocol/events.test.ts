// The event vocabulary against docs/wire.md#1.5 and docs/wire.md#2, written out here by hand.
import { isLeft, isRight } from "fp-ts/Either";
import { EVENT_TYPES, SUBAGENT_EVENT_TYPES, THINKING_EVENT_TYPES, UNATTRIBUTABLE_EVENT_TYPES, eventCodecs, type EventType } from "../../src/protocol/events";
import { decodeEvent } from "../../src/wire/decodeEvent";
import { ALL_EVENTS } from "./samples";

/** docs/wire.md#2, column `subagentRunId`: "O". */
const MAY_CARRY = [
  "STEP_STARTED",
  "STEP_FINISHED",
  "TEXT_MESSAGE_START",
  "TEXT_MESSAGE_CONTENT",
  "TEXT_MESSAGE_END",
  "TEXT_MESSAGE_CHUNK",
  "TOOL_CALL_START",
  "TOOL_CALL_ARGS",
  "TOOL_CALL_END",
  "TOOL_CALL_CHUNK",
  "TOOL_CALL_RESULT",
  "STATE_SNAPSHOT",
  "STATE_DELTA",
  "ACTIVITY_SNAPSHOT",
  "ACTIVITY_DELTA",
  "RAW",
  "CUSTOM",
  "REASONING_START",
  "REASONING_MESSAGE_START",
  "REASONING_MESSAGE_CONTENT",
  "REASONING_MESSAGE_END",
  "REASONING_MESSAGE_CHUNK",
  "REASONING_END",
  "REASONING_ENCRYPTED_VALUE",
];
/** docs/wire.md#2: "R (identity)". */
const MUST_CARRY = ["SUBAGENT_STARTED", "SUBAGENT_FINISHED", "SUBAGENT_ERROR"];
/** docs/wire.md#1.5: the nine types that must not carry it. */
const NEVER_CARRY = [
  "RUN_STARTED",
  "RUN_FINISHED",
  "RUN_ERROR",
  "MESSAGES_SNAPSHOT",
  "THINKING_START",
  "THINKING_END",
  "THINKING_TEXT_MESSAGE_START",
  "THINKING_TEXT_MESSAGE_CONTENT",
  "THINKING_TEXT_MESSAGE_END",
];

test("there are 36 event types, each with a codec, and the table above has each exactly once", () => {
  expect(EVENT_TYPES).toHaveLength(36);
  expect(new Set(EVENT_TYPES).size).toBe(36);
  expect([...MAY_CARRY, ...MUST_CARRY, ...NEVER_CARRY].sort()).toEqual([...EVENT_TYPES].sort());
  expect(MAY_CARRY).toHaveLength(24);
  expect(MUST_CARRY).toHaveLength(3);
  expect(NEVER_CARRY).toHaveLength(9);
});

test("the samples cover all 36 types", () => {
  expect(new Set(ALL_EVENTS.map((event) => event.type))).toEqual(new Set(EVENT_TYPES));
});

test("THINKING_EVENT_TYPES are the five deprecated types", () => {
  expect([...THINKING_EVENT_TYPES].sort()).toEqual(EVENT_TYPES.filter((type) => type.startsWith("THINKING_")).sort());
  expect(THINKING_EVENT_TYPES).toHaveLength(5);
});

describe("subagentRunId (docs/wire.md#1.5)", () => {
  test.each(MAY_CARRY)("%s declares it optional", (type) => {
    const codec = eventCodecs[type as EventType];
    expect(Object.keys(codec.optional)).toContain("subagentRunId");
    expect(Object.keys(codec.required)).not.toContain("subagentRunId");
  });

  test.each(MUST_CARRY)("%s declares it required", (type) => {
    const codec = eventCodecs[type as EventType];
    expect(Object.keys(codec.required)).toContain("subagentRunId");
    expect(Object.keys(codec.optional)).not.toContain("subagentRunId");
  });

  test.each(NEVER_CARRY)("%s does not declare it", (type) => {
    const codec = eventCodecs[type as EventType];
    expect(Object.keys(codec.required)).not.toContain("subagentRunId");
    expect(Object.keys(codec.optional)).not.toContain("subagentRunId");
  });

  test("UNATTRIBUTABLE_EVENT_TYPES and SUBAGENT_EVENT_TYPES agree with the table", () => {
    expect([...UNATTRIBUTABLE_EVENT_TYPES].sort()).toEqual([...NEVER_CARRY].sort());
    expect([...SUBAGENT_EVENT_TYPES].sort()).toEqual([...MUST_CARRY].sort());
  });

  test("an attributable event decodes with and without it; a SUBAGENT_* event without it is an error", () => {
    expect(isRight(decodeEvent({ type: "TOOL_CALL_END", toolCallId: "t" }))).toBe(true);
    expect(decodeEvent({ type: "TOOL_CALL_END", toolCallId: "t", subagentRunId: "s" })).toEqual({
      _tag: "Right",
      right: { type: "TOOL_CALL_END", toolCallId: "t", subagentRunId: "s" },
    });
    const missing = decodeEvent({ type: "SUBAGENT_ERROR", message: "m" });
    expect(isLeft(missing) && missing.left.path).toBe("/subagentRunId");
  });

  test("an ill-typed subagentRunId is an error on every type that declares it", () => {
    for (const type of [...MAY_CARRY, ...MUST_CARRY]) {
      const sample = ALL_EVENTS.find((event) => event.type === type);
      const result = decodeEvent({ ...sample, subagentRunId: 7 });
      expect(isLeft(result) && [result.left.eventType, result.left.path]).toEqual([type, "/subagentRunId"]);
    }
  });
});
