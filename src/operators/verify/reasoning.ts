/**
 * Reasoning (docs/rules.md#reasoning, docs/rules.md#R22): blocks (REASONING_START … REASONING_END) and reasoning messages
 * (REASONING_MESSAGE_START … END) are bracketed like any span, each in its own namespace (one id
 * may name both), and a message opens only inside an open block of its owner; their ownership
 * follows docs/rules.md#R37 and docs/rules.md#R38, an encrypted value's docs/rules.md#R40.
 */
import type { EventOf } from "../../protocol/events";
import type { ProtocolError } from "../ProtocolError";
import { continuationConflict } from "./ownership";
import { fail, list } from "./report";
import { checkOpener, continueSpan, type SpanFamily } from "./spans";
import { PARENT, describeOwner, ownerOf, ownerRecord, type Owner, type OwnerRecord, type RunScope } from "./VerifierState";

const REASONING_BLOCK: SpanFamily = {
  code: "reasoning",
  kind: "reasoning span",
  ownerKind: "reasoning",
  reopenRule: "R22",
  unopenedRule: "R22",
  end: "REASONING_END",
};

const REASONING_MESSAGE: SpanFamily = {
  code: "reasoning",
  kind: "reasoning message",
  ownerKind: "reasoning",
  reopenRule: "R22",
  unopenedRule: "R22",
  end: "REASONING_MESSAGE_END",
  expectedOpener: "REASONING_MESSAGE_START",
};

/**
 * The reasoning events: those whose order docs/rules.md#R22 rules, and REASONING_ENCRYPTED_VALUE, which opens
 * and closes nothing (only docs/rules.md#R40 applies).
 *
 * @example
 * const event: ReasoningEvent = ev.reasoningStart("b1");
 */
export type ReasoningEvent = EventOf<
  "REASONING_START" | "REASONING_MESSAGE_START" | "REASONING_MESSAGE_CONTENT" | "REASONING_MESSAGE_END" | "REASONING_END" | "REASONING_ENCRYPTED_VALUE"
>;

/**
 * Checks a reasoning event against `run` and, only if it passes, records its effect there (as
 * `verifyStep` does for every event: a refused event changes nothing).
 *
 * @example
 * checkReasoning(run, ev.reasoningMessageStart("m1")); // ProtocolError docs/rules.md#R22 while the parent has no block open
 */
export function checkReasoning(run: RunScope, event: ReasoningEvent): ProtocolError | undefined {
  const { owners } = run;
  switch (event.type) {
    case "REASONING_START":
    case "REASONING_MESSAGE_START": {
      // Both openers: not already open in their namespace, no contradicted owner (docs/rules.md#R38); the owner decides the block (docs/rules.md#R22).
      const { messageId, subagentRunId: tag } = event;
      const isBlock = event.type === "REASONING_START";
      const refused = isBlock
        ? checkOpener(REASONING_BLOCK, event, run.openReasoningSpans, owners.reasoning, messageId, tag)
        : checkOpener(REASONING_MESSAGE, event, run.openReasoningMessages, owners.reasoning, messageId, tag);
      if (refused) return refused;
      const recorded = owners.reasoning.get(messageId);
      const owner = reasoningOwner(tag, recorded);
      if (isBlock) {
        run.openReasoningSpans.set(messageId, owner);
        run.openReasoningBlocksByOwner.set(owner, (run.openReasoningBlocksByOwner.get(owner) ?? 0) + 1);
      } else if (!run.openReasoningBlocksByOwner.has(owner)) {
        return fail(
          "reasoning",
          "R22",
          event,
          `REASONING_MESSAGE_START for ${messageId} from ${describeOwner(owner)}, but ${describeOwner(owner)} has no open reasoning block (${listBlocks(run)}); expected REASONING_START first: a reasoning message opens inside a reasoning block of its owner`,
        );
      } else run.openReasoningMessages.add(messageId);
      if (recorded === undefined) owners.reasoning.set(messageId, ownerRecord(ownerOf(tag), "opener"));
      return undefined;
    }
    case "REASONING_MESSAGE_CONTENT":
    case "REASONING_MESSAGE_END": {
      const { messageId, subagentRunId: tag } = event;
      return continueSpan(REASONING_MESSAGE, event, run.openReasoningMessages, owners.reasoning, messageId, tag, event.type === "REASONING_MESSAGE_END");
    }
    case "REASONING_END": {
      const { messageId, subagentRunId: tag } = event;
      const owner = run.openReasoningSpans.get(messageId);
      if (owner === undefined) {
        const open = run.openReasoningSpans.size === 0 ? "none open" : `open: ${list(run.openReasoningSpans.keys(), run.openReasoningSpans.size)}`;
        return fail(
          "reasoning",
          "R22",
          event,
          `REASONING_END for ${messageId}, but no reasoning span ${messageId} is open (${open}); expected REASONING_START first`,
        );
      }
      const conflict = continuationConflict(event, "R37", "reasoning", messageId, tag, owners.reasoning.get(messageId));
      if (conflict) return conflict;
      run.openReasoningSpans.delete(messageId);
      const left = (run.openReasoningBlocksByOwner.get(owner) ?? 1) - 1;
      if (left === 0) run.openReasoningBlocksByOwner.delete(owner);
      else run.openReasoningBlocksByOwner.set(owner, left);
      return undefined;
    }
    case "REASONING_ENCRYPTED_VALUE":
      return encryptedValue(run, event);
    default:
      event satisfies never; // every ReasoningEvent type has its case
      return undefined;
  }
}

/**
 * REASONING_ENCRYPTED_VALUE opens and closes nothing; its tag agrees with the owner of the entity
 * its subtype names (docs/rules.md#R40): a tool call's, a text message's (else the reasoning's of that id), or,
 * for any other subtype, the reasoning's.
 */
function encryptedValue(run: RunScope, event: EventOf<"REASONING_ENCRYPTED_VALUE">): ProtocolError | undefined {
  const { entityId, subtype, subagentRunId: tag } = event;
  const { owners } = run;
  const kind = subtype === "tool-call" ? "tool call" : subtype === "message" ? "message" : "reasoning";
  const recorded =
    subtype === "tool-call"
      ? owners.toolCall.get(entityId)
      : subtype === "message"
        ? (owners.message.get(entityId) ?? owners.reasoning.get(entityId))
        : owners.reasoning.get(entityId);
  return continuationConflict(event, "R40", kind, entityId, tag, recorded);
}

/**
 * Whose a reasoning block or message is, for docs/rules.md#R22's "a message opens inside a block of its owner":
 * the tag when there is one (docs/rules.md#R38 has already refused one that contradicts the record), else the
 * owner recorded for the id (docs/rules.md#edge-cases row 40: an untagged message opened under a subagent's
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
