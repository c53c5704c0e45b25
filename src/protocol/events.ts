/**
 * The 36 AG-UI event types as io-ts codecs (WIRE §2, §3): the 31 of `@ag-ui/core` 1.0.0 and the
 * five deprecated `THINKING_*`. Every TypeScript event type is `t.TypeOf` of its codec. Each
 * `<Name>Event` codec decodes one type (e.g. `TextMessageContentEvent.decode(json)`); `Event`
 * decodes any of them.
 */
import * as t from "io-ts";
import { enumOf, JsonObject, list, Present, struct, taggedUnion, withDefault, type StructCodec } from "./codec";
import { JsonPatch, Metadata, TokenUsage } from "./common";
import { DEFAULT_ACTIVITY_REPLACE, DEFAULT_TEXT_ROLE } from "./defaults";
import { RunAgentInput } from "./input";
import { InputContent, Message, TextMessageRole } from "./messages";
import { RunFinishedOutcome, SubagentFinishedOutcome } from "./outcomes";

/** Members every event may carry (WIRE §1.2). */
const baseFields = { timestamp: t.number, rawEvent: t.unknown, metadata: Metadata };
/** Members of an event that may be attributed to a subagent (WIRE §1.5). */
const attributed = { ...baseFields, subagentRunId: t.string };

const event = <T extends string, R extends t.Props, O extends t.Props>(
  type: T,
  required: R,
  optional: O,
): StructCodec<{ type: t.LiteralC<T> } & R, O> => struct(type, { type: t.literal(type), ...required }, optional);

// Lifecycle
export const RunStartedEvent = event("RUN_STARTED", { threadId: t.string, runId: t.string }, {
  ...baseFields, parentRunId: t.string, input: RunAgentInput, protocolVersion: t.string,
});
export const RunFinishedEvent = event("RUN_FINISHED", { threadId: t.string, runId: t.string }, {
  ...baseFields, result: t.unknown, outcome: RunFinishedOutcome, usage: list(TokenUsage),
});
export const RunErrorEvent = event("RUN_ERROR", { message: t.string }, { ...baseFields, code: t.string, usage: list(TokenUsage) });
export const StepStartedEvent = event("STEP_STARTED", { stepName: t.string }, attributed);
export const StepFinishedEvent = event("STEP_FINISHED", { stepName: t.string }, attributed);

// Text
export const TextMessageStartEvent = event(
  "TEXT_MESSAGE_START",
  { messageId: t.string, role: withDefault(TextMessageRole, DEFAULT_TEXT_ROLE) },
  { ...attributed, name: t.string },
);
export const TextMessageContentEvent = event("TEXT_MESSAGE_CONTENT", { messageId: t.string, delta: t.string }, attributed);
export const TextMessageEndEvent = event("TEXT_MESSAGE_END", { messageId: t.string }, attributed);
export const TextMessageChunkEvent = event("TEXT_MESSAGE_CHUNK", {}, {
  ...attributed, messageId: t.string, role: TextMessageRole, delta: t.string, name: t.string,
});

// Tool calls
export const ToolCallStartEvent = event("TOOL_CALL_START", { toolCallId: t.string, toolCallName: t.string }, {
  ...attributed, parentMessageId: t.string,
});
export const ToolCallArgsEvent = event("TOOL_CALL_ARGS", { toolCallId: t.string, delta: t.string }, attributed);
export const ToolCallEndEvent = event("TOOL_CALL_END", { toolCallId: t.string }, attributed);
export const ToolCallChunkEvent = event("TOOL_CALL_CHUNK", {}, {
  ...attributed, toolCallId: t.string, toolCallName: t.string, parentMessageId: t.string, delta: t.string,
});
export const ToolCallResultEvent = event(
  "TOOL_CALL_RESULT",
  { messageId: t.string, toolCallId: t.string, content: t.union([t.string, list(InputContent)]) },
  { ...attributed, role: enumOf("TOOL_CALL_RESULT.role", ["tool"]) },
);

// State and message snapshots
// `snapshot`, `event` and `value` may be `null` but must be present (1.0.0 rejects a missing one; WIRE §3.4, §3.6).
export const StateSnapshotEvent = event("STATE_SNAPSHOT", { snapshot: Present }, attributed);
export const StateDeltaEvent = event("STATE_DELTA", { delta: JsonPatch }, attributed);
export const MessagesSnapshotEvent = event("MESSAGES_SNAPSHOT", { messages: list(Message) }, baseFields);

