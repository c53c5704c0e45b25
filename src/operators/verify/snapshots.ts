/**
 * Owners a message list sets (docs/rules.md#ownership, docs/rules.md#R43, docs/rules.md#R44): a MESSAGES_SNAPSHOT replaces the recorded
 * owners of its messages, the RUN_STARTED input echo fills in those not recorded yet. STATE_* are
 * unordered (§1.11) and have no rule here.
 */
import type { EventOf } from "../../protocol/events";
import type { Message } from "../../protocol/messages";
import type { ProtocolError } from "../ProtocolError";
import { read } from "./fieldSanity";
import { ownerOf, ownerRecord, type RunScope } from "./VerifierState";

/**
 * MESSAGES_SNAPSHOT never fails: its word on every message's owner (and its tool calls') wins (docs/rules.md#R43).
 *
 * @example
 * messagesSnapshot(run, ev.messagesSnapshot([{ id: "m1", role: "assistant", subagentRunId: "s1" }])); // m1 now belongs to s1
 */
export function messagesSnapshot(run: RunScope, event: EventOf<"MESSAGES_SNAPSHOT">): ProtocolError | undefined {
  seedOwners(run, event.messages, "snapshot");
  return undefined;
}

/**
 * docs/rules.md#R43, docs/rules.md#R44: a snapshot (authoritative: replaces recorded owners) or an input echo (only for ids
 * without an owner) records each message's owner in the map of its role (reasoning, activity, or
 * text message for every other role), and the owner of its tool calls. Entries without a string
 * id (an in-process producer's) are skipped.
 *
 * @example
 * seedOwners(run, input.messages, "input");
 */
export function seedOwners(run: RunScope, messages: readonly Message[] | undefined, source: "snapshot" | "input"): void {
  if (messages === undefined || !isList(messages)) return;
  const { owners } = run;
  const authoritative = source === "snapshot";
  for (const message of messages) {
    if (typeof read(message, "id") !== "string") continue;
    const record = ownerRecord(ownerOf(message.subagentRunId), source);
    const map = message.role === "reasoning" ? owners.reasoning : message.role === "activity" ? owners.activity : owners.message;
    if (authoritative || !map.has(message.id)) map.set(message.id, record);
    if (message.role !== "assistant" || !Array.isArray(message.toolCalls)) continue;
    for (const call of message.toolCalls) {
      if (typeof read(call, "id") !== "string") continue;
      if (authoritative || !owners.toolCall.has(call.id)) owners.toolCall.set(call.id, record);
    }
  }
}

/** Whether `value` is an array, checked without narrowing a typed array to `any[]` as `Array.isArray` does. */
function isList(value: unknown): boolean {
  return Array.isArray(value);
}
