/**
 * The path of one chunk through the normalizer (docs/rules.md#chunks, docs/rules.md#C1 to docs/rules.md#C9, docs/rules.md#R22), top to bottom: which stream
 * kind and id it names, which lane it goes to (docs/rules.md#C2, docs/rules.md#C3), then either the continuation of the stream
 * open there (docs/rules.md#C6 checked, docs/rules.md#C7, docs/rules.md#C8 a delta) or the opening of a new one (docs/rules.md#C5 checked, the lane's old
 * stream closed, a reasoning block of its own if its owner has none, the START and the delta).
 * Helpers follow in the order the path calls them. Every check runs before the first event is
 * emitted, so a rejected chunk leaves the state as it was; what an emitted event opens is recorded
 * once it was sent (`Emit.ts`).
 */
import * as E from "../../protocol/either";
import { DEFAULT_TEXT_ROLE } from "../../protocol/defaults";
import type { ChunkEvent, Event } from "../../protocol/events";
import { ProtocolError } from "../ProtocolError";
import { closeLane, open, tagged } from "./closeLane";
import type { Emit } from "./Emit";
import type { LaneKey, NormalizerState, OpenerFields, OpenStream, StreamKind } from "./NormalizerState";
import { blockFor } from "./reasoning";

/**
 * Emits the explicit events `chunk` expands to in its lane, or returns the error that rejects it with
 * code `"chunk"` (docs/rules.md#C2, docs/rules.md#C3, docs/rules.md#C5, docs/rules.md#C6), having emitted nothing and changed nothing in `state`.
 * `normalizeStep`'s doc comment states the contract.
 *
 * @example
 * expandChunk(initialNormalizerState(), ev.textMessageChunk({ messageId: "m1", delta: "Hi" }), collect);
 * // undefined; emitted TEXT_MESSAGE_START(m1, assistant), TEXT_MESSAGE_CONTENT(m1, "Hi")
 */
export function expandChunk(state: NormalizerState, chunk: ChunkEvent, emit: Emit): ProtocolError | undefined {
  const kind = kindOf(chunk);
  const id = idOf(chunk);
  const tag = chunk.subagentRunId ?? undefined; // a stray null reads as the parent (docs/rules.md#C1)
  const resolved = resolveLane(state, chunk, kind, id, tag);
  if (E.isLeft(resolved)) return resolved.left;
  const key = resolved.right;
  const current = state.lanes.get(key);
  // docs/rules.md#C4: a chunk continues the stream open in its lane when it is of that kind and names no other id; else it opens one.
  const continues = current !== undefined && current.kind === kind && (id === undefined || id === current.id);
  return continues ? continueStream(current, chunk, emit) : openStream(state, chunk, kind, key, current, emit);
}

/**
 * The kind of stream a chunk belongs to.
 *
 * @example
 * kindOf({ type: "TOOL_CALL_CHUNK", toolCallId: "t1" }) // "tool"
 */
function kindOf(chunk: ChunkEvent): StreamKind {
  switch (chunk.type) {
    case "TEXT_MESSAGE_CHUNK":
      return "text";
    case "TOOL_CALL_CHUNK":
      return "tool";
    case "REASONING_MESSAGE_CHUNK":
      return "reasoning";
    default:
      return chunk satisfies never;
  }
}

/**
 * The chunk's stream id (`messageId` or `toolCallId`), if it carries one. `""` is a present id (docs/rules.md#C4).
 *
 * @example
 * idOf({ type: "TEXT_MESSAGE_CHUNK", messageId: "" }) // ""
 */
function idOf(chunk: ChunkEvent): string | undefined {
  return chunk.type === "TOOL_CALL_CHUNK" ? chunk.toolCallId : chunk.messageId;
}

