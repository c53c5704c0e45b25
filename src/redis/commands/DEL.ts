/** DEL (docs/durability.md, "Redis"): a closing store removes its tail reader's wake-up stream. */

/**
 * `DEL <key>`.
 *
 * @example
 * delArguments("agui:reader:k3x9:wake"); // ["DEL", "agui:reader:k3x9:wake"]
 */
export function delArguments(key: string): string[] {
  return ["DEL", key];
}
