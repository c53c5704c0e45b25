/**
 * Text messages (docs/rules.md#text-messages, docs/rules.md#R14 to docs/rules.md#R16) and their ownership (docs/rules.md#R37, docs/rules.md#R38): a message opens once at a
 * time, content and end need it open, and every event of it agrees with its owner.
 */
import type { EventOf } from "../../protocol/events";
import type { ProtocolError } from "../ProtocolError";
import { checkOpener, continueSpan, type SpanFamily } from "./spans";
import { ownerOf, ownerRecord, type RunScope } from "./VerifierState";

const TEXT: SpanFamily = {
  code: "text-message",
  kind: "text message",
  ownerKind: "text message",
  reopenRule: "R14",
  unopenedRule: "R15",
  end: "TEXT_MESSAGE_END",
};

/**
 * TEXT_MESSAGE_START: refused while that id is open (docs/rules.md#R14) or when its tag contradicts the owner
 * recorded for the id (docs/rules.md#R38 and kin); else the message opens and, on first sight, takes its owner.
 *
 * @example
 * textMessageStart(run, ev.textMessageStart("m1")); // undefined, m1 open
 */
export function textMessageStart(run: RunScope, event: EventOf<"TEXT_MESSAGE_START">): ProtocolError | undefined {
  const { messageId, subagentRunId: tag } = event;
  const { owners } = run;
  const refused = checkOpener(TEXT, event, run.openTextMessages, owners.message, messageId, tag);
  if (refused) return refused;
  run.openTextMessages.add(messageId);
  // First writer wins: an untagged reopen agrees with any owner and must not hand the id to the parent.
  if (!owners.message.has(messageId)) owners.message.set(messageId, ownerRecord(ownerOf(tag), "opener"));
  return undefined;
}

/**
 * TEXT_MESSAGE_CONTENT and TEXT_MESSAGE_END: the message must be open (docs/rules.md#R15) and the tag agree with
 * its owner (docs/rules.md#R37); END closes it.
 *
 * @example
 * textMessageContinue(run, ev.textMessageContent("m2", "hi")); // ProtocolError docs/rules.md#R15 when m2 is not open
 */
export function textMessageContinue(run: RunScope, event: EventOf<"TEXT_MESSAGE_CONTENT" | "TEXT_MESSAGE_END">): ProtocolError | undefined {
  const { messageId, subagentRunId: tag } = event;
  return continueSpan(TEXT, event, run.openTextMessages, run.owners.message, messageId, tag, event.type === "TEXT_MESSAGE_END");
}
