// Wire compatibility with the official 1.0.0 packages: what we emit validates with @ag-ui/core's
// schemas and matches @ag-ui/encoder byte for byte; what the official encoder writes we decode.
import { EventType, type Event as CoreEvent, type Message as CoreMessage } from "@ag-ui/core";
import { EventSchemas } from "@ag-ui/core/schemas";
import { EventEncoder } from "@ag-ui/encoder";
import { from, lastValueFrom, toArray } from "rxjs";
import type { Event } from "../../src/protocol/events";
import { decodeSse } from "../../src/wire/decodeSse";
import { encodeSse } from "../../src/wire/encodeSse";
import { AWKWARD_TEXT, BUILT, BUILT_EVENTS, SAMPLE_MESSAGES } from "../protocol/samples";

const decodeAll = (chunks: (string | Uint8Array)[]): Promise<Event[]> => lastValueFrom(from(chunks).pipe(decodeSse(), toArray()));

describe("every event our builders make is a valid @ag-ui/core 1.0.0 event", () => {
  test.each(Object.keys(BUILT))("%s", (type) => {
    const samples: unknown[] = BUILT[type as keyof typeof BUILT];
    expect(samples.length).toBeGreaterThan(0);
    for (const sample of samples) {
      const result = EventSchemas.safeParse(sample);
      expect(result.error?.issues ?? []).toEqual([]);
      // It also survives the wire: the JSON that encodeSse writes still validates.
      const wire = JSON.parse(encodeSse(sample as Event).slice("data: ".length));
      expect(EventSchemas.safeParse(wire).success).toBe(true);
    }
  });

  test("encodeSse writes the same bytes as the official EventEncoder", () => {
    const encoder = new EventEncoder({ accept: "text/event-stream" });
    for (const event of BUILT_EVENTS) {
      expect(encodeSse(event)).toBe(encoder.encodeSSE(event as unknown as CoreEvent));
    }
  });
});

// Our Message type also admits the legacy `binary` content part, which 1.0.0's types lack; these samples have none.
const messages = SAMPLE_MESSAGES as unknown as CoreMessage[];

