/**
 * AG-UI 1.1's processing model (`/spec/1.1/basic/processing`), read rule by rule, at the decoder:
 * unrecognised material is stripped and named (never fatal); a malformed known value is fatal;
 * `metadata` and the other open values pass through; JSON Patch operations are open (RFC 6902 §4).
 * Issue #14 items A1 and A2.
 */
import { isLeft, isRight, type Either } from "fp-ts/Either";
import { from, lastValueFrom, toArray } from "rxjs";
import type { Event } from "../../src/protocol/events";
import { decodeEvent } from "../../src/wire/decodeEvent";
import type { DecodeError } from "../../src/wire/DecodeError";
import { DecodeWarning } from "../../src/wire/DecodeWarning";
import { decodeSse } from "../../src/wire/decodeSse";

/** Decodes with a warning listener: the event (or the error) and what was said. */
function decode(json: unknown): { result: Either<DecodeError, Event>; warnings: DecodeWarning[] } {
  const warnings: DecodeWarning[] = [];
  const result = decodeEvent(json, { onWarning: (warning) => warnings.push(warning) });
  return { result, warnings };
}

function rightOf(result: Either<DecodeError, Event>): Event {
  if (isLeft(result)) throw new Error(`expected an event, got ${result.left.message}`);
  return result.right;
}

const user = (content: unknown) => ({ id: "u1", role: "user", content });

