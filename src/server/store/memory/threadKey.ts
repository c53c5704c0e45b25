/** How the memory store keys a thread by (owner, thread id) (docs/threads.md#owners): one string per pair, never one for two. */

/**
 * The memory store's key of thread `threadId` of `owner` (`undefined`: a thread without an owner).
 * Unambiguous: an owned key spells the owner's length before the owner, so where the owner ends
 * is never a guess ("a:b" + "c" and "a" + "b:c" differ), and an ownerless key starts with a
 * character an owned one never does.
 *
 * @example
 * threadKey("alice", "t1"); // "5:alice/t1"
 * threadKey(undefined, "t1"); // "-t1"
 */
export function threadKey(owner: string | undefined, threadId: string): string {
  return owner === undefined ? `-${threadId}` : `${owner.length}:${owner}/${threadId}`;
}
