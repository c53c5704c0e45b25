import { RunFinishedOutcome } from "../../src/protocol/outcomes";
import * as t from "io-ts";
import { TextMessageContentEvent, TextMessageStartEvent, RunFinishedEvent } from "../../src/protocol/events";
import { decodeEvent } from "../../src/wire/decodeEvent";
import { enumOf, list, struct } from "../../src/protocol/codec";
import { collectStripped } from "../../src/protocol/unrecognised";

// `is` is decodeEvent's fast path: it must say yes only to values that decoding returns unchanged.
describe("struct codecs' is agrees with decoding", () => {
  const Unknowing = struct("Unknowing", { kind: enumOf("Kind", ["a"]), payload: t.unknown }, { mode: enumOf("Mode", ["x"]) });
  const rows: { name: string; codec: { is(u: unknown): boolean }; value: unknown; is: boolean }[] = [
    { name: "a complete event", codec: TextMessageStartEvent, value: { type: "TEXT_MESSAGE_START", messageId: "m", role: "assistant" }, is: true },
    { name: "a default still to fill", codec: TextMessageStartEvent, value: { type: "TEXT_MESSAGE_START", messageId: "m" }, is: false },
    { name: "a null still to drop", codec: RunFinishedEvent, value: { type: "RUN_FINISHED", threadId: "t", runId: "r", result: null }, is: false },
    {
      name: "a null that is an error",
      codec: TextMessageStartEvent,
      value: { type: "TEXT_MESSAGE_START", messageId: "m", role: "user", subagentRunId: null },
      is: false,
    },
    { name: "an undeclared member (decoding strips it)", codec: RunFinishedOutcome, value: { type: "success", extra: 1 }, is: false },
    {
      name: "an undeclared member on an event",
      codec: TextMessageStartEvent,
      value: { type: "TEXT_MESSAGE_START", messageId: "m", role: "assistant", x: 1 },
      is: false,
    },
    { name: "an object without extras", codec: RunFinishedOutcome, value: { type: "success" }, is: true },
    {
      name: "an unknown union member (decoding strips it)",
      codec: RunFinishedEvent,
      value: { type: "RUN_FINISHED", threadId: "t", runId: "r", outcome: { type: "paused" } },
      is: false,
    },
    // the shortcut for an object of required members only, and what must not take it
    { name: "required members only", codec: TextMessageContentEvent, value: { type: "TEXT_MESSAGE_CONTENT", messageId: "m", delta: "d" }, is: true },
    {
      name: "required members and a valid optional one",
      codec: TextMessageContentEvent,
      value: { type: "TEXT_MESSAGE_CONTENT", messageId: "m", delta: "d", timestamp: 1 },
      is: true,
    },
    {
      name: "required members and an invalid optional one",
      codec: TextMessageContentEvent,
      value: { type: "TEXT_MESSAGE_CONTENT", messageId: "m", delta: "d", timestamp: "soon" },
      is: false,
    },
    {
      name: "a required member that may be missing, missing, and an invalid optional one in its place",
      codec: Unknowing,
      value: { kind: "a", mode: "y" },
      is: false,
    },
    { name: "a required member that may be missing, missing, and an undeclared one in its place", codec: Unknowing, value: { kind: "a", x: 1 }, is: false },
    { name: "a required member that may be missing, missing, and nothing else", codec: Unknowing, value: { kind: "a" }, is: true },
  ];
  test.each(rows)("$name", ({ codec, value, is }) => {
    expect(codec.is(value)).toBe(is);
  });

  test("what `is` accepts decodes to the very same object", () => {
    const event = { type: "TEXT_MESSAGE_START", messageId: "m", role: "assistant", metadata: { extra: true } };
    const decoded = decodeEvent(event);
    expect(decoded._tag === "Right" && decoded.right).toBe(event);
  });
});

describe("stripping (AG-UI 1.1): what is removed, and the cause it is reported with", () => {
  const Item = struct("Item", { kind: enumOf("Kind", ["a"]) }, { mode: enumOf("Mode", ["x"]) });
  const Items = list(Item);
  const decode = (value: unknown) => collectStripped(Items, value);

  test("an unrecognised optional member is removed where it stands", () => {
    const { result, stripped } = decode([{ kind: "a", mode: "y" }]);
    expect(result).toEqual({ _tag: "Right", right: [{ kind: "a" }] });
    expect(stripped).toEqual([{ code: "unknown-member", path: "/0/mode", reason: 'unknown value "y" (Mode is one of x)' }]);
  });

  test("an unrecognised required member removes its container, reported with that member's cause even when an optional one was also unrecognised", () => {
    const { result, stripped } = decode([{ kind: "b", mode: "y", extra: 1 }, { kind: "a" }]);
    expect(result).toEqual({ _tag: "Right", right: [{ kind: "a" }] });
    // what was stripped inside the removed item is moot; the removal names /0/kind and "b"
    expect(stripped).toEqual([{ code: "unknown-member", path: "/0", reason: '/0/kind holds unknown value "b" (Kind is one of a)' }]);
  });

  test("a codec decoded on its own never hands out the marker: a value unrecognisable as a whole is a failure there", () => {
    const result = Item.decode({ kind: "b" });
    expect(result._tag).toBe("Left");
  });
});
