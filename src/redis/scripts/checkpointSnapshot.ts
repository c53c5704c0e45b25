/**
 * The checkpoint script (docs/durability.md, "Redis"): keeps a compacted thread folded further than
 * the one kept (a producer's at its run's end, or a reader's that folded a run nobody compacted,
 * such as one ended ABANDONED), never one folded less far.
 */
import { replyString } from "../replies";
import type { StoreScript } from "../commands/EVAL";
import type { Checkpoint } from "./appendBatch";
import { PRELUDE } from "./prelude";

/**
 * The Lua of a checkpoint (ARGV[5…]: cursor, sequence number, JSON). Answers "1" when it was kept.
 *
 * @example
 * await calls.script(port, checkpointScript, keys, context, checkpointArguments(checkpoint));
 */
export const checkpointScript: StoreScript = {
  name: "checkpoint",
  source: `${PRELUDE}
if redis.call('EXISTS', META) == 0 then return '0' end
if checkpoint(ARGV[5], ARGV[6], ARGV[7]) then touch() return '1' end
return '0'
`,
};

/**
 * The checkpoint's own arguments, from ARGV[5].
 *
 * @example
 * checkpointArguments({ cursor: "1718000000000-9", seq: 9, json: "{…}" }); // ["1718000000000-9", "9", "{…}"]
 */
export function checkpointArguments(checkpoint: Checkpoint): string[] {
  return [checkpoint.cursor, String(checkpoint.seq), checkpoint.json];
}

/**
 * Whether the checkpoint was kept (a later one may already have been).
 *
 * @example
 * parseCheckpointReply("1"); // true
 */
export function parseCheckpointReply(reply: unknown): boolean {
  return replyString(reply, "the checkpoint script's answer") === "1";
}
