/**
 * The 36 AG-UI event types (docs/wire.md#2, docs/wire.md#3): the 31 of `@ag-ui/core` 1.0.0 and the five deprecated
 * `THINKING_*`, declared by group in `lifecycleEvents.ts`, `messageEvents.ts`, `stateEvents.ts` and
 * `reasoningEvents.ts`, and brought together here as `Event`.
 *
 * Types are derived from codecs, never written twice, and each has a name as its face: for every
 * type, `<Name>EventCodec` is the codec as built (module-private), `interface <Name>Event extends
 * t.TypeOf<typeof <Name>EventCodec> {}` is the type, and the same codec object is exported as
 * `<Name>Event`, typed to decode that interface (`NamedStructCodec`; see `namedCodec.ts`). So
 * `TextMessageContentEvent` is both the type and its codec (`TextMessageContentEvent.decode(json)`),
 * and an editor shows `TextMessageContentEvent`, not the codec's generics. `Event` decodes any of them.
 */
import { taggedUnion } from "./codec";
import type { NamedUnionCodec } from "./namedCodec";
import {
  RunStartedEvent,
  RunFinishedEvent,
  RunErrorEvent,
  StepStartedEvent,
  StepFinishedEvent,
  SubagentStartedEvent,
  SubagentFinishedEvent,
  SubagentErrorEvent,
} from "./lifecycleEvents";
import {
  TextMessageStartEvent,
  TextMessageContentEvent,
  TextMessageEndEvent,
  TextMessageChunkEvent,
  ToolCallStartEvent,
  ToolCallArgsEvent,
  ToolCallEndEvent,
  ToolCallChunkEvent,
  ToolCallResultEvent,
} from "./messageEvents";
import { StateSnapshotEvent, StateDeltaEvent, MessagesSnapshotEvent, ActivitySnapshotEvent, ActivityDeltaEvent, RawEvent, CustomEvent } from "./stateEvents";
import {
  ReasoningStartEvent,
  ReasoningMessageStartEvent,
  ReasoningMessageContentEvent,
  ReasoningMessageEndEvent,
  ReasoningMessageChunkEvent,
  ReasoningEndEvent,
  ReasoningEncryptedValueEvent,
  ThinkingStartEvent,
  ThinkingEndEvent,
  ThinkingTextMessageStartEvent,
  ThinkingTextMessageContentEvent,
  ThinkingTextMessageEndEvent,
} from "./reasoningEvents";

export * from "./lifecycleEvents";
export * from "./messageEvents";
export * from "./stateEvents";
export * from "./reasoningEvents";

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
 * As a codec it decodes by the member codecs (an unknown `type` fails, docs/seeds.md#seed-001; unknown members
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
export type Event =
  | RunStartedEvent
  | RunFinishedEvent
  | RunErrorEvent
  | StepStartedEvent
  | StepFinishedEvent
  | TextMessageStartEvent
  | TextMessageContentEvent
  | TextMessageEndEvent
  | TextMessageChunkEvent
  | ToolCallStartEvent
  | ToolCallArgsEvent
  | ToolCallEndEvent
  | ToolCallChunkEvent
  | ToolCallResultEvent
  | StateSnapshotEvent
  | StateDeltaEvent
  | MessagesSnapshotEvent
  | ActivitySnapshotEvent
  | ActivityDeltaEvent
  | RawEvent
  | CustomEvent
  | ReasoningStartEvent
  | ReasoningMessageStartEvent
  | ReasoningMessageContentEvent
  | ReasoningMessageEndEvent
  | ReasoningMessageChunkEvent
  | ReasoningEndEvent
  | ReasoningEncryptedValueEvent
  | SubagentStartedEvent
  | SubagentFinishedEvent
  | SubagentErrorEvent
  | ThinkingStartEvent
  | ThinkingEndEvent
  | ThinkingTextMessageStartEvent
  | ThinkingTextMessageContentEvent
  | ThinkingTextMessageEndEvent;
const EventCodec = /* @__PURE__ */ taggedUnion("Event", "type", eventCodecs, { unknownTag: "error" });
export const Event: NamedUnionCodec<Event> = EventCodec;

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
 * All 36 event types, in docs/wire.md#2 order.
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
 * Events that may carry an optional `subagentRunId` attribution (24 types, docs/wire.md#1.5).
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
 * messages carry their own) and the deprecated THINKING_* (docs/wire.md#1.5).
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
