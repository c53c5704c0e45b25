/**
 * The explicit events a chunk expands to (RULES §2 C6, C7, C9): the synthesized START, the
 * CONTENT/ARGS carrying a delta, and the synthesized END. Pure builders; the lane bookkeeping that
 * decides which of them to emit lives in `normalizeStep`.
 */
import { DEFAULT_TEXT_ROLE } from "../../protocol/defaults";
import type { ChunkEvent, Event } from "../../protocol/events";

/** The three kinds of stream a chunk can assemble. Ids are unique only within a kind. */
export type StreamKind = "text" | "tool" | "reasoning";

/**
 * A stream being assembled in a lane. `owner` is the lane's key and also the opener's tag: a
 * stream opens only in the lane its opening chunk's tag names (`undefined` = the parent agent).
 */
export interface OpenStream {
  readonly kind: StreamKind;
  readonly id: string;
  readonly owner: string | undefined;
  /** What the opener established that a continuation may repeat but not contradict (C6); none for reasoning. */
  readonly fields?: OpenerFields;
}

/**
 * The opener fields of a stream (C6): a text message's role (as opened, so an absent role is the
 * `assistant` it defaulted to) and name; a tool call's name and parentMessageId. An absent field
 * is `undefined`: a continuation that names one contradicts the opener's silence (as in 1.0.0).
 */
export interface OpenerFields {
  readonly role?: string;
  readonly name?: string;
  readonly toolCallName?: string;
  readonly parentMessageId?: string;
}

/** The opener fields a chunk of each kind may carry, in the order they are compared. */
const OPENER_FIELDS: { readonly [K in StreamKind]: readonly (keyof OpenerFields)[] } = {
  text: ["role", "name"],
  tool: ["toolCallName", "parentMessageId"],
  reasoning: [],
};

/**
 * The first opener field a continuation chunk carries with a value other than the open stream's
 * (C6, AG-UI 1.1 streaming: a conflicting repeat is a protocol violation; an identical one is
 * legal), or `undefined`.
 *
 * @example
 * conflictingField({ kind: "text", id: "m1", owner: undefined, fields: { role: "assistant" } }, { type: "TEXT_MESSAGE_CHUNK", role: "user" })
 * // { field: "role", value: "user", open: "assistant" }
 */
export function conflictingField(
  stream: OpenStream,
  chunk: ChunkEvent,
): { readonly field: keyof OpenerFields; readonly value: string; readonly open: string | undefined } | undefined {
  const names = OPENER_FIELDS[stream.kind];
  for (let i = 0; i < names.length; i++) {
    const field = names[i];
    const value: unknown = Reflect.get(chunk, field); // a chunk of this kind declares exactly these fields
    if (value === undefined || value === null) continue; // absent (or a stray null, read as absent)
    const open = stream.fields?.[field];
    if (value !== open) return { field, value: String(value), open };
  }
  return undefined;
}

/**
 * The kind of stream a chunk belongs to.
 *
 * @example
 * kindOf({ type: "TOOL_CALL_CHUNK", toolCallId: "t1" }) // "tool"
 */
export function kindOf(chunk: ChunkEvent): StreamKind {
  switch (chunk.type) {
    case "TEXT_MESSAGE_CHUNK":
      return "text";
    case "TOOL_CALL_CHUNK":
      return "tool";
    case "REASONING_MESSAGE_CHUNK":
      return "reasoning";
  }
}

/**
 * The chunk's stream id (`messageId` or `toolCallId`), if it carries one. `""` is a present id (C4).
 *
 * @example
 * idOf({ type: "TEXT_MESSAGE_CHUNK", messageId: "" }) // ""
 */
export function idOf(chunk: ChunkEvent): string | undefined {
  return chunk.type === "TOOL_CALL_CHUNK" ? chunk.toolCallId : chunk.messageId;
}

/**
 * How a kind reads in an error message.
 *
 * @example
 * describeKind("tool") // "tool call"
 */
export function describeKind(kind: StreamKind): string {
  return kind === "text" ? "text message" : kind === "tool" ? "tool call" : "reasoning message";
}

/**
 * The name of the id member of a kind, for error messages.
 *
 * @example
 * idMember("reasoning") // "messageId"
 */
export function idMember(kind: StreamKind): "messageId" | "toolCallId" {
  return kind === "tool" ? "toolCallId" : "messageId";
}

/** `{ subagentRunId }` when there is a tag, nothing otherwise (JSON never carries an absent tag). */
function tagged(tag: string | undefined): { subagentRunId?: string } {
  return tag === undefined ? {} : { subagentRunId: tag };
}

/** `{ metadata }` when the chunk has metadata. */
function metadataOf(chunk: ChunkEvent): { metadata?: Record<string, unknown> } {
  return chunk.metadata === undefined ? {} : { metadata: chunk.metadata };
}

/** `{ timestamp }` when the chunk has one: the events made from a chunk happened when it did. */
function timestampOf(chunk: ChunkEvent): { timestamp?: number } {
  return chunk.timestamp === undefined ? {} : { timestamp: chunk.timestamp };
}

