/** The run's starting state with a store (docs/threads.md#state): the client's copy when it sent one, else the stored state. */
import { isJsonRecord, jsonEqual } from "../../patch/json";

/**
 * The state a run starts from, and whether it is an edit the log must record. A posted state of
 * `undefined`, `null` or `{}` is "no copy" (a fresh official client posts `{}`): the stored state
 * is used (none on a new thread: the post's own stays). Any other value is the user's copy,
 * possibly edited: it is the starting state, and `record` says whether it differs from the stored
 * one (then a reload must show it).
 *
 * @example
 * startingState({}, { count: 2 }, true); // { state: { count: 2 }, record: false }
 * startingState({ count: 3 }, { count: 2 }, true); // { state: { count: 3 }, record: true }
 */
export function startingState(posted: unknown, stored: unknown, threadExists: boolean): { readonly state: unknown; readonly record: boolean } {
  const noCopy = posted === undefined || posted === null || (isJsonRecord(posted) && Object.keys(posted).length === 0);
  if (noCopy) return { state: threadExists && stored !== null ? stored : posted, record: false };
  return { state: posted, record: !threadExists || !jsonEqual(posted, stored) };
}
