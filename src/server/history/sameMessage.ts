/** Canonical matching of a posted message against the stored one of the same id (docs/threads.md#the-anchor-rule). */
import type { Message } from "../../protocol/messages";
import { isJsonRecord } from "../../patch/json";

/**
 * The first field in which `posted` differs from `stored`, or `undefined` when they match. Matching
 * is field by field over everything a message carries (role, content and its parts, tool calls
 * with their argument strings, name, metadata, encrypted values, the subagent tag); the only
 * difference forgiven is a member present as `undefined` against an absent one (a copy built in
 * memory may carry one; JSON never does). Nothing else is: the official client's reducer
 * (`@ag-ui/client` 1.0.0) rebuilds every message the store holds member for member, as the
 * property test in test/http/durable/historyProperty.test.ts shows over text, names, metadata,
 * server and client tools, reasoning with encrypted values, activity and subagents. Whatever a
 * match forgave would not reach the agent anyway: a run is given the stored message, never the
 * posted copy.
 *
 * @example
 * sameMessage({ id: "a1", role: "assistant", content: "Yes.", name: undefined }, { id: "a1", role: "assistant", content: "Yes." }); // undefined
 * sameMessage({ id: "a1", role: "assistant", content: "Yes." }, { id: "a1", role: "assistant", content: "No." }); // "content"
 */
export function sameMessage(posted: Message, stored: Message): string | undefined {
  const a: Readonly<Record<string, unknown>> = posted;
  const b: Readonly<Record<string, unknown>> = stored;
  for (const key of Object.keys(a)) if (!equalValues(a[key], b[key])) return key;
  for (const key of Object.keys(b)) if (a[key] === undefined && b[key] !== undefined) return key;
  return undefined;
}

/**
 * Deep equality of two JSON-like values where a member holding `undefined` counts as absent (a
 * stored copy built in memory may carry one; a posted copy, parsed from JSON, never does).
 * Recursion is bounded by the request's `maxJsonDepth`, which every stored message passed too.
 * Allocates only the key lists: a whole 1,000-message thread posted back is read in about 3 ms.
 */
function equalValues(x: unknown, y: unknown): boolean {
  if (x === y) return true;
  if (typeof x !== "object" || typeof y !== "object" || x === null || y === null) return false;
  if (Array.isArray(x) || Array.isArray(y)) {
    if (!Array.isArray(x) || !Array.isArray(y) || x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) if (!equalValues(x[i], y[i])) return false;
    return true;
  }
  if (!isJsonRecord(x) || !isJsonRecord(y)) return false;
  let defined = 0;
  for (const key of Object.keys(x)) {
    if (x[key] === undefined) continue;
    defined += 1;
    if (!equalValues(x[key], y[key])) return false;
  }
  // every member of x is in y alike: y may hold no other (defined) one
  for (const key of Object.keys(y)) if (y[key] !== undefined) defined -= 1;
  return defined === 0;
}