/** The lane a chunk goes to (docs/rules.md#C2, docs/rules.md#C3), or the error that rejects it. Reads the state only. */
function resolveLane(state: NormalizerState, chunk: ChunkEvent, kind: StreamKind, id: string | undefined, tag: LaneKey): E.Either<ProtocolError, LaneKey> {
  const index = state.open[kind];
  if (id !== undefined) {
    // docs/rules.md#C2: an open stream of this kind and id continues in its own lane, whatever lane the tag names.
    const holder = index.get(id);
    if (holder === undefined) return E.right(tag);
    if (tag !== undefined && tag !== holder.owner) {
      return E.left(
        new ProtocolError(
          "chunk",
          "C2",
          chunk,
          `${chunk.type} for ${describeKind(kind)} "${id}" has subagentRunId ${JSON.stringify(tag)}, but that ${describeKind(kind)} ` +
            `is open in ${describeLane(holder.owner)}; expected ${holder.owner === undefined ? "no subagentRunId" : `subagentRunId ${JSON.stringify(holder.owner)} or none`}`,
        ),
      );
    }
    return E.right(holder.owner);
  }
  // docs/rules.md#C3: no id.
  if (tag !== undefined) return E.right(tag); // 1. its tag's lane
  if (state.lanes.get(undefined)?.kind === kind) return E.right(undefined); // 2. the parent first
  if (index.size === 1) {
    // 3. the only lane with an open stream of this kind
    for (const only of index.values()) return E.right(only.owner);
  }
  if (index.size > 1) {
    // 4. ambiguous. Listing the candidates is O(open lanes), paid only on this error path.
    const candidates = [...index.values()].map((s) => `"${s.id}" in ${describeLane(s.owner)}`).join(", ");
    return E.left(
      new ProtocolError(
        "chunk",
        "C3",
        chunk,
        `${chunk.type} has neither a ${idMember(kind)} nor a subagentRunId, and the parent has no open ${describeKind(kind)}, ` +
          `so it could continue any of ${index.size} open ${describeKind(kind)}s (${candidates}); expected a ${idMember(kind)} or a subagentRunId`,
      ),
    );
  }
  return E.right(undefined); // 5. none: the parent lane, where docs/rules.md#C5 rejects it
}

/** docs/rules.md#C4 continue: the chunk's delta (or its metadata or rawEvent alone) on the open stream, unless it contradicts an opener field (docs/rules.md#C6). */
function continueStream(current: OpenStream, chunk: ChunkEvent, emit: Emit): ProtocolError | undefined {
  // docs/rules.md#C6: a continuation may repeat an opener field, never contradict it.
  const conflict = conflictingField(current, chunk);
  if (conflict !== undefined) {
    const open = conflict.open === undefined ? "absent" : JSON.stringify(conflict.open);
    return new ProtocolError(
      "chunk",
      "C6",
      chunk,
      `${chunk.type} continues ${describeKind(current.kind)} "${current.id}" with ${conflict.field} ${JSON.stringify(conflict.value)}, ` +
        `but the open stream's ${conflict.field} is ${open}; a continuation may repeat an opener field only with the same value`,
    );
  }
  // docs/rules.md#C4 continue; docs/rules.md#C7 a delta, even "", becomes CONTENT/ARGS; docs/rules.md#C8 metadata or a rawEvent alone becomes an empty delta.
  if (chunk.delta !== undefined) emit(deltaEvent(current, chunk, chunk.delta));
  else if (chunk.metadata !== undefined || chunk.rawEvent !== undefined) emit(deltaEvent(current, chunk, ""));
  return undefined;
}

/** The opener fields a chunk of each kind may carry, in the order they are compared. */
const OPENER_FIELDS: { readonly [K in StreamKind]: readonly (keyof OpenerFields)[] } = {
  text: ["role", "name"],
  tool: ["toolCallName", "parentMessageId"],
  reasoning: [],
};

/**
 * The first opener field a continuation chunk carries with a value other than the open stream's
 * (docs/rules.md#C6, AG-UI 1.1 streaming: a conflicting repeat is a protocol violation; an identical one is
 * legal), or `undefined`.
 *
 * @example
 * conflictingField({ kind: "text", id: "m1", owner: undefined, fields: { role: "assistant" } }, { type: "TEXT_MESSAGE_CHUNK", role: "user" })
 * // { field: "role", value: "user", open: "assistant" }
 */
function conflictingField(
  stream: OpenStream,
  chunk: ChunkEvent,
): { readonly field: keyof OpenerFields; readonly value: string; readonly open: string | undefined } | undefined {
  const names = OPENER_FIELDS[stream.kind];
  for (let i = 0; i < names.length; i++) {
    const field = names[i];
    const value: unknown = Reflect.get(chunk, field); // a chunk of this kind declares exactly these fields
    if (value === undefined || value === null) continue; // absent (or a stray null, read as absent)
    const open = stream.fields?.[field];
    // eslint-disable-next-line @typescript-eslint/no-base-to-string -- a decoded chunk's opener fields are strings; any other value is only quoted in the error
    if (value !== open) return { field, value: String(value), open };
  }
  return undefined;
}

