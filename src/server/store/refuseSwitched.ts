/** The begin-time check of a switch made after the handler read the thread (docs/threads.md#the-tree): a switch logs no event, so the cursor alone cannot tell. */
import { StoreError } from "./StoreError";
import type { PathMark } from "./ThreadStore";

/**
 * Throws StoreError `history-moved` unless the thread still shows the path the handler read
 * (`expected`, `BeginOptions.expectPath`; nothing to check without one): the same count of
 * messages, ending with the same message.
 *
 * @example
 * refuseSwitched(fold.pathMark(), options.expectPath, "t1", "r7");
 */
export function refuseSwitched(current: PathMark, expected: PathMark | undefined, threadId: string, runId: string): void {
  if (expected === undefined || (expected.count === current.count && expected.lastId === current.lastId)) return;
  const message =
    `expected thread "${threadId}" to show the path the handler read (${expected.count} messages ending ${JSON.stringify(expected.lastId)}) when run "${runId}" starts, ` +
    `but another sibling was selected meanwhile (${current.count} messages ending ${JSON.stringify(current.lastId)})`;
  throw new StoreError("history-moved", message, { threadId, runId });
}
