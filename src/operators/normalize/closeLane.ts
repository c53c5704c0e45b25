/**
 * What closing a lane sends (docs/rules.md#chunks, docs/rules.md#C9, docs/rules.md#C10): the END of the stream open in it, followed by the
 * REASONING_END of the block the normalizer opened around a reasoning message, if any. Used by the
 * step for the ENDs other events cause, by the chunk path for the stream a new chunk replaces, and
 * by the reasoning bookkeeping for a block ended early.
 *
 * Each END goes through `emit` (`Emit.ts`), and the stream is forgotten as its END goes out. An END
 * that is not sent still counts as closing what it ends: the server's verifier refuses an END the
 * normalizer synthesized (with the opener's own id and tag) only when that stream is no longer open
 * on the wire, and keeping it would have every later event synthesize the same refused END again.
 */
import type { Event } from "../../protocol/events";
import type { Emit } from "./Emit";
import type { LaneKey, NormalizerState, OpenStream, OwnBlock } from "./NormalizerState";

/**
 * Closes the stream open in lane `key`, if any, emitting its END (and its block's, docs/rules.md#C9); returns
 * `false` when `emit` stopped the expansion, `true` otherwise (also when the lane was empty).
 *
 * @example
 * closeLane(state, "s1", collect); // emits TEXT_MESSAGE_END(m1@s1) while s1's lane holds m1
 */
export function closeLane(state: NormalizerState, key: LaneKey, emit: Emit): boolean {
  const stream = state.lanes.get(key);
  return stream === undefined || closeStream(state, stream, emit);
}

/**
 * Closes every open lane in lane order (docs/rules.md#C10 c), emitting their ENDs. O(open lanes). Returns `false`
 * when `emit` stopped the expansion: the lanes after the one whose END was refused stay open.
 *
 * @example
 * closeAll(state, collect); // emits nothing when no lane is open
 */
export function closeAll(state: NormalizerState, emit: Emit): boolean {
  // Deleting the entry being visited does not disturb a Map's iteration.
  for (const stream of state.lanes.values()) if (!closeStream(state, stream, emit)) return false;
  return true;
}

/**
 * Emits the ENDs of `stream` (docs/rules.md#C9): the id and the opener's tag, never metadata. A reasoning message the
 * normalizer bracketed is followed by its block's REASONING_END (or is only that, once the message
 * itself was refused: `block.alone`). When the message's END is not sent, its block, still open on
 * the wire, stays in the lane alone, to be ended like any other stream.
 */
function closeStream(state: NormalizerState, stream: OpenStream, emit: Emit): boolean {
  const { block } = stream;
  if (block === undefined || !block.alone) {
    if (!emit(messageEnd(stream))) {
      if (block === undefined) forget(state, stream);
      else keep(state, stream, { ...stream, block: { id: block.id, alone: true } });
      return false;
    }
  }
  forget(state, stream);
  return block === undefined || emit(blockEnd(stream, block));
}

/**
 * The END of the message or tool call of `stream` (docs/rules.md#C9).
 *
 * @example
 * messageEnd({ kind: "tool", id: "t1", owner: "s2" }); // { type: "TOOL_CALL_END", toolCallId: "t1", subagentRunId: "s2" }
 */
function messageEnd(stream: OpenStream): Event {
  const tag = tagged(stream.owner);
  switch (stream.kind) {
    case "text":
      return { type: "TEXT_MESSAGE_END", messageId: stream.id, ...tag };
    case "tool":
      return { type: "TOOL_CALL_END", toolCallId: stream.id, ...tag };
    case "reasoning":
      return { type: "REASONING_MESSAGE_END", messageId: stream.id, ...tag };
    default:
      return stream.kind satisfies never;
  }
}

/**
 * Records `stream` as open in its lane (re-inserted: the lane moves to the end of lane order, docs/rules.md#C1).
 *
 * @example
 * open(state, { kind: "text", id: "m1", owner: undefined, fields: { role: "assistant" } });
 */
export function open(state: NormalizerState, stream: OpenStream): void {
  state.lanes.set(stream.owner, stream);
  state.open[stream.kind].set(stream.id, stream);
}

/** Forgets `stream`: its lane holds nothing any more. */
function forget(state: NormalizerState, stream: OpenStream): void {
  state.lanes.delete(stream.owner);
  state.open[stream.kind].delete(stream.id);
}

/** Replaces `stream` by `next` (same lane, same id) in place: a Map keeps a key's place when its value is replaced. */
function keep(state: NormalizerState, stream: OpenStream, next: OpenStream): void {
  state.lanes.set(stream.owner, next);
  state.open[stream.kind].set(stream.id, next);
}

/**
 * The REASONING_END of a block the normalizer opened: the block's id and the opener's tag, never
 * metadata (docs/rules.md#C9).
 *
 * @example
 * blockEnd({ kind: "reasoning", id: "r1", owner: "s2", block: { id: "r1", alone: false } }, { id: "r1", alone: false })
 * // { type: "REASONING_END", messageId: "r1", subagentRunId: "s2" }
 */
export function blockEnd(stream: OpenStream, block: OwnBlock): Event {
  return { type: "REASONING_END", messageId: block.id, ...tagged(stream.owner) };
}

/**
 * `{ subagentRunId }` when there is a tag, nothing otherwise (JSON never carries an absent tag):
 * the tag member of every event the normalizer synthesizes.
 *
 * @example
 * ({ type: "TEXT_MESSAGE_END", messageId: "m1", ...tagged(undefined) }); // no subagentRunId member
 */
export function tagged(tag: string | undefined): { subagentRunId?: string } {
  return tag === undefined ? {} : { subagentRunId: tag };
}
