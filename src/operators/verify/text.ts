/**
 * Text messages (RULES §1.4, R14–R16) and their ownership (R37, R38): a message opens once at a
 * time, content and end need it open, and every event of it agrees with its owner.
 */
import type { EventOf } from "../../protocol/events";
import type { ProtocolError } from "../ProtocolError";
import { checkOpener, continueSpan, type SpanFamily } from "./spans";
import { ownerOf, ownerRecord, type RunScope } from "./VerifierState";

/**
 * The text message events.
 *
 * @example
 * const event: TextEvent = ev.textMessageStart("m1");
 */
export type TextEvent = EventOf<"TEXT_MESSAGE_START" | "TEXT_MESSAGE_CONTENT" | "TEXT_MESSAGE_END">;

const TEXT: SpanFamily = {
  code: "text-message",
  kind: "text message",
  ownerKind: "text message",
  reopenRule: "R14",
  unopenedRule: "R15",
  end: "TEXT_MESSAGE_END",
};

/**
 * Checks a text message event against `run` and, only if it passes, records its effect:
 * - TEXT_MESSAGE_START is refused while that id is open (R14) or when its tag contradicts the
 *   owner recorded for the id (R38 and kin); else the message opens and, on first sight, takes
 *   its owner (first writer wins);
 * - CONTENT and END need the message open (R15) and a tag that agrees with its owner (R37); END
 *   closes it.
 *
 * @example
 * checkText(run, ev.textMessageContent("m2", "hi")); // ProtocolError R15 when m2 is not open
 */
export function checkText(run: RunScope, event: TextEvent): ProtocolError | undefined {
  const { messageId, subagentRunId: tag } = event;
  const { owners } = run;
  if (event.type !== "TEXT_MESSAGE_START") {
    return continueSpan(TEXT, event, run.openTextMessages, owners.message, messageId, tag, event.type === "TEXT_MESSAGE_END");
  }
  const refused = checkOpener(TEXT, event, run.openTextMessages, owners.message, messageId, tag);
  if (refused) return refused;
  run.openTextMessages.add(messageId);
  // An untagged reopen agrees with any owner and must not hand the id to the parent.
  if (!owners.message.has(messageId)) owners.message.set(messageId, ownerRecord(ownerOf(tag), "opener"));
  return undefined;
}
