/**
 * The ownership checks every entity kind shares (docs/rules.md#R37 to docs/rules.md#R44): an opener that contradicts the owner
 * recorded for its id, and a continuation that contradicts the owner of what it continues. An
 * absent tag never contradicts anything.
 */
import type { Event } from "../../protocol/events";
import type { ProtocolError } from "../ProtocolError";
import { describeOwner, ownerOf, type Owner, type OwnerRecord, type OwnerSource } from "./VerifierState";
import { fail } from "./report";

/**
 * Whether a tag contradicts a recorded owner. An absent tag never disagrees; the parent is an
 * owner too, so any tag disagrees with it.
 *
 * @example
 * disagrees(undefined, "s1"); // false
 * disagrees("s2", "s1"); // true
 */
export function disagrees(tag: string | undefined, recorded: Owner): boolean {
  return tag !== undefined && recorded !== tag;
}

/** The rule an opener breaks when it contradicts an owner, by what recorded that owner. */
const REOPEN_RULE: { readonly [S in OwnerSource]: string } = {
  opener: "R38",
  "tool-result": "R42",
  snapshot: "R43",
  input: "R44",
  "activity-snapshot": "R41",
};

const SOURCE_LABEL: { readonly [S in OwnerSource]: string } = {
  opener: "its first opener",
  "tool-result": "a TOOL_CALL_RESULT",
  snapshot: "a MESSAGES_SNAPSHOT",
  input: "the RUN_STARTED input",
  "activity-snapshot": "an ACTIVITY_SNAPSHOT",
};

/**
 * docs/rules.md#R38, docs/rules.md#R42 to docs/rules.md#R44: an opener whose tag differs from the owner recorded for its id in this run (the rule
 * named after what recorded it), or `undefined`.
 *
 * @example
 * reopenConflict(event, "text message", "m1", "s2", { owner: "s1", source: "opener" }); // ProtocolError docs/rules.md#R38
 */
export function reopenConflict(event: Event, kind: string, id: string, tag: string | undefined, recorded: OwnerRecord | undefined): ProtocolError | undefined {
  if (recorded === undefined || !disagrees(tag, recorded.owner)) return undefined;
  return fail(
    "ownership",
    REOPEN_RULE[recorded.source],
    event,
    `${event.type} opens ${kind} ${id} for ${describeOwner(ownerOf(tag))}, but ${kind} ${id} belongs to ${describeOwner(recorded.owner)} in this run (recorded by ${SOURCE_LABEL[recorded.source]}); expected that subagentRunId or none`,
  );
}

/**
 * docs/rules.md#R37, docs/rules.md#R40, docs/rules.md#R41: a continuation whose tag differs from the owner of the entity it continues, or `undefined`.
 *
 * @example
 * continuationConflict(event, "R37", "text message", "m1", "s2", { owner: "s1", source: "opener" }); // ProtocolError docs/rules.md#R37
 */
export function continuationConflict(
  event: Event,
  rule: string,
  kind: string,
  id: string,
  tag: string | undefined,
  recorded: OwnerRecord | undefined,
): ProtocolError | undefined {
  if (recorded === undefined || !disagrees(tag, recorded.owner)) return undefined;
  return fail(
    "ownership",
    rule,
    event,
    `${event.type} for ${kind} ${id} attributed to ${describeOwner(ownerOf(tag))}, but ${kind} ${id} belongs to ${describeOwner(recorded.owner)}; expected that subagentRunId or none`,
  );
}
