/**
 * The chunk normalizer's share of docs/rules.md#R22 (a reasoning message opens only inside a reasoning
 * block of its owner), kept apart from the lane bookkeeping (`expandChunk.ts`, `closeLane.ts`):
 *
 * - which block, if any, a chunk's new reasoning message needs of its own (`blockFor`): the
 *   normalizer then opens it before the message and closes it right after (`OpenStream.block`);
 * - what the explicit reasoning events that pass through do to the blocks it knows
 *   (`explicitReasoning`), including when they name a block it opened itself.
 */
import type { Event } from "../../protocol/events";
import { closeBlock, hasBlock, openBlock, reasoningOwner, recordOpener } from "./blocks";
import { blockEnd } from "./closeLane";
import type { NormalizerState, OpenStream, OwnBlock } from "./NormalizerState";

/**
 * The block a reasoning message `id`, opened by a chunk in lane `key`, needs of its own, or
 * `undefined` when its owner (the verifier's: the tag, else the id's recorded owner) already has an
 * explicit block open, which it then opens in. The block is named after the message, unless an
 * explicit block of that id (another owner's, which a MESSAGES_SNAPSHOT can make so) is open:
 * then `newId` names it. Records the message's owner as its opener; call once the chunk is accepted.
 *
 * @example
 * blockFor(state, "r1", "s1"); // { id: "r1", alone: false } while s1 has no REASONING_START open
 */
export function blockFor(scope: NormalizerState, id: string, key: string | undefined): OwnBlock | undefined {
  const { blocks } = scope;
  const owner = reasoningOwner(blocks, id, key);
  recordOpener(blocks, id, key);
  if (hasBlock(blocks, owner)) return undefined;
  return { id: blocks.byId.has(id) ? scope.newId() : id, alone: false };
}

/**
 * What an explicit (or THINKING-mapped) REASONING_START, REASONING_MESSAGE_START or REASONING_END
 * does, after its own lane was closed (docs/rules.md#C10 b); an END it needs first is appended to `out`.
 *
 * - REASONING_START opens a block of its owner and, like REASONING_MESSAGE_START, records its id's
 *   owner if none is yet (docs/rules.md#R38). If it names a block the normalizer opened around a chunk message in
 *   another lane, that block is ended first (its REASONING_END goes to `out`) and the message goes
 *   on without it: only opening needs a block, and a second REASONING_START of an open id would be
 *   refused (docs/rules.md#R22).
 * - REASONING_END closes the explicit block of its id; if it names a block the normalizer opened
 *   (with a tag that does not contradict that block's owner), that block is what it ends, and the
 *   normalizer will not end it again.
 *
 * @example
 * const out: Event[] = [];
 * explicitReasoning(state, ev.reasoningStart("b1"), out); // out stays [] unless b1 is a block the normalizer opened
 */
export function explicitReasoning(scope: NormalizerState, event: Event, out: Event[]): void {
  const { blocks } = scope;
  switch (event.type) {
    case "REASONING_START": {
      const { messageId } = event;
      const tag = event.subagentRunId ?? undefined;
      const ours = ownBlockNamed(scope, messageId);
      if (ours?.block !== undefined) {
        out.push(blockEnd(ours, ours.block));
        setBlock(scope, ours, undefined);
      }
      const owner = reasoningOwner(blocks, messageId, tag);
      recordOpener(blocks, messageId, tag);
      openBlock(blocks, messageId, owner);
      return;
    }
    case "REASONING_MESSAGE_START":
      recordOpener(blocks, event.messageId, event.subagentRunId ?? undefined);
      return;
    case "REASONING_END": {
      const { messageId } = event;
      const tag = event.subagentRunId ?? undefined;
      const ours = blocks.byId.has(messageId) ? undefined : ownBlockNamed(scope, messageId);
      if (ours !== undefined && (tag === undefined || tag === reasoningOwner(blocks, ours.id, ours.owner))) {
        setBlock(scope, ours, undefined); // the verifier ends our block with this REASONING_END
      }
      closeBlock(blocks, messageId);
      return;
    }
    default:
      return;
  }
}

/**
 * The open chunk message whose own block is named `id`, if any. Looked up by message id: a block
 * is named after its message except in the rare case `blockFor` mints a name, which no producer
 * can know in advance.
 *
 * @example
 * ownBlockNamed(state, "r1"); // the stream r1, if it opened with a block of its own
 */
export function ownBlockNamed(scope: NormalizerState, id: string): OpenStream | undefined {
  const stream = scope.open.reasoning.get(id);
  return stream?.block?.id === id ? stream : undefined;
}

/**
 * Replaces `stream` (open in its lane) by the same stream with `block`; a stream that was only a
 * block (`alone`) and loses it is gone. Lane order is kept: a Map keeps a key's place when its
 * value is replaced.
 *
 * @example
 * setBlock(state, stream, { id: stream.id, alone: true }); // the server's verifier refused the message's start, not the block's
 */
export function setBlock(scope: NormalizerState, stream: OpenStream, block: OwnBlock | undefined): void {
  if (block === undefined && stream.block?.alone === true) {
    scope.open.reasoning.delete(stream.id);
    if (scope.lanes.get(stream.owner) === stream) scope.lanes.delete(stream.owner);
    return;
  }
  const { kind, id, owner, fields } = stream;
  const base: OpenStream = fields === undefined ? { kind, id, owner } : { kind, id, owner, fields };
  const next: OpenStream = block === undefined ? base : { ...base, block };
  scope.open.reasoning.set(id, next);
  if (scope.lanes.get(owner) === stream) scope.lanes.set(owner, next);
}
