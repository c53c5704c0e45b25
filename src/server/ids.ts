/** Where the runtime gets the ids it mints (messages, tool calls, results, subagents, interrupts). */

/**
 * A function returning a fresh id on every call.
 *
 * @example
 * run(agent, input, { ids: sequentialIds("test") });
 */
export type IdSource = () => string;

/**
 * The default id source: `crypto.randomUUID()` (Web Crypto, present in browsers, Node ≥ 19 and
 * edge runtimes), so every id is unique across runs and threads.
 *
 * @example
 * randomIds(); // "3b241101-e2bb-4255-8caf-4136c566a962"
 */
export const randomIds: IdSource = () => globalThis.crypto.randomUUID();

/**
 * A deterministic id source for tests and fixtures: `prefix-1`, `prefix-2`, … Each call of
 * `sequentialIds` starts its own counter.
 *
 * @example
 * const ids = sequentialIds("id");
 * ids(); // "id-1"
 * ids(); // "id-2"
 */
export function sequentialIds(prefix = "id"): IdSource {
  let next = 0;
  return () => `${prefix}-${++next}`;
}