/** Events written the way an app on the official SDK writes them, and what we must decode them to. */
const corpus: { official: CoreEvent; decoded: Record<string, unknown> }[] = [
  {
    official: { type: EventType.RUN_STARTED, threadId: "t", runId: "r", parentRunId: "p", timestamp: 1_700_000_000_000 },
    decoded: { type: "RUN_STARTED", threadId: "t", runId: "r", parentRunId: "p", timestamp: 1_700_000_000_000 },
  },
  {
    official: {
      type: EventType.RUN_STARTED,
      threadId: "t",
      runId: "r2",
      input: { threadId: "t", runId: "r2", messages, tools: [], context: [], state: { a: 1 }, forwardedProps: {} },
    },
    decoded: {
      type: "RUN_STARTED",
      threadId: "t",
      runId: "r2",
      input: { threadId: "t", runId: "r2", messages: SAMPLE_MESSAGES, tools: [], context: [], state: { a: 1 }, forwardedProps: {} },
    },
  },
  // No role on the wire: we fill the default the 1.0.0 reducer applies.
  { official: { type: EventType.TEXT_MESSAGE_START, messageId: "m" }, decoded: { type: "TEXT_MESSAGE_START", messageId: "m", role: "assistant" } },
  {
    official: { type: EventType.TEXT_MESSAGE_START, messageId: "m2", role: "user", name: "kim", subagentRunId: "s" },
    decoded: { type: "TEXT_MESSAGE_START", messageId: "m2", role: "user", name: "kim", subagentRunId: "s" },
  },
  {
    official: { type: EventType.TEXT_MESSAGE_CONTENT, messageId: "m", delta: AWKWARD_TEXT },
    decoded: { type: "TEXT_MESSAGE_CONTENT", messageId: "m", delta: AWKWARD_TEXT },
  },
  { official: { type: EventType.TEXT_MESSAGE_END, messageId: "m" }, decoded: { type: "TEXT_MESSAGE_END", messageId: "m" } },
  {
    official: { type: EventType.TEXT_MESSAGE_CHUNK, messageId: "m3", delta: "x" },
    decoded: { type: "TEXT_MESSAGE_CHUNK", messageId: "m3", delta: "x" },
  },
  {
    official: { type: EventType.TOOL_CALL_START, toolCallId: "tc", toolCallName: "search", parentMessageId: "m" },
    decoded: { type: "TOOL_CALL_START", toolCallId: "tc", toolCallName: "search", parentMessageId: "m" },
  },
  { official: { type: EventType.TOOL_CALL_ARGS, toolCallId: "tc", delta: '{"q":1}' }, decoded: { type: "TOOL_CALL_ARGS", toolCallId: "tc", delta: '{"q":1}' } },
  { official: { type: EventType.TOOL_CALL_END, toolCallId: "tc" }, decoded: { type: "TOOL_CALL_END", toolCallId: "tc" } },
  {
    official: { type: EventType.TOOL_CALL_CHUNK, toolCallId: "tc2", toolCallName: "calc", delta: "{}" },
    decoded: { type: "TOOL_CALL_CHUNK", toolCallId: "tc2", toolCallName: "calc", delta: "{}" },
  },
  {
    official: { type: EventType.TOOL_CALL_RESULT, messageId: "tm", toolCallId: "tc", content: "ok", role: "tool" },
    decoded: { type: "TOOL_CALL_RESULT", messageId: "tm", toolCallId: "tc", content: "ok", role: "tool" },
  },
  // 1.0.0 allows content parts in a tool result.
  {
    official: { type: EventType.TOOL_CALL_RESULT, messageId: "tm2", toolCallId: "tc", content: [{ type: "text", text: "part" }] },
    decoded: { type: "TOOL_CALL_RESULT", messageId: "tm2", toolCallId: "tc", content: [{ type: "text", text: "part" }] },
  },
  { official: { type: EventType.STATE_SNAPSHOT, snapshot: { n: [1, null] } }, decoded: { type: "STATE_SNAPSHOT", snapshot: { n: [1, null] } } },
  {
    official: { type: EventType.STATE_DELTA, delta: [{ op: "replace", path: "/n", value: 2 }] },
    decoded: { type: "STATE_DELTA", delta: [{ op: "replace", path: "/n", value: 2 }] },
  },
  { official: { type: EventType.MESSAGES_SNAPSHOT, messages }, decoded: { type: "MESSAGES_SNAPSHOT", messages: SAMPLE_MESSAGES } },
  // No `replace` on the wire: we fill its default, true.
  {
    official: { type: EventType.ACTIVITY_SNAPSHOT, messageId: "a", activityType: "PLAN", content: { s: 1 } },
    decoded: { type: "ACTIVITY_SNAPSHOT", messageId: "a", activityType: "PLAN", content: { s: 1 }, replace: true },
  },
  {
    official: { type: EventType.ACTIVITY_SNAPSHOT, messageId: "a", activityType: "PLAN", content: {}, replace: false },
    decoded: { type: "ACTIVITY_SNAPSHOT", messageId: "a", activityType: "PLAN", content: {}, replace: false },
  },
  {
    official: { type: EventType.ACTIVITY_DELTA, messageId: "a", activityType: "PLAN", patch: [{ op: "remove", path: "/s" }] },
    decoded: { type: "ACTIVITY_DELTA", messageId: "a", activityType: "PLAN", patch: [{ op: "remove", path: "/s" }] },
  },
  { official: { type: EventType.RAW, event: { x: 1 }, source: "up" }, decoded: { type: "RAW", event: { x: 1 }, source: "up" } },
  { official: { type: EventType.CUSTOM, name: "n", value: null }, decoded: { type: "CUSTOM", name: "n", value: null } },
  // The official encoder removes `null` on declared optional members; nothing of them reaches us.
  {
    official: { type: EventType.RUN_FINISHED, threadId: "t", runId: "r", result: null, rawEvent: null },
    decoded: { type: "RUN_FINISHED", threadId: "t", runId: "r" },
  },
  {
    official: {
      type: EventType.RUN_FINISHED,
      threadId: "t",
      runId: "r",
      outcome: { type: "interrupt", interrupts: [{ id: "i", reason: "approve" }] },
      usage: [{ provider: "p", inputTokens: 1 }],
    },
    decoded: {
      type: "RUN_FINISHED",
      threadId: "t",
      runId: "r",
      outcome: { type: "interrupt", interrupts: [{ id: "i", reason: "approve" }] },
      usage: [{ provider: "p", inputTokens: 1 }],
    },
  },
  { official: { type: EventType.RUN_ERROR, message: "bad", code: "X" }, decoded: { type: "RUN_ERROR", message: "bad", code: "X" } },
  { official: { type: EventType.STEP_STARTED, stepName: "s" }, decoded: { type: "STEP_STARTED", stepName: "s" } },
  { official: { type: EventType.STEP_FINISHED, stepName: "s" }, decoded: { type: "STEP_FINISHED", stepName: "s" } },
  { official: { type: EventType.REASONING_START, messageId: "r" }, decoded: { type: "REASONING_START", messageId: "r" } },
  {
    official: { type: EventType.REASONING_MESSAGE_START, messageId: "r", role: "reasoning" },
    decoded: { type: "REASONING_MESSAGE_START", messageId: "r", role: "reasoning" },
  },
  {
    official: { type: EventType.REASONING_MESSAGE_CONTENT, messageId: "r", delta: "hm" },
    decoded: { type: "REASONING_MESSAGE_CONTENT", messageId: "r", delta: "hm" },
  },
  { official: { type: EventType.REASONING_MESSAGE_END, messageId: "r" }, decoded: { type: "REASONING_MESSAGE_END", messageId: "r" } },
  { official: { type: EventType.REASONING_MESSAGE_CHUNK, delta: "d" }, decoded: { type: "REASONING_MESSAGE_CHUNK", delta: "d" } },
  { official: { type: EventType.REASONING_END, messageId: "r" }, decoded: { type: "REASONING_END", messageId: "r" } },
  {
    official: { type: EventType.REASONING_ENCRYPTED_VALUE, subtype: "tool-call", entityId: "tc", encryptedValue: "e" },
    decoded: { type: "REASONING_ENCRYPTED_VALUE", subtype: "tool-call", entityId: "tc", encryptedValue: "e" },
  },
  {
    official: { type: EventType.SUBAGENT_STARTED, subagentRunId: "s", name: "researcher", parentToolCallId: "tc" },
    decoded: { type: "SUBAGENT_STARTED", subagentRunId: "s", name: "researcher", parentToolCallId: "tc" },
  },
  {
    official: { type: EventType.SUBAGENT_FINISHED, subagentRunId: "s", outcome: { type: "suspended", interruptIds: ["i"] } },
    decoded: { type: "SUBAGENT_FINISHED", subagentRunId: "s", outcome: { type: "suspended", interruptIds: ["i"] } },
  },
  {
    official: { type: EventType.SUBAGENT_ERROR, subagentRunId: "s", message: "m", code: "c" },
    decoded: { type: "SUBAGENT_ERROR", subagentRunId: "s", message: "m", code: "c" },
  },
];

