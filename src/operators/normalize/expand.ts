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
  /**
   * Reasoning only: the block the normalizer opened for this message because its owner had none
   * open (R22: a reasoning message opens only inside one). Closing the stream sends its
   * REASONING_END right after the message's END. Absent: the message opened inside a block of its
   * owner that the producer opened.
   */
  readonly block?: OwnBlock;
}

/**
 * A reasoning block the normalizer opened around a chunk message (R22).
 *
 * @example
 * const block: OwnBlock = { id: "r1", alone: false };
 */
export interface OwnBlock {
  /**
   * The block's messageId: the message's own (a span and a message are separate namespaces, and
   * the shared id keeps the two under one owner, R38), or one minted with `newId` when an explicit
   * block of that id, another owner's, is open.
   */
  readonly id: string;
  /**
   * Only the block is open, not the message: the server's verifier refused the message's START
   * after the block's was sent (`reconcileNormalizer`). Closing then sends the REASONING_END only.
   */
  readonly alone: boolean;
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
 * The REASONING_START the normalizer opens around a reasoning message whose owner has no block
 * open (R22): the block's id (see `OwnBlock.id`), the chunk's tag and timestamp, never metadata
 * (that belongs to the message, on its START).
 *
 * @example
 * blockStart("r1", "s1", { type: "REASONING_MESSAGE_CHUNK", messageId: "r1", timestamp: 5 })
 * // { type: "REASONING_START", messageId: "r1", subagentRunId: "s1", timestamp: 5 }
 */
export function blockStart(id: string, tag: string | undefined, chunk: ChunkEvent): Event {
  return { type: "REASONING_START", messageId: id, ...tagged(tag), ...timestampOf(chunk) };
}

/**
 * The REASONING_END of a block the normalizer opened: the block's id and the opener's tag, never
 * metadata (C9).
 *
 * @example
 * blockEnd({ kind: "reasoning", id: "r1", owner: "s2", block: { id: "r1", alone: false } }, { id: "r1", alone: false })
 * // { type: "REASONING_END", messageId: "r1", subagentRunId: "s2" }
 */
export function blockEnd(stream: OpenStream, block: OwnBlock): Event {
  return { type: "REASONING_END", messageId: block.id, ...tagged(stream.owner) };
}

/**
 * The ENDs synthesized when a stream closes (C9), appended to `out`: the id and the opener's tag,
 * never metadata. A reasoning message the normalizer bracketed is followed by its block's
 * REASONING_END (or is only that, once the message itself was refused: `block.alone`).
 *
 * @example
 * endEvents({ kind: "reasoning", id: "r1", owner: "s2", block: { id: "r1", alone: false } }, [])
 * // [{ type: "REASONING_MESSAGE_END", messageId: "r1", subagentRunId: "s2" }, { type: "REASONING_END", messageId: "r1", subagentRunId: "s2" }]
 */
export function endEvents(stream: OpenStream, out: Event[]): Event[] {
  const tag = tagged(stream.owner);
  switch (stream.kind) {
    case "text":
      out.push({ type: "TEXT_MESSAGE_END", messageId: stream.id, ...tag });
      return out;
    case "tool":
      out.push({ type: "TOOL_CALL_END", toolCallId: stream.id, ...tag });
      return out;
    case "reasoning": {
      const { block } = stream;
      if (block === undefined || !block.alone) out.push({ type: "REASONING_MESSAGE_END", messageId: stream.id, ...tag });
      if (block !== undefined) out.push(blockEnd(stream, block));
      return out;
    }
  }
}
