/**
 * Tool calls (docs/rules.md#tool-calls, docs/rules.md#R18 to docs/rules.md#R21) and their ownership (docs/rules.md#R37 to docs/rules.md#R39, docs/rules.md#R42): a call opens once at a
 * time inside the message its parentMessageId names, args and end need it open, and a result
 * mints its tool message under its own attribution.
 */
import type { EventOf } from "../../protocol/events";
import type { ProtocolError } from "../ProtocolError";
import { disagrees, reopenConflict } from "./ownership";
import { fail } from "./report";
import { alreadyOpen, continueSpan, type SpanFamily } from "./spans";
import { PARENT, describeOwner, ownerOf, ownerRecord, type RunScope } from "./VerifierState";

const TOOL_CALL: SpanFamily = {
  code: "tool-call",
  kind: "tool call",
  ownerKind: "tool call",
  reopenRule: "R18",
  unopenedRule: "R19",
  end: "TOOL_CALL_END",
};

/**
 * TOOL_CALL_START: refused while that id is open (docs/rules.md#R18), when its tag contradicts its parent
 * message's owner or the call's recorded owner (docs/rules.md#R39, docs/rules.md#R38 and kin), or when an untagged reopen
 * moves the call to a parent message of another owner (docs/rules.md#R39); else the call opens and, on first
 * sight, takes its tag's owner or, untagged, its parent message's.
 *
 * @example
 * toolCallStart(run, ev.toolCallStart("t1", "search")); // undefined, t1 open
 */
export function toolCallStart(run: RunScope, event: EventOf<"TOOL_CALL_START">): ProtocolError | undefined {
  const { toolCallId, parentMessageId, subagentRunId: tag } = event;
  const { owners } = run;
  const refused = alreadyOpen(TOOL_CALL, event, run.openToolCalls, toolCallId);
  if (refused) return refused;
  // A tool call has no owner of its own: it lives in the message its parentMessageId names (docs/rules.md#R39).
  const parent = typeof parentMessageId === "string" ? owners.message.get(parentMessageId) : undefined;
  if (parent !== undefined && disagrees(tag, parent.owner)) {
    return fail(
      "ownership",
      "R39",
      event,
      `TOOL_CALL_START ${toolCallId} attributed to ${describeOwner(ownerOf(tag))}, but its parent message ${parentMessageId} belongs to ${describeOwner(parent.owner)}; a tool call belongs to the message that holds it`,
    );
  }
  const recorded = owners.toolCall.get(toolCallId);
  const conflict = reopenConflict(event, "tool call", toolCallId, tag, recorded);
  if (conflict) return conflict;
  if (tag === undefined && parent !== undefined && recorded !== undefined && parent.owner !== recorded.owner) {
    return fail(
      "ownership",
      "R39",
      event,
      `TOOL_CALL_START reopens tool call ${toolCallId} of ${describeOwner(recorded.owner)} inside message ${parentMessageId} of ${describeOwner(parent.owner)}; expected a parent message of the same owner`,
    );
  }
  run.openToolCalls.add(toolCallId);
  if (recorded === undefined) owners.toolCall.set(toolCallId, ownerRecord(tag !== undefined ? tag : (parent?.owner ?? PARENT), "opener"));
  return undefined;
}

/**
 * TOOL_CALL_ARGS and TOOL_CALL_END: the call must be open (docs/rules.md#R19) and the tag agree with its owner
 * (docs/rules.md#R37); END closes it.
 *
 * @example
 * toolCallContinue(run, ev.toolCallArgs("t9", "{")); // ProtocolError docs/rules.md#R19 when t9 is not open
 */
export function toolCallContinue(run: RunScope, event: EventOf<"TOOL_CALL_ARGS" | "TOOL_CALL_END">): ProtocolError | undefined {
  const { toolCallId, subagentRunId: tag } = event;
  return continueSpan(TOOL_CALL, event, run.openToolCalls, run.owners.toolCall, toolCallId, tag, event.type === "TOOL_CALL_END");
}

/**
 * TOOL_CALL_RESULT never fails: it records its messageId under the result's own tag, the newest
 * result winning (docs/rules.md#R42), so a later opener of that id must agree with it.
 *
 * @example
 * toolCallResult(run, ev.toolCallResult("tm1", "t1", "ok")); // undefined
 */
export function toolCallResult(run: RunScope, event: EventOf<"TOOL_CALL_RESULT">): ProtocolError | undefined {
  run.owners.message.set(event.messageId, ownerRecord(ownerOf(event.subagentRunId), "tool-result"));
  return undefined;
}
