/** PEXPIRE (docs/durability.md, "Redis"): the tail reader's wake-up stream goes away with an instance that died without deleting it. */

/**
 * `PEXPIRE <key> <ms>`.
 *
 * @example
 * pexpireArguments("agui:reader:k3x9:wake", 86_400_000); // ["PEXPIRE", "agui:reader:k3x9:wake", "86400000"]
 */
export function pexpireArguments(key: string, ms: number): string[] {
  return ["PEXPIRE", key, String(ms)];
}
