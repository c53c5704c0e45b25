/**
 * An Update stream as a list (docs/testing.md#asserting-on-updates): what a test compares with
 * any runner's deep equality once the exchange is over.
 */
import { firstValueFrom, toArray, type Observable } from "rxjs";
import type { Update } from "../thread/Update";

/**
 * Subscribes to `updates$` (a `send`, `resume` or `connect` stream) and resolves with every update
 * once it completes; a `Session`'s streams always complete, with exactly one `done` last. Rejects
 * with the stream's error, for a stream that can error. Cold as its source: nothing runs before
 * the call.
 *
 * @example
 * const updates = await collectUpdates(session.send("Ada"));
 * assert.deepEqual(summarize(updates).at(-1), "done success");
 */
export function collectUpdates<S>(updates$: Observable<Update<S>>): Promise<Update<S>[]> {
  return firstValueFrom(updates$.pipe(toArray()));
}