/** What opening a stream from a chunk yields: its id, START and opener fields, or the members the chunk lacks (C5). */
export type Opening = { readonly id: string; readonly start: Event; readonly fields: OpenerFields } | { readonly missing: readonly string[] };

/**
 * The START an opening chunk synthesizes (C6): the id, the opener fields (role defaulting to
 * `assistant`, name; toolCallName, parentMessageId; role `reasoning`), the chunk's tag, its
 * metadata and its timestamp. `tag` is the chunk's tag as the lane reads it (a stray `null` is
 * the parent, C1). `rawEvent` is not copied here: it goes with the delta event. A text or reasoning chunk needs a messageId, a tool chunk a toolCallId and a toolCallName (C5);
 * without them the result names what is missing.
 *
 * @example
 * opening({ type: "TOOL_CALL_CHUNK", toolCallId: "t1", toolCallName: "f", delta: "{" }, "s1")
 * // { id: "t1", start: { type: "TOOL_CALL_START", toolCallId: "t1", toolCallName: "f", subagentRunId: "s1" }, fields: { toolCallName: "f" } }
 * opening({ type: "TOOL_CALL_CHUNK", toolCallId: "t1" }, undefined) // { missing: ["toolCallName"] }
 */
export function opening(chunk: ChunkEvent, tag: string | undefined): Opening {
  const common = { ...tagged(tag), ...metadataOf(chunk), ...timestampOf(chunk) };
  switch (chunk.type) {
    case "TEXT_MESSAGE_CHUNK": {
      const { messageId, name } = chunk;
      if (messageId === undefined) return { missing: ["messageId"] };
      const role = chunk.role ?? DEFAULT_TEXT_ROLE;
      const start: Event = {
        type: "TEXT_MESSAGE_START",
        messageId,
        role,
        ...(name === undefined ? {} : { name }),
        ...common,
      };
      return { id: messageId, start, fields: name === undefined ? { role } : { role, name } };
    }
    case "TOOL_CALL_CHUNK": {
      const { toolCallId, toolCallName, parentMessageId } = chunk;
      if (toolCallId === undefined || toolCallName === undefined) {
        return { missing: [...(toolCallId === undefined ? ["toolCallId"] : []), ...(toolCallName === undefined ? ["toolCallName"] : [])] };
      }
      const start: Event = {
        type: "TOOL_CALL_START",
        toolCallId,
        toolCallName,
        ...(parentMessageId === undefined ? {} : { parentMessageId }),
        ...common,
      };
      return { id: toolCallId, start, fields: parentMessageId === undefined ? { toolCallName } : { toolCallName, parentMessageId } };
    }
    case "REASONING_MESSAGE_CHUNK": {
      const { messageId } = chunk;
      if (messageId === undefined) return { missing: ["messageId"] };
      return { id: messageId, start: { type: "REASONING_MESSAGE_START", messageId, role: "reasoning", ...common }, fields: {} };
    }
  }
}

/**
 * The CONTENT or ARGS a chunk's delta becomes (C7; C8 passes `""` for a chunk with no delta that
 * carries metadata or a rawEvent). Its tag is the chunk's, or the opener's when the chunk has none; it carries the
 * chunk's metadata, timestamp and rawEvent.
 *
 * @example
 * deltaEvent({ kind: "text", id: "m1", owner: "s1" }, { type: "TEXT_MESSAGE_CHUNK", metadata: { u: 1 } }, "")
 * // { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "", subagentRunId: "s1", metadata: { u: 1 } }
 */
export function deltaEvent(stream: OpenStream, chunk: ChunkEvent, delta: string): Event {
  const common = {
    // `??` also reads a stray null tag as "none", so the opener's tag applies (C1).
    ...tagged(chunk.subagentRunId ?? stream.owner),
    ...metadataOf(chunk),
    ...timestampOf(chunk),
    ...(chunk.rawEvent === undefined ? {} : { rawEvent: chunk.rawEvent }),
  };
  switch (stream.kind) {
    case "text":
      return { type: "TEXT_MESSAGE_CONTENT", messageId: stream.id, delta, ...common };
    case "tool":
      return { type: "TOOL_CALL_ARGS", toolCallId: stream.id, delta, ...common };
    case "reasoning":
      return { type: "REASONING_MESSAGE_CONTENT", messageId: stream.id, delta, ...common };
  }
}

/**
 * The END synthesized when a stream closes (C9): the id and the opener's tag, never metadata.
 *
 * @example
 * endEvent({ kind: "reasoning", id: "r1", owner: "s2" }) // { type: "REASONING_MESSAGE_END", messageId: "r1", subagentRunId: "s2" }
 */
export function endEvent(stream: OpenStream): Event {
  const tag = tagged(stream.owner);
  switch (stream.kind) {
    case "text":
      return { type: "TEXT_MESSAGE_END", messageId: stream.id, ...tag };
    case "tool":
      return { type: "TOOL_CALL_END", toolCallId: stream.id, ...tag };
    case "reasoning":
      return { type: "REASONING_MESSAGE_END", messageId: stream.id, ...tag };
  }
}
