/**
 * Keeps the run's chunk normalizer in step with what was actually sent when the verifier rejects
 * part of an expansion (RunCore.write). The normalizer commits its state when it accepts an event,
 * but the verifier may then refuse one of the events it expanded to (a chunk that opens a message
 * another owner already holds, docs/rules.md#R38): the events before it are sent, that one and the rest are
 * not, and the normalizer must not believe otherwise, or a later event would synthesize an END for
 * a stream no one opened (and the driver's closing would fail the run).
 */
import type { Event } from "../protocol/events";
import type { NormalizerState } from "../operators/normalize/NormalizerState";
import { clearBlocks, closeBlock, openBlock } from "../operators/normalize/blocks";
import { setBlock } from "../operators/normalize/reasoning";
import { PARENT, type Owner, type VerifierState } from "../operators/verify/VerifierState";

/** The streams the normalizer tracks, by the event types that open and end them. */
type StreamKind = keyof NormalizerState["open"];

/**
 * Undoes, in `state`, what the unsent events `unsent` (the rejected one and those after it) did to
 * the normalizer; `verifier` is the verifier's state, which holds what was sent.
 *
 * - A START the normalizer synthesized for `input` (a chunk) is forgotten; so is the block it
 *   opened around a reasoning message (docs/rules.md#R22), unless that block's REASONING_START was sent and only
 *   the message's refused: then the stream is kept as the block alone, to be ended like any other.
 * - An END it synthesized that was not sent because an earlier event was refused re-opens its
 *   stream (lane order aside), with its block if the block's REASONING_END went unsent with it. The
 *   refused END itself does not: the verifier refuses an END the normalizer synthesized (with the
 *   opener's own tag) only when its stream is no longer open on the wire.
 * - The input's own event (passed through, or mapped from THINKING_*) that was not sent leaves the
 *   reasoning blocks and owners the normalizer recorded for it as the verifier has them.
 *
 * @example
 * const unsent = expanded.slice(rejectedIndex);
 * reconcileNormalizer(normalizer, chunk, unsent, verifier);
 */
export function reconcileNormalizer(state: NormalizerState, input: Event, unsent: readonly Event[], verifier: VerifierState): void {
  const fromChunk = input.type === "TEXT_MESSAGE_CHUNK" || input.type === "TOOL_CALL_CHUNK" || input.type === "REASONING_MESSAGE_CHUNK";
  // A chunk's expansion is all the normalizer's; any other input's own event comes last, after the ENDs it caused.
  const own = fromChunk ? undefined : unsent[unsent.length - 1];
  const reopened = new Set<string>(); // reasoning streams re-opened here, so their block's END is not read again
  for (let i = 0; i < unsent.length; i++) {
    const event = unsent[i];
    if (event === own) {
      resyncReasoning(state, event, verifier);
      continue;
    }
    const stream = streamOf(event);
    if (stream === undefined) continue;
    const owner = "subagentRunId" in event && typeof event.subagentRunId === "string" ? event.subagentRunId : undefined;
    if (stream.kind === "block") {
      if (stream.opens) forgetBlockedStream(state, stream.id);
      else if (i > 0 && !reopened.has(`${owner ?? ""}\u0000${stream.id}`)) restoreBlock(state, stream.id, owner);
      continue;
    }
    if (stream.opens) {
      if (!fromChunk) continue; // only a chunk makes the normalizer open a stream
      const open = state.open[stream.kind].get(stream.id);
      if (open === undefined) continue;
      if (open.block !== undefined && !open.block.alone && !unsent.some((e) => e.type === "REASONING_START" && e.messageId === open.block?.id)) {
        setBlock(state, open, { id: open.block.id, alone: true }); // the block went out; its message did not
        continue;
      }
      state.open[stream.kind].delete(stream.id);
      if (state.lanes.get(open.owner) === open) state.lanes.delete(open.owner);
    } else if (i > 0 && !state.open[stream.kind].has(stream.id)) {
      // endEvents pairs a bracketed message's END with its block's, same tag, right after it.
      const next = unsent[i + 1];
      const blockEnd = stream.kind === "reasoning" && next !== undefined && next !== own && next.type === "REASONING_END" && (next.subagentRunId ?? undefined) === owner;
      const reopenedStream = blockEnd ? { kind: stream.kind, id: stream.id, owner, block: { id: next.messageId, alone: false } } : { kind: stream.kind, id: stream.id, owner };
      if (blockEnd) reopened.add(`${owner ?? ""}\u0000${next.messageId}`);
      state.open[stream.kind].set(stream.id, reopenedStream);
      state.lanes.set(owner, reopenedStream);
    }
  }
}

