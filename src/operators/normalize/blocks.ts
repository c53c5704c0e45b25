/**
 * The reasoning blocks (REASONING_START … REASONING_END) the chunk normalizer has seen open, per
 * owner, so that a REASONING_MESSAGE_CHUNK opening a message knows whether its owner already has a
 * block to open it in (docs/rules.md#R22: a reasoning message opens only inside a block of its owner).
 * Only the explicit blocks that pass through are counted here; the block the normalizer opens
 * around a chunk message itself belongs to that stream (`OpenStream.block`).
 *
 * Owners are the verifier's (docs/rules.md#R22, docs/rules.md#R38): an event's tag when it has one, else the owner recorded
 * for its id in this run (the first opener's tag, or a MESSAGES_SNAPSHOT's word), else the parent.
 * Deciding by the lane's tag alone would leave a message the parent reopens, untagged, under an id
 * a subagent opened outside the block the verifier looks for (docs/rules.md#edge-cases row 40 makes it the
 * subagent's), and the normalizer's output must itself be valid (docs/rules.md#chunks).
 */
import type { Message } from "../../protocol/messages";

/** A lane's key, and so an owner: the subagent id, or `undefined` for the parent agent. */
type Owner = string | undefined;

/**
 * Open explicit reasoning blocks by id (with their owner) and how many each owner holds, so "does
 * this owner have one" is one lookup; and the owner recorded for each reasoning id of the run.
 * Bounded by the reasoning ids of the current run (as the verifier's owner maps are); RUN_STARTED
 * empties it.
 *
 * @example
 * const blocks = emptyBlocks();
 * openBlock(blocks, "b1", "s1");
 * hasBlock(blocks, "s1"); // true
 */
export interface ReasoningBlocks {
  readonly byId: Map<string, Owner>;
  readonly perOwner: Map<Owner, number>;
  /** The owner recorded for each reasoning id (spans and messages share it, docs/rules.md#R38). */
  readonly owners: Map<string, Owner>;
}

/**
 * Nothing open, nothing recorded.
 *
 * @example
 * emptyBlocks().byId.size; // 0
 */
export function emptyBlocks(): ReasoningBlocks {
  return { byId: new Map(), perOwner: new Map(), owners: new Map() };
}

/**
 * Whose a reasoning block or message with this id and tag is: the tag, else the recorded owner,
 * else the parent (`undefined`).
 *
 * @example
 * reasoningOwner(blocks, "r1", undefined); // "s1" once a REASONING_START r1 tagged s1 was seen
 */
export function reasoningOwner(blocks: ReasoningBlocks, id: string, tag: Owner): Owner {
  return tag !== undefined ? tag : blocks.owners.get(id);
}

/**
 * Records the owner of a reasoning opener (REASONING_START, REASONING_MESSAGE_START, explicit or
 * synthesized): the first one of the run wins, as in the verifier.
 *
 * @example
 * recordOpener(blocks, "r1", "s1");
 */
export function recordOpener(blocks: ReasoningBlocks, id: string, tag: Owner): void {
  if (!blocks.owners.has(id)) blocks.owners.set(id, tag);
}

/**
 * Records the owners of the reasoning messages of a MESSAGES_SNAPSHOT (which replaces what was
 * recorded) or of the RUN_STARTED input echo (which fills in only what was not), as the verifier
 * does (docs/rules.md#R43, docs/rules.md#R44). Values that are not messages are skipped.
 *
 * @example
 * recordMessages(blocks, snapshot.messages, true);
 */
export function recordMessages(blocks: ReasoningBlocks, messages: readonly Message[] | undefined, authoritative: boolean): void {
  if (messages === undefined || !isList(messages)) return;
  for (const message of messages) {
    if (typeof message !== "object" || message === null || message.role !== "reasoning" || typeof message.id !== "string") continue;
    if (authoritative || !blocks.owners.has(message.id)) blocks.owners.set(message.id, message.subagentRunId ?? undefined);
  }
}

/**
 * Records block `id` of `owner` as open. An id already open keeps its first owner: the second
 * REASONING_START is a violation the verifier reports (docs/rules.md#R22), and opens nothing.
 *
 * @example
 * openBlock(blocks, "b1", undefined); // the parent's block b1
 */
export function openBlock(blocks: ReasoningBlocks, id: string, owner: Owner): void {
  if (blocks.byId.has(id)) return;
  blocks.byId.set(id, owner);
  blocks.perOwner.set(owner, (blocks.perOwner.get(owner) ?? 0) + 1);
}

/**
 * Records block `id` as closed, whoever the REASONING_END names (a wrong tag is the verifier's
 * docs/rules.md#R37 to report); an id not open changes nothing.
 *
 * @example
 * closeBlock(blocks, "b1");
 */
export function closeBlock(blocks: ReasoningBlocks, id: string): void {
  if (!blocks.byId.has(id)) return;
  const owner = blocks.byId.get(id);
  blocks.byId.delete(id);
  const left = (blocks.perOwner.get(owner) ?? 1) - 1;
  if (left === 0) blocks.perOwner.delete(owner);
  else blocks.perOwner.set(owner, left);
}

/**
 * Whether `owner` has an open explicit block.
 *
 * @example
 * hasBlock(blocks, "s1"); // false until a REASONING_START of s1 passes
 */
export function hasBlock(blocks: ReasoningBlocks, owner: Owner): boolean {
  return blocks.perOwner.has(owner);
}

/**
 * Forgets every block and owner (a new run starts with none).
 *
 * @example
 * clearBlocks(blocks);
 */
export function clearBlocks(blocks: ReasoningBlocks): void {
  blocks.byId.clear();
  blocks.perOwner.clear();
  blocks.owners.clear();
}

/** Whether `value` is an array, checked without narrowing a typed array to `any[]` as `Array.isArray` does. */
function isList(value: unknown): boolean {
  return Array.isArray(value);
}