// Activity
export const ActivitySnapshotEvent = event(
  "ACTIVITY_SNAPSHOT",
  { messageId: t.string, activityType: t.string, content: JsonObject, replace: withDefault(t.boolean, DEFAULT_ACTIVITY_REPLACE) },
  attributed,
);
export const ActivityDeltaEvent = event("ACTIVITY_DELTA", { messageId: t.string, activityType: t.string, patch: JsonPatch }, attributed);

// Special
export const RawEvent = event("RAW", { event: Present }, { ...attributed, source: t.string });
export const CustomEvent = event("CUSTOM", { name: t.string, value: Present }, attributed);

// Reasoning
export const ReasoningStartEvent = event("REASONING_START", { messageId: t.string }, attributed);
export const ReasoningMessageStartEvent = event(
  "REASONING_MESSAGE_START",
  { messageId: t.string, role: enumOf("REASONING_MESSAGE_START.role", ["reasoning"]) },
  attributed,
);
export const ReasoningMessageContentEvent = event("REASONING_MESSAGE_CONTENT", { messageId: t.string, delta: t.string }, attributed);
export const ReasoningMessageEndEvent = event("REASONING_MESSAGE_END", { messageId: t.string }, attributed);
export const ReasoningMessageChunkEvent = event("REASONING_MESSAGE_CHUNK", {}, { ...attributed, messageId: t.string, delta: t.string });
export const ReasoningEndEvent = event("REASONING_END", { messageId: t.string }, attributed);
export const ReasoningEncryptedValueEvent = event(
  "REASONING_ENCRYPTED_VALUE",
  { subtype: enumOf("EncryptedValueSubtype", ["tool-call", "message"]), entityId: t.string, encryptedValue: t.string },
  attributed,
);

// Subagents: here `subagentRunId` is the invocation's identity, so it is required.
export const SubagentStartedEvent = event("SUBAGENT_STARTED", { subagentRunId: t.string, name: t.string }, {
  ...baseFields, description: t.string, parentSubagentRunId: t.string, parentToolCallId: t.string, parentMessageId: t.string,
});
export const SubagentFinishedEvent = event("SUBAGENT_FINISHED", { subagentRunId: t.string }, {
  ...baseFields, result: t.unknown, outcome: SubagentFinishedOutcome,
});
export const SubagentErrorEvent = event("SUBAGENT_ERROR", { subagentRunId: t.string, message: t.string }, { ...baseFields, code: t.string });

// Deprecated thinking events (Baseline only); decoded, mapped to reasoning, never emitted.
export const ThinkingStartEvent = event("THINKING_START", {}, { ...baseFields, title: t.string });
export const ThinkingEndEvent = event("THINKING_END", {}, baseFields);
export const ThinkingTextMessageStartEvent = event("THINKING_TEXT_MESSAGE_START", {}, baseFields);
export const ThinkingTextMessageContentEvent = event("THINKING_TEXT_MESSAGE_CONTENT", { delta: t.string }, baseFields);
export const ThinkingTextMessageEndEvent = event("THINKING_TEXT_MESSAGE_END", {}, baseFields);

/**
 * Every event codec by its `type`; each exposes its `required` and `optional` member codecs.
 *
 * @example
 * Object.keys(eventCodecs.TOOL_CALL_START.optional) // ["timestamp", "rawEvent", "metadata", "subagentRunId", "parentMessageId"]
 */