/**
 * The CONTENT or ARGS a chunk's delta becomes (docs/rules.md#C7; docs/rules.md#C8 passes `""` for a chunk with no delta that
 * carries metadata or a rawEvent). Its tag is the chunk's, or the opener's when the chunk has none; it carries the
 * chunk's metadata, timestamp and rawEvent.
 *
 * @example
 * deltaEvent({ kind: "text", id: "m1", owner: "s1" }, { type: "TEXT_MESSAGE_CHUNK", metadata: { u: 1 } }, "")
 * // { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "", subagentRunId: "s1", metadata: { u: 1 } }
 */
function deltaEvent(stream: OpenStream, chunk: ChunkEvent, delta: string): Event {
  const common = {
    // `??` also reads a stray null tag as "none", so the opener's tag applies (docs/rules.md#C1).
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
    default:
      return stream.kind satisfies never;
  }
}

/**
 * docs/rules.md#C4 open: a new stream in lane `key` (docs/rules.md#C5 checked first), after the END of the one it replaces, in a
 * reasoning block of its own when docs/rules.md#R22 needs one. The stream is recorded once its START was sent; a
 * block of its own whose REASONING_START was sent but whose message's START was not stays open alone.
 */
function openStream(
  state: NormalizerState,
  chunk: ChunkEvent,
  kind: StreamKind,
  key: LaneKey,
  current: OpenStream | undefined,
  emit: Emit,
): ProtocolError | undefined {
  // docs/rules.md#C5 is checked before the lane is touched, so a rejected chunk leaves every lane as it was.
  const opened = opening(chunk, key); // opening happens only in the lane the chunk's own tag names
  if ("missing" in opened) return cannotOpen(chunk, kind, key, current, opened.missing);

  if (!closeLane(state, key, emit)) return undefined;
  // docs/rules.md#R22: a reasoning message opens inside a block of its owner; with none open the normalizer brackets it itself.
  const block = kind === "reasoning" ? blockFor(state, opened.id, key) : undefined;
  if (block === undefined) {
    if (!emit(opened.start)) return undefined;
  } else {
    if (!emit(blockStart(block.id, key, chunk))) return undefined;
    if (!emit(opened.start)) {
      open(state, { kind, id: opened.id, owner: key, fields: opened.fields, block: { id: block.id, alone: true } }); // the block went out; its message did not
      return undefined;
    }
  }
  const stream: OpenStream =
    block === undefined ? { kind, id: opened.id, owner: key, fields: opened.fields } : { kind, id: opened.id, owner: key, fields: opened.fields, block };
  open(state, stream); // re-inserted: the lane moves to the end of lane order (docs/rules.md#C1)
  if (chunk.delta !== undefined) emit(deltaEvent(stream, chunk, chunk.delta));
  else if (chunk.rawEvent !== undefined) emit(deltaEvent(stream, chunk, "")); // docs/rules.md#C8: the rawEvent rides an empty delta
  return undefined;
}

/** What opening a stream from a chunk yields: its id, START and opener fields, or the members the chunk lacks (docs/rules.md#C5). */
type Opening = { readonly id: string; readonly start: Event; readonly fields: OpenerFields } | { readonly missing: readonly string[] };

/**
 * The START an opening chunk synthesizes (docs/rules.md#C6): the id, the opener fields (role defaulting to
 * `assistant`, name; toolCallName, parentMessageId; role `reasoning`), the chunk's tag, its
 * metadata and its timestamp. `tag` is the chunk's tag as the lane reads it (a stray `null` is
 * the parent, docs/rules.md#C1). `rawEvent` is not copied here: it goes with the delta event. A text or reasoning chunk needs a messageId, a tool chunk a toolCallId and a toolCallName (docs/rules.md#C5);
 * without them the result names what is missing.
 *
 * @example
 * opening({ type: "TOOL_CALL_CHUNK", toolCallId: "t1", toolCallName: "f", delta: "{" }, "s1")
 * // { id: "t1", start: { type: "TOOL_CALL_START", toolCallId: "t1", toolCallName: "f", subagentRunId: "s1" }, fields: { toolCallName: "f" } }
 * opening({ type: "TOOL_CALL_CHUNK", toolCallId: "t1" }, undefined) // { missing: ["toolCallName"] }
 */
