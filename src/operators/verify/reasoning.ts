/**
 * R22, reasoning: blocks (REASONING_START … REASONING_END) and reasoning messages (REASONING_MESSAGE_START
 * … END) are bracketed like any span, each in its own namespace (one id may name both), and a
 * message opens only inside an open block of its owner; their ownership follows R37 and R38.
 */
import type { EventOf } from "../../protocol/events";
import type { ProtocolError } from "../ProtocolError";
import { continuationConflict, reopenConflict } from "./ownership";
import { fail, list, listOpen } from "./report";
import { PARENT, describeOwner, ownerOf, ownerRecord, type Owner, type OwnerRecord, type RunScope } from "./VerifierState";

/**
 * The reasoning events whose order R22 rules (REASONING_ENCRYPTED_VALUE opens and closes nothing: only R40 applies).
 *
 * @example
 * const event: ReasoningEvent = ev.reasoningStart("b1");
 */
export type ReasoningEvent = EventOf<"REASONING_START" | "REASONING_MESSAGE_START" | "REASONING_MESSAGE_CONTENT" | "REASONING_MESSAGE_END" | "REASONING_END">;

/**
 * Checks a reasoning event against `run` and, only if it passes, records its effect there (as
 * `verifyStep` does for every event: a refused event changes nothing).
 *
 * @example
 * checkReasoning(run, ev.reasoningMessageStart("m1")); // ProtocolError R22 while the parent has no block open
 */
export function checkReasoning(run: RunScope, event: ReasoningEvent): ProtocolError | undefined {
  const { owners } = run;
  switch (event.type) {
    case "REASONING_START": {
      const { messageId, subagentRunId: tag } = event;
      if (run.openReasoningSpans.has(messageId)) {
        return fail("reasoning", "R22", event, `REASONING_START for ${messageId}, but reasoning span ${messageId} is already open; expected REASONING_END first`);
      }
      const recorded = owners.reasoning.get(messageId);
      const conflict = reopenConflict(event, "reasoning", messageId, tag, recorded);
      if (conflict) return conflict;
      const owner = reasoningOwner(tag, recorded);
      run.openReasoningSpans.set(messageId, owner);
      run.openReasoningBlocksByOwner.set(owner, (run.openReasoningBlocksByOwner.get(owner) ?? 0) + 1);
      if (recorded === undefined) owners.reasoning.set(messageId, ownerRecord(ownerOf(tag), "opener"));
      return undefined;
    }
    case "REASONING_MESSAGE_START": {
      const { messageId, subagentRunId: tag } = event;
      if (run.openReasoningMessages.has(messageId)) {
        return fail(
          "reasoning",
          "R22",
          event,
          `REASONING_MESSAGE_START for ${messageId}, but reasoning message ${messageId} is already open; expected REASONING_MESSAGE_END first`,
        );
      }
      const recorded = owners.reasoning.get(messageId);
      const conflict = reopenConflict(event, "reasoning", messageId, tag, recorded);
      if (conflict) return conflict;
      const owner = reasoningOwner(tag, recorded);
      if (!run.openReasoningBlocksByOwner.has(owner)) {
        return fail(
          "reasoning",
          "R22",
          event,
          `REASONING_MESSAGE_START for ${messageId} from ${describeOwner(owner)}, but ${describeOwner(owner)} has no open reasoning block (${listBlocks(run)}); expected REASONING_START first: a reasoning message opens inside a reasoning block of its owner`,
        );
      }
      run.openReasoningMessages.add(messageId);
      if (recorded === undefined) owners.reasoning.set(messageId, ownerRecord(ownerOf(tag), "opener"));
      return undefined;
    }
    case "REASONING_MESSAGE_CONTENT":
    case "REASONING_MESSAGE_END": {
      const { messageId, subagentRunId: tag } = event;
      if (!run.openReasoningMessages.has(messageId)) {
        return fail(
          "reasoning",
          "R22",
          event,
          `${event.type} for ${messageId}, but no reasoning message ${messageId} is open (${listOpen(run.openReasoningMessages)}); expected REASONING_MESSAGE_START first`,
        );
      }
      const conflict = continuationConflict(event, "R37", "reasoning", messageId, tag, owners.reasoning.get(messageId));
      if (conflict) return conflict;
      if (event.type === "REASONING_MESSAGE_END") run.openReasoningMessages.delete(messageId);
      return undefined;
    }
    case "REASONING_END": {
      const { messageId, subagentRunId: tag } = event;
      const owner = run.openReasoningSpans.get(messageId);
      if (owner === undefined) {
        const open = run.openReasoningSpans.size === 0 ? "none open" : `open: ${list(run.openReasoningSpans.keys(), run.openReasoningSpans.size)}`;
        return fail("reasoning", "R22", event, `REASONING_END for ${messageId}, but no reasoning span ${messageId} is open (${open}); expected REASONING_START first`);
      }
      const conflict = continuationConflict(event, "R37", "reasoning", messageId, tag, owners.reasoning.get(messageId));
      if (conflict) return conflict;
      run.openReasoningSpans.delete(messageId);
      const left = (run.openReasoningBlocksByOwner.get(owner) ?? 1) - 1;
      if (left === 0) run.openReasoningBlocksByOwner.delete(owner);
      else run.openReasoningBlocksByOwner.set(owner, left);
      return undefined;
    }
  }
}

/**
 * Whose a reasoning block or message is, for R22's "a message opens inside a block of its owner":
 * the tag when there is one (R38 has already refused one that contradicts the record), else the
 * owner recorded for the id (RULES §8 row 40: an untagged message opened under a subagent's
 * reasoning id is that subagent's), else the parent.
 */
function reasoningOwner(tag: string | undefined, recorded: OwnerRecord | undefined): Owner {
  return tag !== undefined ? tag : (recorded?.owner ?? PARENT);
}

/** Open reasoning blocks as "id (owner)", at most `LISTED` of them. */
function listBlocks(run: RunScope): string {
  if (run.openReasoningSpans.size === 0) return "no reasoning block is open";
  return `open: ${list(blockLabels(run), run.openReasoningSpans.size)}`;
}

function* blockLabels(run: RunScope): Generator<string> {
  for (const [id, owner] of run.openReasoningSpans) yield `${id} (${describeOwner(owner)})`;
}
