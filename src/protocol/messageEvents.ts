/**
 * The streamed text message and tool call events (docs/wire.md#3.2, docs/wire.md#3.3).
 *
 * Each event is three declarations (see `events.ts`): `<Name>EventCodec`, the codec as built
 * (module-private); the interface `<Name>Event`, `t.TypeOf` of it, the name an editor shows; and the
 * same codec exported under that name, typed to decode the interface (`NamedStructCodec`).
 */
import * as t from "io-ts";
import { enumOf, list, withDefault } from "./codec";
import type { NamedStructCodec } from "./namedCodec";
import { DEFAULT_TEXT_ROLE } from "./defaults";
import { attributed, event } from "./eventFields";
import { InputContent, TextMessageRole } from "./messages";

// Text (docs/wire.md#3.2)
const TextMessageStartEventCodec = event(
  "TEXT_MESSAGE_START",
  { messageId: t.string, role: withDefault(TextMessageRole, DEFAULT_TEXT_ROLE) },
  { ...attributed, name: t.string },
);
/**
 * Opens a streamed message; `role` is filled in (`"assistant"`) on decode.
 *
 * @example
 * ev.textMessageStart("m1")
 */
export interface TextMessageStartEvent extends t.TypeOf<typeof TextMessageStartEventCodec> {}
export const TextMessageStartEvent: NamedStructCodec<TextMessageStartEvent> = TextMessageStartEventCodec;

const TextMessageContentEventCodec = event("TEXT_MESSAGE_CONTENT", { messageId: t.string, delta: t.string }, attributed);
/**
 * Appends `delta` (possibly `""`) to the open message `messageId`.
 *
 * @example
 * ev.textMessageContent("m1", "Hello")
 */
export interface TextMessageContentEvent extends t.TypeOf<typeof TextMessageContentEventCodec> {}
export const TextMessageContentEvent: NamedStructCodec<TextMessageContentEvent> = TextMessageContentEventCodec;

const TextMessageEndEventCodec = event("TEXT_MESSAGE_END", { messageId: t.string }, attributed);
/**
 * Closes the message `messageId`.
 *
 * @example
 * ev.textMessageEnd("m1")
 */
export interface TextMessageEndEvent extends t.TypeOf<typeof TextMessageEndEventCodec> {}
export const TextMessageEndEvent: NamedStructCodec<TextMessageEndEvent> = TextMessageEndEventCodec;

const TextMessageChunkEventCodec = event(
  "TEXT_MESSAGE_CHUNK",
  {},
  {
    ...attributed,
    messageId: t.string,
    role: TextMessageRole,
    delta: t.string,
    name: t.string,
  },
);
/**
 * Shorthand for START/CONTENT/END, expanded by `normalizeChunks()` (docs/wire.md#5.3).
 *
 * @example
 * ev.textMessageChunk({ messageId: "m1", delta: "Hi" })
 */
export interface TextMessageChunkEvent extends t.TypeOf<typeof TextMessageChunkEventCodec> {}
export const TextMessageChunkEvent: NamedStructCodec<TextMessageChunkEvent> = TextMessageChunkEventCodec;

// Tool calls (docs/wire.md#3.3)
const ToolCallStartEventCodec = event(
  "TOOL_CALL_START",
  { toolCallId: t.string, toolCallName: t.string },
  {
    ...attributed,
    parentMessageId: t.string,
  },
);
/**
 * Opens a tool call, held by the assistant message `parentMessageId` when given.
 *
 * @example
 * ev.toolCallStart("tc1", "search", { parentMessageId: "m1" })
 */
export interface ToolCallStartEvent extends t.TypeOf<typeof ToolCallStartEventCodec> {}
export const ToolCallStartEvent: NamedStructCodec<ToolCallStartEvent> = ToolCallStartEventCodec;

const ToolCallArgsEventCodec = event("TOOL_CALL_ARGS", { toolCallId: t.string, delta: t.string }, attributed);
/**
 * Appends a fragment of the call's JSON-encoded arguments.
 *
 * @example
 * ev.toolCallArgs("tc1", '{"q":"rx"}')
 */
export interface ToolCallArgsEvent extends t.TypeOf<typeof ToolCallArgsEventCodec> {}
export const ToolCallArgsEvent: NamedStructCodec<ToolCallArgsEvent> = ToolCallArgsEventCodec;

const ToolCallEndEventCodec = event("TOOL_CALL_END", { toolCallId: t.string }, attributed);
/**
 * The call's arguments are complete.
 *
 * @example
 * ev.toolCallEnd("tc1")
 */
export interface ToolCallEndEvent extends t.TypeOf<typeof ToolCallEndEventCodec> {}
export const ToolCallEndEvent: NamedStructCodec<ToolCallEndEvent> = ToolCallEndEventCodec;

const ToolCallChunkEventCodec = event(
  "TOOL_CALL_CHUNK",
  {},
  {
    ...attributed,
    toolCallId: t.string,
    toolCallName: t.string,
    parentMessageId: t.string,
    delta: t.string,
  },
);
/**
 * Shorthand for START/ARGS/END, expanded by `normalizeChunks()` (docs/wire.md#5.3).
 *
 * @example
 * ev.toolCallChunk({ toolCallId: "tc1", toolCallName: "search", delta: "{}" })
 */
export interface ToolCallChunkEvent extends t.TypeOf<typeof ToolCallChunkEventCodec> {}
export const ToolCallChunkEvent: NamedStructCodec<ToolCallChunkEvent> = ToolCallChunkEventCodec;

const ToolCallResultEventCodec = event(
  "TOOL_CALL_RESULT",
  { messageId: t.string, toolCallId: t.string, content: t.union([t.string, list(InputContent)]) },
  { ...attributed, role: enumOf("TOOL_CALL_RESULT.role", ["tool"]) },
);
/**
 * The tool's output; creates the tool message `messageId`.
 *
 * @example
 * ev.toolCallResult("m2", "tc1", "3 results")
 */
export interface ToolCallResultEvent extends t.TypeOf<typeof ToolCallResultEventCodec> {}
export const ToolCallResultEvent: NamedStructCodec<ToolCallResultEvent> = ToolCallResultEventCodec;
