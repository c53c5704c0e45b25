import { RunFinishedOutcome } from "../../src/protocol/outcomes";
import { TextMessageStartEvent, RunFinishedEvent } from "../../src/protocol/events";
import { decodeEvent } from "../../src/wire/decodeEvent";

// `is` is decodeEvent's fast path: it must say yes only to values that decoding returns unchanged.
describe("struct codecs' is agrees with decoding", () => {
  const rows: { name: string; codec: { is(u: unknown): boolean }; value: unknown; is: boolean }[] = [
    { name: "a complete event", codec: TextMessageStartEvent, value: { type: "TEXT_MESSAGE_START", messageId: "m", role: "assistant" }, is: true },
    { name: "a default still to fill", codec: TextMessageStartEvent, value: { type: "TEXT_MESSAGE_START", messageId: "m" }, is: false },
    { name: "a null still to drop", codec: RunFinishedEvent, value: { type: "RUN_FINISHED", threadId: "t", runId: "r", result: null }, is: false },
    { name: "a null that is an error", codec: TextMessageStartEvent, value: { type: "TEXT_MESSAGE_START", messageId: "m", role: "user", subagentRunId: null }, is: false },
    { name: "an undeclared member (decoding strips it)", codec: RunFinishedOutcome, value: { type: "success", extra: 1 }, is: false },
    { name: "an undeclared member on an event", codec: TextMessageStartEvent, value: { type: "TEXT_MESSAGE_START", messageId: "m", role: "assistant", x: 1 }, is: false },
    { name: "an object without extras", codec: RunFinishedOutcome, value: { type: "success" }, is: true },
    { name: "an unknown union member (decoding strips it)", codec: RunFinishedEvent, value: { type: "RUN_FINISHED", threadId: "t", runId: "r", outcome: { type: "paused" } }, is: false },
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