export const eventCodecs = {
  RUN_STARTED: RunStartedEvent,
  RUN_FINISHED: RunFinishedEvent,
  RUN_ERROR: RunErrorEvent,
  STEP_STARTED: StepStartedEvent,
  STEP_FINISHED: StepFinishedEvent,
  TEXT_MESSAGE_START: TextMessageStartEvent,
  TEXT_MESSAGE_CONTENT: TextMessageContentEvent,
  TEXT_MESSAGE_END: TextMessageEndEvent,
  TEXT_MESSAGE_CHUNK: TextMessageChunkEvent,
  TOOL_CALL_START: ToolCallStartEvent,
  TOOL_CALL_ARGS: ToolCallArgsEvent,
  TOOL_CALL_END: ToolCallEndEvent,
  TOOL_CALL_CHUNK: ToolCallChunkEvent,
  TOOL_CALL_RESULT: ToolCallResultEvent,
  STATE_SNAPSHOT: StateSnapshotEvent,
  STATE_DELTA: StateDeltaEvent,
  MESSAGES_SNAPSHOT: MessagesSnapshotEvent,
  ACTIVITY_SNAPSHOT: ActivitySnapshotEvent,
  ACTIVITY_DELTA: ActivityDeltaEvent,
  RAW: RawEvent,
  CUSTOM: CustomEvent,
  REASONING_START: ReasoningStartEvent,
  REASONING_MESSAGE_START: ReasoningMessageStartEvent,
  REASONING_MESSAGE_CONTENT: ReasoningMessageContentEvent,
  REASONING_MESSAGE_END: ReasoningMessageEndEvent,
  REASONING_MESSAGE_CHUNK: ReasoningMessageChunkEvent,
  REASONING_END: ReasoningEndEvent,
  REASONING_ENCRYPTED_VALUE: ReasoningEncryptedValueEvent,
  SUBAGENT_STARTED: SubagentStartedEvent,
  SUBAGENT_FINISHED: SubagentFinishedEvent,
  SUBAGENT_ERROR: SubagentErrorEvent,
  THINKING_START: ThinkingStartEvent,
  THINKING_END: ThinkingEndEvent,
  THINKING_TEXT_MESSAGE_START: ThinkingTextMessageStartEvent,
  THINKING_TEXT_MESSAGE_CONTENT: ThinkingTextMessageContentEvent,
  THINKING_TEXT_MESSAGE_END: ThinkingTextMessageEndEvent,
} as const;

/**
 * Any AG-UI event, discriminated by `type`: a `switch (event.type)` narrows without casts.
 * As a codec it decodes by the member codecs (an unknown `type` fails, seed 001; unknown members
 * are stripped, AG-UI 1.1); prefer `decodeEvent` for readable errors and the stripping warnings.
 *
 * @example
 * function text(event: Event): string {
 *   switch (event.type) {
 *     case "TEXT_MESSAGE_CONTENT": return event.delta;
 *     default: return "";
 *   }
 * }
 */
export const Event = taggedUnion("Event", "type", eventCodecs, { unknownTag: "error" });
export type Event = t.TypeOf<typeof Event>;

/**
 * The `type` string of an event.
 *
 * @example
 * const type: EventType = "RUN_STARTED";
 */
export type EventType = Event["type"];
/**
 * The event of one `type`.
 *
 * @example
 * const finished: EventOf<"RUN_FINISHED"> = { type: "RUN_FINISHED", threadId: "t1", runId: "r1" };
 */
export type EventOf<T extends EventType> = Extract<Event, { type: T }>;

/**
 * All 36 event types, in WIRE.md §2 order.
 *
 * @example
 * EVENT_TYPES.includes("CUSTOM") // true
 */
export const EVENT_TYPES = Object.keys(eventCodecs) as EventType[]; // keys of a literal object whose keys are exactly EventType

/**
 * The five deprecated types that this library decodes but never emits.
 *
 * @example
 * THINKING_EVENT_TYPES[0] // "THINKING_START"
 */
export const THINKING_EVENT_TYPES = [
  "THINKING_START",
  "THINKING_END",
  "THINKING_TEXT_MESSAGE_START",
  "THINKING_TEXT_MESSAGE_CONTENT",
  "THINKING_TEXT_MESSAGE_END",
] as const satisfies readonly EventType[];
export type ThinkingEvent = EventOf<(typeof THINKING_EVENT_TYPES)[number]>;

/**
 * The chunk shorthands that `normalizeChunks()` expands.
 *
 * @example
 * const chunk: ChunkEvent = { type: "TEXT_MESSAGE_CHUNK", messageId: "m1", delta: "Hi" };
 */
export type ChunkEvent = EventOf<"TEXT_MESSAGE_CHUNK" | "TOOL_CALL_CHUNK" | "REASONING_MESSAGE_CHUNK">;

/**
 * Events that may carry an optional `subagentRunId` attribution (24 types, WIRE §1.5).
 *
 * @example
 * const attributed: AttributableEvent = { type: "STEP_STARTED", stepName: "plan", subagentRunId: "sub-1" };
 */
export type AttributableEvent = Exclude<
  Event,
  ThinkingEvent | EventOf<"RUN_STARTED" | "RUN_FINISHED" | "RUN_ERROR" | "MESSAGES_SNAPSHOT" | "SUBAGENT_STARTED" | "SUBAGENT_FINISHED" | "SUBAGENT_ERROR">
