/**
 * The bracket checks every streamed span shares (docs/rules.md#text-messages, docs/rules.md#tool-calls, docs/rules.md#reasoning): an opener for an id that is
 * already open, and a continuation (content, args, end) for an id that is not open or whose tag
 * contradicts the span's owner (docs/rules.md#R37). Text messages, tool calls and reasoning messages differ only
 * in their names, their rule ids and the set they keep open.
 */
import type { Event } from "../../protocol/events";
import type { ProtocolError, ProtocolErrorCode } from "../ProtocolError";
import { continuationConflict, reopenConflict } from "./ownership";
import { fail, listOpen } from "./report";
import type { OwnerRecord } from "./VerifierState";

/**
 * What names a span family in the checks and their messages.
 *
 * @example
 * const TEXT: SpanFamily = { code: "text-message", kind: "text message", ownerKind: "text message", reopenRule: "R14", unopenedRule: "R15", end: "TEXT_MESSAGE_END" };
 */
export interface SpanFamily {
  /** The ProtocolError code of a bracket violation. */
  readonly code: ProtocolErrorCode;
  /** How one span of the family reads in a message: "text message", "tool call", "reasoning message". */
  readonly kind: string;
  /** How the owner map of the family reads in an ownership message (reasoning blocks and messages share one: "reasoning"). */
  readonly ownerKind: string;
  /** The rule an opener of an open id breaks. */
  readonly reopenRule: string;
  /** The rule a continuation of an id that is not open breaks. */
  readonly unopenedRule: string;
  /** The event that closes a span of the family, for "expected … first". */
  readonly end: string;
  /** What a continuation of an unopened id is told it needed, appended to that message; none when absent. */
  readonly expectedOpener?: string;
}

/**
 * docs/rules.md#R14, docs/rules.md#R18, docs/rules.md#R22: the error for an opener of span `id` while that span is open, or `undefined`.
 *
 * @example
 * alreadyOpen(TEXT, event, run.openTextMessages, "m1"); // ProtocolError docs/rules.md#R14 while m1 is open
 */
export function alreadyOpen(family: SpanFamily, event: Event, open: { has(id: string): boolean }, id: string): ProtocolError | undefined {
  if (!open.has(id)) return undefined;
  return fail(family.code, family.reopenRule, event, `${event.type} for ${id}, but ${family.kind} ${id} is already open; expected ${family.end} first`);
}

/**
 * docs/rules.md#R14, docs/rules.md#R18, docs/rules.md#R22 and docs/rules.md#R38 (docs/rules.md#R42 to docs/rules.md#R44 by what recorded the owner): the error for an opener of span `id`
 * while it is open, or whose tag contradicts the owner recorded for the id; `undefined` when it
 * may open. Records nothing.
 *
 * @example
 * checkOpener(TEXT, event, run.openTextMessages, run.owners.message, "m1", "s2"); // ProtocolError docs/rules.md#R38 when m1 belongs to s1
 */
export function checkOpener(
  family: SpanFamily,
  event: Event,
  open: { has(id: string): boolean },
  owners: ReadonlyMap<string, OwnerRecord>,
  id: string,
  tag: string | undefined,
): ProtocolError | undefined {
  return alreadyOpen(family, event, open, id) ?? reopenConflict(event, family.ownerKind, id, tag, owners.get(id));
}

/**
 * docs/rules.md#R15, docs/rules.md#R19, docs/rules.md#R22 and docs/rules.md#R37: checks a continuation of span `id` (open, and its tag agrees with the
 * recorded owner) and, only if it passes and `closes` is set, removes the span from `open`.
 *
 * @example
 * continueSpan(TEXT, event, run.openTextMessages, run.owners.message, "m1", undefined, false); // undefined while m1 is open
 */
export function continueSpan(
  family: SpanFamily,
  event: Event,
  open: Set<string>,
  owners: ReadonlyMap<string, OwnerRecord>,
  id: string,
  tag: string | undefined,
  closes: boolean,
): ProtocolError | undefined {
  if (!open.has(id)) {
    const expected = family.expectedOpener === undefined ? "" : `; expected ${family.expectedOpener} first`;
    return fail(family.code, family.unopenedRule, event, `${event.type} for ${id}, but no ${family.kind} ${id} is open (${listOpen(open)})${expected}`);
  }
  const conflict = continuationConflict(event, "R37", family.ownerKind, id, tag, owners.get(id));
  if (conflict) return conflict;
  if (closes) open.delete(id);
  return undefined;
}
