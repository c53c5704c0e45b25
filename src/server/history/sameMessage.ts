/** Canonical matching of a posted message against the stored one of the same id (docs/threads.md#the-anchor-rule). */
import type { Message } from "../../protocol/messages";
import { isJsonRecord } from "../../patch/json";

/**
 * The first field in which `posted` differs from `stored` once both are canonical, or `undefined`
 * when they match. Matching is field by field over everything a message carries (role, content
 * and its parts, tool calls with their argument strings, name, metadata, encrypted values, the
 * subagent tag); canonical form forgives only what a faithful reducer may write differently:
 * a member present as `undefined` is absent, and an assistant message's empty `content` (`""`)
 * and empty `toolCalls` (`[]`) are absent (the official client opens a text message with `""`
 * and a tool-call holder with `[]`). Nothing else is forgiven, and nothing forgiven ever reaches
 * the agent: the run is given the stored message, never the posted copy.
 *
 * @example
 * sameMessage({ id: "a1", role: "assistant", content: "" , toolCalls: [] }, { id: "a1", role: "assistant" }); // undefined
 * sameMessage({ id: "a1", role: "assistant", content: "Yes." }, { id: "a1", role: "assistant", content: "No." }); // "content"
 */
export function sameMessage(posted: Message, stored: Message): string | undefined {
  const a = canonical(posted);
  const b = canonical(stored);
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) if (!equalValues(a[key], b[key])) return key;
  return undefined;
}

/** The message's members as a record: `undefined` members left out, and an assistant's empty content and tool calls too. */
function canonical(message: Message): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(message)) {
    if (value === undefined) continue;
    if (message.role === "assistant" && ((key === "content" && value === "") || (key === "toolCalls" && Array.isArray(value) && value.length === 0))) continue;
    out[key] = value;
  }
  return out;
}

/**
 * Deep equality of two JSON-like values where a member holding `undefined` counts as absent (a
 * stored copy built in memory may carry one; a posted copy, parsed from JSON, never does).
 * Recursion is bounded by the request's `maxJsonDepth`, which every stored message passed too.
 */
function equalValues(x: unknown, y: unknown): boolean {
  if (x === y) return true;
  if (Array.isArray(x) || Array.isArray(y)) {
    if (!Array.isArray(x) || !Array.isArray(y) || x.length !== y.length) return false;
    return x.every((item, index) => equalValues(item, y[index]));
  }
  if (!isJsonRecord(x) || !isJsonRecord(y)) return false;
  const keys = new Set([...Object.keys(x), ...Object.keys(y)]);
  for (const key of keys) if (!equalValues(x[key], y[key])) return false;
  return true;
}
