/**
 * What closing a lane sends (docs/rules.md#chunks, docs/rules.md#C9, docs/rules.md#C10): the END of the stream open in it, followed by the
 * REASONING_END of the block the normalizer opened around a reasoning message, if any. Used by the
 * step for the ENDs other events cause, by the chunk path for the stream a new chunk replaces, and
 * by the reasoning bookkeeping for a block ended early.
 */
import type { Event } from "../../protocol/events";
import type { LaneKey, NormalizerState, OpenStream, OwnBlock } from "./NormalizerState";

/**
 * Closes the stream open in lane `key`, if any, appending its END (and its block's) to `out` (docs/rules.md#C9);
 * returns `out`.
 *
 * @example
 * const ends = closeLane(state, "s1", []); // [TEXT_MESSAGE_END(m1@s1)] while s1's lane holds m1
 */
export function closeLane(state: NormalizerState, key: LaneKey, out: Event[]): Event[] {
  const stream = state.lanes.get(key);
  if (stream !== undefined) {
    state.lanes.delete(key);
    state.open[stream.kind].delete(stream.id);
    endEvents(stream, out);
  }
  return out;
}

/**
 * Closes every open lane in lane order (docs/rules.md#C10 c) and returns their ENDs. O(open lanes).
 *
 * @example
 * closeAll(state); // [] when no lane is open
 */
export function closeAll(state: NormalizerState): Event[] {
  const out: Event[] = [];
  for (const stream of state.lanes.values()) endEvents(stream, out);
  state.lanes.clear();
  state.open.text.clear();
  state.open.tool.clear();
  state.open.reasoning.clear();
  return out;
}

/**
 * The ENDs synthesized when a stream closes (docs/rules.md#C9), appended to `out`: the id and the opener's tag,
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
    default:
      return stream.kind satisfies never;
  }
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
