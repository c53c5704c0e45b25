/**
 * Reading Redis replies without casts (docs/durability.md, "Redis"): a reply arrives as `unknown`
 * from the port, and each reader here checks one shape, or throws a StoreError `unavailable` that
 * says what was expected and what arrived (a reply of another shape is a server or protocol
 * surprise, never a caller's mistake).
 */
import { StoreError } from "../server/store/StoreError";

/**
 * The reply as an array.
 *
 * @example
 * replyArray(["a", "b"], "XRANGE"); // ["a", "b"]
 */
export function replyArray(reply: unknown, what: string): readonly unknown[] {
  if (Array.isArray(reply)) return reply;
  throw unexpectedReply(reply, `an array as the reply of ${what}`);
}

/**
 * The reply as a string (a bulk or simple string).
 *
 * @example
 * replyString("ok", "a script's status"); // "ok"
 */
export function replyString(reply: unknown, what: string): string {
  if (typeof reply === "string") return reply;
  throw unexpectedReply(reply, `a string as ${what}`);
}

/**
 * The reply as a string, or `undefined` for a nil reply.
 *
 * @example
 * optionalString(null, "a cursor"); // undefined
 */
export function optionalString(reply: unknown, what: string): string | undefined {
  if (reply === null || reply === undefined) return undefined;
  return replyString(reply, what);
}

/**
 * A decimal string reply (Lua scripts return numbers as strings here) as a finite number.
 *
 * @example
 * replyNumber("250", "the lease's remaining milliseconds"); // 250
 */
export function replyNumber(reply: unknown, what: string): number {
  const value = typeof reply === "number" ? reply : Number(replyString(reply, what));
  if (Number.isFinite(value)) return value;
  throw unexpectedReply(reply, `a number as ${what}`);
}

/**
 * The error for a reply that is not what was expected (`expected` is a phrase: "an array as …").
 *
 * @example
 * throw unexpectedReply("maybe", 'one of "ok", "retry" as the begin script's status');
 */
export function unexpectedReply(reply: unknown, expected: string): StoreError {
  return new StoreError("unavailable", `expected ${expected}, but Redis answered ${excerpt(reply)}`);
}

function excerpt(reply: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(reply) ?? String(reply);
  } catch {
    text = String(reply); // a reply JSON cannot spell (a cycle, a BigInt): its string form is excerpt enough
  }
  return text.length > 120 ? `${text.slice(0, 120)}…` : text;
}
