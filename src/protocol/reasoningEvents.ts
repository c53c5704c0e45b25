/**
 * The reasoning events (docs/wire.md#3.7) and the deprecated `THINKING_*` (docs/wire.md#3.9, docs/wire.md#7) that
 * `normalizeChunks()` maps onto them.
 *
 * Each event is three declarations (see `events.ts`): `<Name>EventCodec`, the codec as built
 * (module-private); the interface `<Name>Event`, `t.TypeOf` of it, the name an editor shows; and the
 * same codec exported under that name, typed to decode the interface (`NamedStructCodec`).
 */
import * as t from "io-ts";
import { enumOf } from "./codec";
import type { MessageRole } from "./messages";
import type { NamedStructCodec } from "./namedCodec";
import { attributed, baseFields, event } from "./eventFields";

// Reasoning (docs/wire.md#3.7)
const ReasoningStartEventCodec = event("REASONING_START", { messageId: t.string }, attributed);
/**
 * Opens a reasoning span `messageId`.
 *
 * @example
 * ev.reasoningStart("r1")
 */
export interface ReasoningStartEvent extends t.TypeOf<typeof ReasoningStartEventCodec> {}
export const ReasoningStartEvent: NamedStructCodec<ReasoningStartEvent> = ReasoningStartEventCodec;

/**
 * The message roles REASONING_MESSAGE_START does not take. The schema pins its role to
 * `reasoning`, so one of these is a malformed known value and fails decoding (AG-UI 1.1 conformance
 * stream `reasoning-message-wrong-role-fatal`); a role the protocol does not know at all is
 * unrecognised, and takes the event with it (a required member), with a warning.
 */
const notReasoning: { readonly [R in Exclude<MessageRole, "reasoning">]: R } = {
  developer: "developer",
  system: "system",
  assistant: "assistant",
  user: "user",
  tool: "tool",
  activity: "activity",
};

const ReasoningMessageStartEventCodec = event(
  "REASONING_MESSAGE_START",
  { messageId: t.string, role: enumOf("REASONING_MESSAGE_START.role", ["reasoning"], { malformed: Object.values(notReasoning) }) },
  attributed,
);
/**
 * Opens a reasoning message inside the span.
 *
 * @example
 * ev.reasoningMessageStart("r1")
 */
export interface ReasoningMessageStartEvent extends t.TypeOf<typeof ReasoningMessageStartEventCodec> {}
export const ReasoningMessageStartEvent: NamedStructCodec<ReasoningMessageStartEvent> = ReasoningMessageStartEventCodec;

const ReasoningMessageContentEventCodec = event("REASONING_MESSAGE_CONTENT", { messageId: t.string, delta: t.string }, attributed);
/**
 * Appends reasoning text to the open reasoning message.
 *
 * @example
 * ev.reasoningMessageContent("r1", "Checking the board…")
 */
export interface ReasoningMessageContentEvent extends t.TypeOf<typeof ReasoningMessageContentEventCodec> {}
export const ReasoningMessageContentEvent: NamedStructCodec<ReasoningMessageContentEvent> = ReasoningMessageContentEventCodec;

const ReasoningMessageEndEventCodec = event("REASONING_MESSAGE_END", { messageId: t.string }, attributed);
/**
 * Closes the reasoning message.
 *
 * @example
 * ev.reasoningMessageEnd("r1")
 */
export interface ReasoningMessageEndEvent extends t.TypeOf<typeof ReasoningMessageEndEventCodec> {}
export const ReasoningMessageEndEvent: NamedStructCodec<ReasoningMessageEndEvent> = ReasoningMessageEndEventCodec;

const ReasoningMessageChunkEventCodec = event("REASONING_MESSAGE_CHUNK", {}, { ...attributed, messageId: t.string, delta: t.string });
/**
 * Shorthand for the reasoning message events, expanded by `normalizeChunks()`.
 *
 * @example
 * ev.reasoningMessageChunk({ messageId: "r1", delta: "Hm" })
 */
export interface ReasoningMessageChunkEvent extends t.TypeOf<typeof ReasoningMessageChunkEventCodec> {}
export const ReasoningMessageChunkEvent: NamedStructCodec<ReasoningMessageChunkEvent> = ReasoningMessageChunkEventCodec;