/** Which stream (or own reasoning block) an event opens or ends, or `undefined` for any other event. */
function streamOf(event: Event): { kind: StreamKind | "block"; id: string; opens: boolean } | undefined {
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
    case "REASONING_START":
      return { kind: "block", id: event.messageId, opens: true };
    case "REASONING_END":
      return { kind: "block", id: event.messageId, opens: false };
    default:
      return undefined;
  }
}

/** A synthesized REASONING_START went unsent: the stream it opened its block for was not opened either. */
function forgetBlockedStream(state: NormalizerState, blockId: string): void {
  for (const stream of state.open.reasoning.values()) {
    if (stream.block?.id !== blockId) continue;
    state.open.reasoning.delete(stream.id);
    if (state.lanes.get(stream.owner) === stream) state.lanes.delete(stream.owner);
    return;
  }
}

/**
 * A REASONING_END of the normalizer's own block went unsent (an earlier event was refused): the
 * block is still open. Its message may still be open (the block was ended early, before an explicit
 * REASONING_START of its id), or not (the stream was the block alone).
 */
function restoreBlock(state: NormalizerState, blockId: string, owner: string | undefined): void {
  const stream = state.open.reasoning.get(blockId);
  if (stream !== undefined) {
    if (stream.block === undefined && stream.owner === owner) setBlock(state, stream, { id: blockId, alone: false });
    return;
  }
  const alone = { kind: "reasoning" as const, id: blockId, owner, block: { id: blockId, alone: true } };
  state.open.reasoning.set(blockId, alone);
  state.lanes.set(owner, alone);
}

/**
 * The input's own reasoning event (or RUN_STARTED / MESSAGES_SNAPSHOT, which reset or record
 * reasoning owners) was not sent: what the normalizer recorded for it is re-read from the verifier.
 */
function resyncReasoning(state: NormalizerState, event: Event, verifier: VerifierState): void {
  const { blocks } = state;
  const spans = verifier.run.openReasoningSpans;
  const recorded = verifier.run.owners.reasoning;
  switch (event.type) {
    case "REASONING_START":
    case "REASONING_MESSAGE_START":
    case "REASONING_END": {
      const id = event.messageId;
      const record = recorded.get(id);
      if (record === undefined) blocks.owners.delete(id);
      else blocks.owners.set(id, laneOf(record.owner));
      if (event.type === "REASONING_MESSAGE_START") return;
      const open = spans.get(id);
      const ours = state.open.reasoning.get(id);
      if (event.type === "REASONING_END" && open !== undefined && !blocks.byId.has(id) && ours !== undefined && ours.block === undefined) {
        setBlock(state, ours, { id, alone: false }); // the refused REASONING_END was to end the normalizer's own block
        return;
      }
      closeBlock(blocks, id);
      if (open !== undefined && !ownBlockOpen(state, id)) openBlock(blocks, id, laneOf(open));
      return;
    }
    case "RUN_STARTED":
    case "MESSAGES_SNAPSHOT": {
      clearBlocks(blocks);
      for (const [id, record] of recorded) blocks.owners.set(id, laneOf(record.owner));
      for (const [id, owner] of spans) if (!ownBlockOpen(state, id)) openBlock(blocks, id, laneOf(owner));
      return;
    }
    default:
      return;
  }
}

/** Whether `id` names a block the normalizer itself holds open around a chunk message. */
function ownBlockOpen(state: NormalizerState, id: string): boolean {
  for (const stream of state.open.reasoning.values()) if (stream.block?.id === id) return true;
  return false;
}

/** The verifier's owner as a lane key: the parent is `undefined`. */
function laneOf(owner: Owner): string | undefined {
  return owner === PARENT ? undefined : owner;
}
