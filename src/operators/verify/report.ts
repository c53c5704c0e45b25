/**
 * How the ordering verifier words what it refuses: the ProtocolError it builds, and the short
 * listings of open items its messages name ("a, b, c and 4 more"), bounded so an error message
 * never costs more than `LISTED` items whatever is open.
 */
import type { Event } from "../../protocol/events";
import { ProtocolError, type ProtocolErrorCode } from "../ProtocolError";

/** How many open items an error message lists before it says "and N more". */
export const LISTED = 10;

/**
 * The ProtocolError for `event`, breaking rule `rule` (an id of docs/rules.md#order or docs/rules.md#chunks) of family `code`.
 *
 * @example
 * fail("text-message", "R15", event, "TEXT_MESSAGE_CONTENT for m2, but no text message m2 is open");
 */
export function fail(code: ProtocolErrorCode, rule: string, event: Event, message: string): ProtocolError {
  return new ProtocolError(code, rule, event, message);
}

/**
 * The first few items of a set, "a, b, c and 4 more"; never iterates past `LISTED`.
 *
 * @example
 * list(["m1", "m2"], 2); // "m1, m2"
 */
export function list(items: Iterable<string>, size: number): string {
  const shown: string[] = [];
  for (const item of items) {
    if (shown.length === LISTED) break;
    shown.push(item);
  }
  const rest = size - shown.length;
  return rest > 0 ? `${shown.join(", ")} and ${rest} more` : shown.join(", ");
}

/**
 * What is open, for an error message: "none open", or "open: a, b".
 *
 * @example
 * listOpen(new Set(["m1"])); // "open: m1"
 */
export function listOpen(items: ReadonlySet<string>, adjective = "open"): string {
  return items.size === 0 ? `none ${adjective}` : `${adjective}: ${list(items, items.size)}`;
}

/**
 * A value as an error message quotes it: strings in quotes, anything else as `String` has it.
 *
 * @example
 * quote("r1"); // '"r1"'
 */
export function quote(value: unknown): string {
  return typeof value === "string" ? `"${value}"` : String(value);
}

/**
 * A value of unknown shape as an error message shows it: JSON where it can be, else `String`.
 *
 * @example
 * describeValue(undefined); // "nothing"
 */
export function describeValue(value: unknown): string {
  if (value === undefined) return "nothing";
  if (typeof value === "string") return JSON.stringify(value);
  try {
    // eslint-disable-next-line @typescript-eslint/no-base-to-string -- what JSON cannot express (a function, a symbol) is described as JavaScript would
    return JSON.stringify(value) ?? String(value);
  } catch {
    // eslint-disable-next-line @typescript-eslint/no-base-to-string -- a BigInt or a cycle: JavaScript's own description is the best left
    return String(value);
  }
}
