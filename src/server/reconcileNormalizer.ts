/**
 * Keeps the run's chunk normalizer in step with what was actually sent when the verifier rejects
 * part of an expansion (RunCore.write). The normalizer commits its state when it accepts an event,
 * but the verifier may then refuse one of the events it expanded to (a chunk that opens a message
 * another owner already holds, R38): the events before it are sent, that one and the rest are
 * not, and the normalizer must not believe otherwise, or a later event would synthesize an END for
 * a stream no one opened (and the driver's closing would fail the run).
 */
import type { Event } from "../protocol/events";
import type { NormalizerState } from "../operators/normalize/normalizeStep";

/** The streams the normalizer tracks, by the event types that open and end them. */
type StreamKind = keyof NormalizerState["open"];

/**
 * Undoes, in `state`, what the unsent events `unsent` (the rejected one and those after it) did to
 * the normalizer: a START it synthesized for `input` (a chunk) is forgotten, an END it synthesized
 * re-opens its stream (lane order aside). Events that are neither change nothing.
 *
 * @example
 * const unsent = expanded.slice(rejectedIndex);
 * reconcileNormalizer(normalizer, chunk, unsent);
 */
export function reconcileNormalizer(state: NormalizerState, input: Event, unsent: readonly Event[]): void {
  const fromChunk = input.type === "TEXT_MESSAGE_CHUNK" || input.type === "TOOL_CALL_CHUNK" || input.type === "REASONING_MESSAGE_CHUNK";
  for (const event of unsent) {
    const stream = event === input ? undefined : streamOf(event); // the input itself passed through: not the normalizer's doing
    if (stream === undefined) continue;
    const owner = "subagentRunId" in event && typeof event.subagentRunId === "string" ? event.subagentRunId : undefined;
    if (stream.opens) {
      if (!fromChunk) continue; // only a chunk makes the normalizer open a stream
      const open = state.open[stream.kind].get(stream.id);
      if (open === undefined) continue;
      state.open[stream.kind].delete(stream.id);
      if (state.lanes.get(open.owner) === open) state.lanes.delete(open.owner);
    } else if (!state.open[stream.kind].has(stream.id)) {
      const reopened = { kind: stream.kind, id: stream.id, owner };
      state.open[stream.kind].set(stream.id, reopened);
      state.lanes.set(owner, reopened);
    }
  }
}

/** Which stream an event opens or ends, or `undefined` for any other event. */
function streamOf(event: Event): { kind: StreamKind; id: string; opens: boolean } | undefined {
  switch (event.type) {
    case "TEXT_MESSAGE_START":
      return { kind: "text", id: event.messageId, opens: true };
    case "TEXT_MESSAGE_END":
      return { kind: "text", id: event.messageId, opens: false };
    case "TOOL_CALL_START":
      return { kind: "tool", id: event.toolCallId, opens: true };
    case "TOOL_CALL_END":
      return { kind: "tool", id: event.toolCallId, opens: false };
    case "REASONING_MESSAGE_START":
      return { kind: "reasoning", id: event.messageId, opens: true };
    case "REASONING_MESSAGE_END":
      return { kind: "reasoning", id: event.messageId, opens: false };
    default:
      return undefined;
  }
}