describe("A1: an unrecognised union member never aborts; it is stripped with a warning naming it and where", () => {
  test("an outcome type this build does not know: RUN_FINISHED is delivered without the outcome", () => {
    const { result, warnings } = decode({ type: "RUN_FINISHED", threadId: "t", runId: "r", outcome: { type: "paused" } });
    expect(rightOf(result)).toEqual({ type: "RUN_FINISHED", threadId: "t", runId: "r" });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ kind: "warning", code: "unknown-member", eventType: "RUN_FINISHED", path: "/outcome" });
    expect(warnings[0].message).toContain('"paused"');
  });

  test("a subagent outcome type too (SUBAGENT_FINISHED.outcome is optional: removed, the event kept)", () => {
    const { result, warnings } = decode({ type: "SUBAGENT_FINISHED", subagentRunId: "s1", outcome: { type: "parked" } });
    expect(rightOf(result)).toEqual({ type: "SUBAGENT_FINISHED", subagentRunId: "s1" });
    expect(warnings.map((w) => w.path)).toEqual(["/outcome"]);
  });

  test("a content part type: the part is dropped from the message, the message kept (inside a list, the element goes)", () => {
    const parts = [
      { type: "hologram", beam: 1 },
      { type: "text", text: "hi" },
    ];
    const { result, warnings } = decode({ type: "MESSAGES_SNAPSHOT", messages: [user(parts)] });
    expect(rightOf(result)).toEqual({ type: "MESSAGES_SNAPSHOT", messages: [user([{ type: "text", text: "hi" }])] });
    expect(warnings.map((w) => [w.code, w.path])).toEqual([["unknown-member", "/messages/0/content/0"]]);
    expect(warnings[0].message).toContain('"hologram"');
  });

  test("a required member that is unrecognised takes its container with it: a media part with an unknown source kind goes whole", () => {
    const parts = [
      { type: "image", source: { type: "satellite", value: "x" } },
      { type: "text", text: "look" },
    ];
    const { result, warnings } = decode({ type: "TOOL_CALL_RESULT", messageId: "r1", toolCallId: "t1", content: parts });
    expect(rightOf(result)).toMatchObject({ content: [{ type: "text", text: "look" }] });
    expect(warnings.map((w) => w.path)).toEqual(["/content/0"]);
    expect(warnings[0].message).toContain("/content/0/source/type");
    expect(warnings[0].message).toContain('"satellite"');
  });

  test("an enum value: an unknown role on TEXT_MESSAGE_START is removed and the default applies", () => {
    const { result, warnings } = decode({ type: "TEXT_MESSAGE_START", messageId: "m1", role: "narrator" });
    expect(rightOf(result)).toEqual({ type: "TEXT_MESSAGE_START", messageId: "m1", role: "assistant" });
    expect(warnings.map((w) => [w.code, w.path])).toEqual([["unknown-member", "/role"]]);
  });

  test("an enum value in a list: a message with an unknown role is dropped from a snapshot, the others kept", () => {
    const { result, warnings } = decode({ type: "MESSAGES_SNAPSHOT", messages: [{ id: "x", role: "narrator", content: "?" }, user("hi")] });
    expect(rightOf(result)).toEqual({ type: "MESSAGES_SNAPSHOT", messages: [user("hi")] });
    expect(warnings.map((w) => w.path)).toEqual(["/messages/0"]);
  });

  test("a required member of the event itself: the event is dropped (decodeEvent says `dropped`, not a defect)", () => {
    const { result, warnings } = decode({ type: "REASONING_ENCRYPTED_VALUE", subtype: "image", entityId: "e", encryptedValue: "z" });
    expect(isLeft(result) && [result.left.code, result.left.eventType]).toEqual(["dropped", "REASONING_ENCRYPTED_VALUE"]);
    expect(isLeft(result) && result.left.message).toContain("/subtype");
    expect(warnings).toEqual([]); // the Left is the report
  });

  test("an unknown patch op is dropped from the patch with a warning, and the other ops stay (revised: the whole delta used to be dropped)", () => {
    const { result, warnings } = decode({
      type: "STATE_DELTA",
      delta: [
        { op: "add", path: "/a", value: 1 },
        { op: "increment", path: "/a" },
      ],
    });
    expect(isRight(result) && result.right).toEqual({ type: "STATE_DELTA", delta: [{ op: "add", path: "/a", value: 1 }] });
    expect(warnings.map((w) => [w.code, w.path])).toEqual([["unknown-member", "/delta/1"]]);
    expect(warnings[0].message).toContain('unknown op "increment"');
  });

  test("in a stream the dropped event leaves only its warning, and the stream goes on", async () => {
    const body =
      'data: {"type":"RUN_STARTED","threadId":"t","runId":"r"}\n\n' +
      'data: {"type":"REASONING_ENCRYPTED_VALUE","subtype":"image","entityId":"e","encryptedValue":"z"}\n\n' +
      'data: {"type":"RUN_FINISHED","threadId":"t","runId":"r","outcome":{"type":"paused"}}\n\n';
    const items = await lastValueFrom(from([body]).pipe(decodeSse({ warnings: true }), toArray()));
    expect(items.map((item) => (item instanceof DecodeWarning ? `warning ${item.index} ${item.eventType} ${JSON.stringify(item.path)}` : item.type))).toEqual([
      "RUN_STARTED",
      'warning 1 REASONING_ENCRYPTED_VALUE ""',
      'warning 2 RUN_FINISHED "/outcome"',
      "RUN_FINISHED",
    ]);
    // the plain operator strips silently and skips the dropped event
    const plain = await lastValueFrom(from([body]).pipe(decodeSse(), toArray()));
    expect(plain).toEqual([
      { type: "RUN_STARTED", threadId: "t", runId: "r" },
      { type: "RUN_FINISHED", threadId: "t", runId: "r" },
    ]);
  });
});