>;

/**
 * Event types that must never carry `subagentRunId`: run-scoped ones, MESSAGES_SNAPSHOT (its
 * messages carry their own) and the deprecated THINKING_* (WIRE §1.5).
 *
 * @example
 * UNATTRIBUTABLE_EVENT_TYPES.has("RUN_FINISHED") // true
 */
export const UNATTRIBUTABLE_EVENT_TYPES: ReadonlySet<EventType> = new Set<EventType>([
  "RUN_STARTED",
  "RUN_FINISHED",
  "RUN_ERROR",
  "MESSAGES_SNAPSHOT",
  ...THINKING_EVENT_TYPES,
]);

/**
 * Event types whose `subagentRunId` is the subagent's identity (required).
 *
 * @example
 * SUBAGENT_EVENT_TYPES.has("SUBAGENT_STARTED") // true
 */
export const SUBAGENT_EVENT_TYPES: ReadonlySet<EventType> = new Set<EventType>(["SUBAGENT_STARTED", "SUBAGENT_FINISHED", "SUBAGENT_ERROR"]);

export type RunStartedEvent = EventOf<"RUN_STARTED">;
export type RunFinishedEvent = EventOf<"RUN_FINISHED">;
export type RunErrorEvent = EventOf<"RUN_ERROR">;
export type StepStartedEvent = EventOf<"STEP_STARTED">;
export type StepFinishedEvent = EventOf<"STEP_FINISHED">;
export type TextMessageStartEvent = EventOf<"TEXT_MESSAGE_START">;
export type TextMessageContentEvent = EventOf<"TEXT_MESSAGE_CONTENT">;
export type TextMessageEndEvent = EventOf<"TEXT_MESSAGE_END">;
export type TextMessageChunkEvent = EventOf<"TEXT_MESSAGE_CHUNK">;
export type ToolCallStartEvent = EventOf<"TOOL_CALL_START">;
export type ToolCallArgsEvent = EventOf<"TOOL_CALL_ARGS">;
export type ToolCallEndEvent = EventOf<"TOOL_CALL_END">;
export type ToolCallChunkEvent = EventOf<"TOOL_CALL_CHUNK">;
export type ToolCallResultEvent = EventOf<"TOOL_CALL_RESULT">;
export type StateSnapshotEvent = EventOf<"STATE_SNAPSHOT">;
export type StateDeltaEvent = EventOf<"STATE_DELTA">;
export type MessagesSnapshotEvent = EventOf<"MESSAGES_SNAPSHOT">;
export type ActivitySnapshotEvent = EventOf<"ACTIVITY_SNAPSHOT">;
export type ActivityDeltaEvent = EventOf<"ACTIVITY_DELTA">;
export type RawEvent = EventOf<"RAW">;
export type CustomEvent = EventOf<"CUSTOM">;
export type ReasoningStartEvent = EventOf<"REASONING_START">;
export type ReasoningMessageStartEvent = EventOf<"REASONING_MESSAGE_START">;
export type ReasoningMessageContentEvent = EventOf<"REASONING_MESSAGE_CONTENT">;
export type ReasoningMessageEndEvent = EventOf<"REASONING_MESSAGE_END">;
export type ReasoningMessageChunkEvent = EventOf<"REASONING_MESSAGE_CHUNK">;
export type ReasoningEndEvent = EventOf<"REASONING_END">;
export type ReasoningEncryptedValueEvent = EventOf<"REASONING_ENCRYPTED_VALUE">;
export type SubagentStartedEvent = EventOf<"SUBAGENT_STARTED">;
export type SubagentFinishedEvent = EventOf<"SUBAGENT_FINISHED">;
export type SubagentErrorEvent = EventOf<"SUBAGENT_ERROR">;
export type ThinkingStartEvent = EventOf<"THINKING_START">;
export type ThinkingEndEvent = EventOf<"THINKING_END">;
export type ThinkingTextMessageStartEvent = EventOf<"THINKING_TEXT_MESSAGE_START">;
export type ThinkingTextMessageContentEvent = EventOf<"THINKING_TEXT_MESSAGE_CONTENT">;
export type ThinkingTextMessageEndEvent = EventOf<"THINKING_TEXT_MESSAGE_END">;
