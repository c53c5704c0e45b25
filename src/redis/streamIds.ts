/** Cursors of `redisStore()` are Redis stream entry ids (docs/durability.md, "Redis"): what one looks like. */

/**
 * A stream entry id as XADD makes them, `<milliseconds>-<sequence>`, each part a decimal without
 * leading zeros of at most 19 digits (below 2^64, the most Redis takes). Stricter than Redis
 * itself (no `0`, `-`, `+` or `$` shorthands, no padding), so that any other string a client sends
 * as `Last-Event-ID` reads as a cursor this store did not make.
 */
const STREAM_ID = /^(?:0|[1-9][0-9]{0,18})-(?:0|[1-9][0-9]{0,18})$/;

/**
 * Whether `cursor` has the shape of an entry id this store makes (it may still be absent from the
 * thread's stream). Only such strings ever reach Redis as ids, so a malformed `Last-Event-ID`
 * cannot make a command fail.
 *
 * @example
 * isStreamId("1718000000000-3"); // true
 * isStreamId("1718000000000-3\n"); // false
 */
export function isStreamId(cursor: string): boolean {
  return STREAM_ID.test(cursor);
}