const ReasoningEndEventCodec = event("REASONING_END", { messageId: t.string }, attributed);
/**
 * Closes the reasoning span `messageId`.
 *
 * @example
 * ev.reasoningEnd("r1")
 */
export interface ReasoningEndEvent extends t.TypeOf<typeof ReasoningEndEventCodec> {}
export const ReasoningEndEvent: NamedStructCodec<ReasoningEndEvent> = ReasoningEndEventCodec;

const ReasoningEncryptedValueEventCodec = event(
  "REASONING_ENCRYPTED_VALUE",
  { subtype: enumOf("EncryptedValueSubtype", ["tool-call", "message"]), entityId: t.string, encryptedValue: t.string },
  attributed,
);
/**
 * Attaches an opaque encrypted blob to a message or a tool call (`entityId`).
 *
 * @example
 * ev.reasoningEncryptedValue("message", "m1", "gAAAA…")
 */
export interface ReasoningEncryptedValueEvent extends t.TypeOf<typeof ReasoningEncryptedValueEventCodec> {}
export const ReasoningEncryptedValueEvent: NamedStructCodec<ReasoningEncryptedValueEvent> = ReasoningEncryptedValueEventCodec;

// Deprecated thinking events (Baseline only, docs/wire.md#7); decoded, mapped to reasoning, never emitted.
const ThinkingStartEventCodec = event("THINKING_START", {}, { ...baseFields, title: t.string });
/**
 * Deprecated: opens a thinking span (`normalizeChunks()` maps it to REASONING_START).
 *
 * @example
 * const start: ThinkingStartEvent = { type: "THINKING_START", title: "plan" };
 */
export interface ThinkingStartEvent extends t.TypeOf<typeof ThinkingStartEventCodec> {}
export const ThinkingStartEvent: NamedStructCodec<ThinkingStartEvent> = ThinkingStartEventCodec;

const ThinkingEndEventCodec = event("THINKING_END", {}, baseFields);
/**
 * Deprecated: closes the thinking span (mapped to REASONING_END).
 *
 * @example
 * const end: ThinkingEndEvent = { type: "THINKING_END" };
 */
export interface ThinkingEndEvent extends t.TypeOf<typeof ThinkingEndEventCodec> {}
export const ThinkingEndEvent: NamedStructCodec<ThinkingEndEvent> = ThinkingEndEventCodec;

const ThinkingTextMessageStartEventCodec = event("THINKING_TEXT_MESSAGE_START", {}, baseFields);
/**
 * Deprecated: opens a thinking message (mapped to REASONING_MESSAGE_START).
 *
 * @example
 * const start: ThinkingTextMessageStartEvent = { type: "THINKING_TEXT_MESSAGE_START" };
 */
export interface ThinkingTextMessageStartEvent extends t.TypeOf<typeof ThinkingTextMessageStartEventCodec> {}
export const ThinkingTextMessageStartEvent: NamedStructCodec<ThinkingTextMessageStartEvent> = ThinkingTextMessageStartEventCodec;

const ThinkingTextMessageContentEventCodec = event("THINKING_TEXT_MESSAGE_CONTENT", { delta: t.string }, baseFields);
/**
 * Deprecated: appends thinking text (mapped to REASONING_MESSAGE_CONTENT).
 *
 * @example
 * const content: ThinkingTextMessageContentEvent = { type: "THINKING_TEXT_MESSAGE_CONTENT", delta: "Hm" };
 */
export interface ThinkingTextMessageContentEvent extends t.TypeOf<typeof ThinkingTextMessageContentEventCodec> {}
export const ThinkingTextMessageContentEvent: NamedStructCodec<ThinkingTextMessageContentEvent> = ThinkingTextMessageContentEventCodec;

const ThinkingTextMessageEndEventCodec = event("THINKING_TEXT_MESSAGE_END", {}, baseFields);
/**
 * Deprecated: closes the thinking message (mapped to REASONING_MESSAGE_END).
 *
 * @example
 * const end: ThinkingTextMessageEndEvent = { type: "THINKING_TEXT_MESSAGE_END" };
 */
export interface ThinkingTextMessageEndEvent extends t.TypeOf<typeof ThinkingTextMessageEndEventCodec> {}
export const ThinkingTextMessageEndEvent: NamedStructCodec<ThinkingTextMessageEndEvent> = ThinkingTextMessageEndEventCodec;
