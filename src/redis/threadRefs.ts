/**
 * How the Redis store names a thread inside itself (docs/threads.md#redis-keys): in its scripts'
 * context (`ARGV[3]`), so in the stop and end signals, and in its tails and lease checks. An
 * ownerless thread is named by its id, as before owners (instances of both versions agree); an
 * owner's thread by the JSON pair `["<owner>","<threadId>"]`, so that two owners' threads of one
 * id are told apart. The keys never come from a name: the store passes them along.
 */

/**
 * The name of `threadId` of `owner`.
 *
 * @example
 * threadRef("t1", "ann"); // '["ann","t1"]'
 * threadRef("t1", undefined); // "t1"
 */
export function threadRef(threadId: string, owner: string | undefined): string {
  return owner === undefined ? threadId : JSON.stringify([owner, threadId]);
}
