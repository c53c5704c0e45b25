/** Waiting on a condition without sleeping: checked after each turn of the event loop, bounded in time. */

/**
 * Resolves once `condition()` holds; rejects after `limitMs` (default 30 s) with `what` in the message.
 *
 * @example
 * await until(() => store.stats().tails === 1000, "every tail follows");
 */
export async function until(condition: () => boolean, what = "the condition", limitMs = 30_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (Date.now() < deadline) {
    if (condition()) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  throw new Error(`${what} did not hold within ${limitMs} ms`);
}