describe("A1: a malformed value of a known member stays fatal", () => {
  const rows: [string, unknown, string][] = [
    ["an outcome that is an array", { type: "RUN_FINISHED", threadId: "t", runId: "r", outcome: [] }, "/outcome"],
    ["an outcome without a type", { type: "RUN_FINISHED", threadId: "t", runId: "r", outcome: {} }, "/outcome/type"],
    [
      "a known outcome with a malformed member",
      { type: "RUN_FINISHED", threadId: "t", runId: "r", outcome: { type: "interrupt", interrupts: [42] } },
      "/outcome/interrupts/0",
    ],
    ["a role that is not a string", { type: "TEXT_MESSAGE_START", messageId: "m", role: 3 }, "/role"],
    ["a content part without a type", { type: "MESSAGES_SNAPSHOT", messages: [user([{ text: "hi" }])] }, "/messages/0/content/0/type"],
    ["a patch op that is not a string", { type: "STATE_DELTA", delta: [{ op: true, path: "/a" }] }, "/delta/0/op"],
    ["a messageId that is a number", { type: "TEXT_MESSAGE_END", messageId: 7 }, "/messageId"],
  ];
  test.each(rows)("%s", (_name, json, path) => {
    const { result, warnings } = decode(json);
    expect(isLeft(result) && [result.left.code, result.left.path]).toEqual(["invalid-event", path]);
    expect(warnings).toEqual([]);
  });

  test("an unknown event type stays fatal and named (docs/seeds.md#seed-001, which 1.1 does not override here)", () => {
    const { result } = decode({ type: "TELEPATHY_START" });
    expect(isLeft(result) && [result.left.code, result.left.message]).toEqual(["unknown-type", 'unknown event type "TELEPATHY_START"']);
  });
});

describe("A2: an unknown property on a known event is stripped with a warning (revised: unknown members used to be kept)", () => {
  test("at the top level and deep inside, each named by its JSON Pointer", () => {
    const { result, warnings } = decode({
      type: "RUN_STARTED",
      threadId: "t",
      runId: "r",
      vendor: { x: 1 },
      input: { threadId: "t", runId: "r", messages: [{ ...user("hi"), mood: "sunny" }], tools: [], context: [], future: true },
    });
    const event = rightOf(result);
    expect(event).toEqual({
      type: "RUN_STARTED",
      threadId: "t",
      runId: "r",
      input: { threadId: "t", runId: "r", messages: [user("hi")], tools: [], context: [] },
    });
    expect(warnings.map((w) => [w.code, w.path])).toEqual([
      ["unknown-property", "/vendor"],
      ["unknown-property", "/input/future"],
      ["unknown-property", "/input/messages/0/mood"],
    ]);
    expect(warnings[0].message).toContain('RUN_STARTED has no member "vendor"');
  });

  test("a stripped property does not survive into the value handed on (the input object is not mutated either)", () => {
    const input = { type: "TEXT_MESSAGE_CONTENT", messageId: "m", delta: "d", extra: 1 };
    const event = rightOf(decode(input).result);
    expect("extra" in event).toBe(false);
    expect(input.extra).toBe(1);
  });

  test("metadata is the extension point: its members pass through, as do rawEvent and other free-form values", () => {
    const json = {
      type: "TEXT_MESSAGE_START",
      messageId: "m",
      role: "user",
      metadata: { vendor: { deep: [1, { any: "thing" }] } },
      rawEvent: { provider: { whatever: true } },
    };
    const { result, warnings } = decode(json);
    expect(rightOf(result)).toBe(json); // nothing to strip: the very same object
    expect(warnings).toEqual([]);
    const custom = decode({ type: "CUSTOM", name: "n", value: { free: { form: 1 } } });
    expect(rightOf(custom.result)).toEqual({ type: "CUSTOM", name: "n", value: { free: { form: 1 } } });
    const activity = decode({ type: "ACTIVITY_SNAPSHOT", messageId: "a", activityType: "T", content: { open: 1 }, replace: true });
    expect(activity.warnings).toEqual([]);
  });

  test("JSON Patch operations are open (RFC 6902 §4): a leftover member arrives whole, with no warning", () => {
    const json = { type: "STATE_DELTA", delta: [{ op: "remove", path: "/a", value: "leftover" }] };
    const { result, warnings } = decode(json);
    expect(rightOf(result)).toEqual(json);
    expect(warnings).toEqual([]);
  });

  test("decodeEvent without a listener strips silently; the result is the same", () => {
    const json = { type: "TEXT_MESSAGE_END", messageId: "m", later: 1 };
    expect(decodeEvent(json)).toEqual(decode(json).result);
    expect(isRight(decodeEvent(json))).toBe(true);
  });
});