function opening(chunk: ChunkEvent, tag: string | undefined): Opening {
  const common = { ...tagged(tag), ...metadataOf(chunk), ...timestampOf(chunk) };
  switch (chunk.type) {
    case "TEXT_MESSAGE_CHUNK": {
      const { messageId, name } = chunk;
      if (messageId === undefined) return { missing: ["messageId"] };
      const role = chunk.role ?? DEFAULT_TEXT_ROLE;
      // the opener fields are decided once: the START carries them, and so does the lane (as `fields`)
      const fields = name === undefined ? { role } : { role, name };
      return { id: messageId, start: { type: "TEXT_MESSAGE_START", messageId, ...fields, ...common }, fields };
    }
    case "TOOL_CALL_CHUNK": {
      const { toolCallId, toolCallName, parentMessageId } = chunk;
      if (toolCallId === undefined || toolCallName === undefined) {
        return { missing: [...(toolCallId === undefined ? ["toolCallId"] : []), ...(toolCallName === undefined ? ["toolCallName"] : [])] };
      }
      const fields = parentMessageId === undefined ? { toolCallName } : { toolCallName, parentMessageId };
      return { id: toolCallId, start: { type: "TOOL_CALL_START", toolCallId, ...fields, ...common }, fields };
    }
    case "REASONING_MESSAGE_CHUNK": {
      const { messageId } = chunk;
      if (messageId === undefined) return { missing: ["messageId"] };
      return { id: messageId, start: { type: "REASONING_MESSAGE_START", messageId, role: "reasoning", ...common }, fields: {} };
    }
    default:
      return chunk satisfies never;
  }
}

/** `{ metadata }` when the chunk has metadata. */
function metadataOf(chunk: ChunkEvent): { metadata?: Record<string, unknown> } {
  return chunk.metadata === undefined ? {} : { metadata: chunk.metadata };
}

/** `{ timestamp }` when the chunk has one: the events made from a chunk happened when it did. */
function timestampOf(chunk: ChunkEvent): { timestamp?: number } {
  return chunk.timestamp === undefined ? {} : { timestamp: chunk.timestamp };
}

function cannotOpen(chunk: ChunkEvent, kind: StreamKind, key: LaneKey, current: OpenStream | undefined, missing: readonly string[]): ProtocolError {
  const found =
    current === undefined
      ? `${describeLane(key)} has no open stream to continue`
      : current.kind === kind
        ? `it does not continue ${describeKind(kind)} "${current.id}" open in ${describeLane(key)}`
        : `${describeLane(key)} holds ${describeKind(current.kind)} "${current.id}", not a ${describeKind(kind)}`;
  return new ProtocolError(
    "chunk",
    "C5",
    chunk,
    `${chunk.type} must open a new ${describeKind(kind)} (${found}), and opening one needs ${missing.join(" and ")}, which it lacks`,
  );
}

/**
 * The REASONING_START the normalizer opens around a reasoning message whose owner has no block
 * open (docs/rules.md#R22): the block's id (see `OwnBlock.id`), the chunk's tag and timestamp, never metadata
 * (that belongs to the message, on its START).
 *
 * @example
 * blockStart("r1", "s1", { type: "REASONING_MESSAGE_CHUNK", messageId: "r1", timestamp: 5 })
 * // { type: "REASONING_START", messageId: "r1", subagentRunId: "s1", timestamp: 5 }
 */
function blockStart(id: string, tag: string | undefined, chunk: ChunkEvent): Event {
  return { type: "REASONING_START", messageId: id, ...tagged(tag), ...timestampOf(chunk) };
}

/**
 * How a kind reads in an error message.
 *
 * @example
 * describeKind("tool") // "tool call"
 */
function describeKind(kind: StreamKind): string {
  return kind === "text" ? "text message" : kind === "tool" ? "tool call" : "reasoning message";
}

/**
 * The name of the id member of a kind, for error messages.
 *
 * @example
 * idMember("reasoning") // "messageId"
 */
function idMember(kind: StreamKind): "messageId" | "toolCallId" {
  return kind === "tool" ? "toolCallId" : "messageId";
}

function describeLane(key: LaneKey): string {
  return key === undefined ? "the parent agent's lane" : `the lane of subagent ${JSON.stringify(key)}`;
}
