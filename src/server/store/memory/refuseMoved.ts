/** The memory store's `beginRun` check of `expectCursor` (docs/durability.md#stores-and-routes): the thread must still be where the handler read it. */
import { StoreError } from "../StoreError";
import type { Cursor } from "../ThreadStore";

/**
 * Throws `StoreError` `history-moved` unless the thread's last cursor `current` (`null`: no such
 * thread) is the `expected` one the handler read (`undefined`: nothing expected, anything goes).
 *
 * @example
 * refuseMoved(thread.log.lastCursor, options.expectCursor, threadId, runId); // throws when another run moved it
 */
export function refuseMoved(current: Cursor | null, expected: Cursor | null | undefined, threadId: string, runId: string): void {
  if (expected === undefined || expected === current) return;
  const want = expected === null ? "to be new" : `to be at cursor ${JSON.stringify(expected)}`;
  const found = current === null ? "the caller has no such thread" : `it is at ${JSON.stringify(current)}`;
  const message = `expected thread "${threadId}" ${want} when run "${runId}" starts (as the handler read it), but ${found}: it changed meanwhile`;
  throw new StoreError("history-moved", message, { threadId, runId });
}
