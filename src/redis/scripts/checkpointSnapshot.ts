/**
 * The checkpoint script (docs/durability.md, "Redis"; docs/threads.md#redis-keys): keeps a
 * compacted thread folded further than the one kept (a producer's at its run's end, or a reader's
 * that folded a run nobody compacted, such as one ended ABANDONED), never one folded less far,
 * rewriting its messages only from the first that changed.
 */
import { replyString, unexpectedReply } from "../replies";
import type { StoreScript } from "../commands/EVAL";
import { snapshotWriteArguments, type SnapshotWrite } from "../snapshotWrites";
import { PRELUDE } from "./prelude";

/**
 * What a checkpoint came to: `kept`, `old` (one folded as far was kept), `stale` (the kept one is
 * not the one the write builds on: send every message), `none` (no thread, or no checkpoint given).
 *
 * @example
 * const result: CheckpointResult = "kept";
 */
export type CheckpointResult = "kept" | "old" | "stale" | "none";

/**
 * The Lua of a checkpoint (ARGV[5…]: the snapshot write, `snapshotWriteArguments`).
 *
 * @example
 * await calls.script(port, checkpointScript, keys, context, snapshotWriteArguments(write));
 */
export const checkpointScript: StoreScript = {
  name: "checkpoint",
  source: `${PRELUDE}
if redis.call('EXISTS', META) == 0 then return 'none' end
local result = checkpoint(5)
if result == 'kept' then touch() end
return result
`,
};

/**
 * The checkpoint's own arguments, from ARGV[5].
 *
 * @example
 * checkpointArguments(write)[1]; // the cursor
 */
export function checkpointArguments(write: SnapshotWrite): string[] {
  return snapshotWriteArguments(write);
}

/**
 * The checkpoint's result.
 *
 * @example
 * parseCheckpointReply("kept"); // "kept"
 */
export function parseCheckpointReply(reply: unknown): CheckpointResult {
  const answer = replyString(reply, "the checkpoint script's answer");
  switch (answer) {
    case "kept":
    case "old":
    case "stale":
    case "none":
      return answer;
    default:
      throw unexpectedReply(answer, 'one of "kept", "old", "stale", "none" as the checkpoint script\'s answer');
  }
}
