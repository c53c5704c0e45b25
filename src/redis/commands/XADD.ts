/**
 * XADD of a wake-up (docs/durability.md, "Redis"): the tail reader's own stream, written to when
 * it must follow another thread, so that its blocking XREAD returns and is sent again with it.
 */

/**
 * `XADD <key> MAXLEN 1 * w 1`: one entry kept (the reader only needs to know that something came).
 *
 * @example
 * wakeArguments("agui:reader:k3x9:wake"); // ["XADD", "agui:reader:k3x9:wake", "MAXLEN", "1", "*", "w", "1"]
 */
export function wakeArguments(key: string): string[] {
  return ["XADD", key, "MAXLEN", "1", "*", "w", "1"];
}
