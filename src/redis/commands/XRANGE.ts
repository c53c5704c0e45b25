/**
 * XRANGE, as the store pages through a thread's stream (docs/durability.md, "Redis"): the entries
 * after a cursor (exclusive, `(` syntax of Redis 6.2+), up to an end, a page at a time.
 */

/**
 * `XRANGE <key> (<after> <end> COUNT <count>`: up to `count` entries after `after` (exclusive) through
 * `end` (inclusive; `+` for the stream's end).
 *
 * @example
 * xrangeArguments("agui:{t1}:events", "1718000000000-4", "+", 1000);
 * // ["XRANGE", "agui:{t1}:events", "(1718000000000-4", "+", "COUNT", "1000"]
 */
export function xrangeArguments(key: string, after: string, end: string, count: number): string[] {
  return ["XRANGE", key, `(${after}`, end, "COUNT", String(count)];
}

/**
 * `XRANGE <key> <cursor> <cursor>`: the one entry at `cursor`, if the stream still has it.
 *
 * @example
 * xrangeAtArguments("agui:{t1}:events", "1718000000000-4"); // ["XRANGE", "agui:{t1}:events", "1718000000000-4", "1718000000000-4"]
 */
export function xrangeAtArguments(key: string, cursor: string): string[] {
  return ["XRANGE", key, cursor, cursor];
}