describe("what the official EventEncoder writes, decodeSse reads", () => {
  test("the corpus covers all 31 types of 1.0.0, and what the encoder writes of each is valid by @ag-ui/core's own schema", () => {
    const encoder = new EventEncoder({ accept: "text/event-stream" });
    expect(new Set(corpus.map(({ official }) => official.type)).size).toBe(31);
    for (const { official } of corpus) {
      const written = JSON.parse(encoder.encodeSSE(official).slice("data: ".length));
      expect(EventSchemas.safeParse(written).error?.issues ?? []).toEqual([]);
    }
  });

  test("one text body with every corpus event", async () => {
    const encoder = new EventEncoder({ accept: "text/event-stream" });
    const body = corpus.map(({ official }) => encoder.encodeSSE(official)).join("");
    expect(await decodeAll([body])).toEqual(corpus.map(({ decoded }) => decoded));
  });

  test("the binary form, one Uint8Array per event, split in the middle of each", async () => {
    const encoder = new EventEncoder({ accept: "text/event-stream" });
    const chunks = corpus.flatMap(({ official }) => {
      const bytes = encoder.encodeBinary(official);
      const middle = Math.floor(bytes.length / 2);
      return [bytes.subarray(0, middle), bytes.subarray(middle)];
    });
    expect(await decodeAll(chunks)).toEqual(corpus.map(({ decoded }) => decoded));
  });
});
