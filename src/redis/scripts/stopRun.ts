/**
 * The stop script (docs/durability.md, "Redis"): a stop request for a live run is kept in the
 * thread's meta hash (read back by the producer's every append and renewal) and announced on the
 * signal channel (the producer's instance hears it at once). Ends an expired run ABANDONED first.
 */
import type { StopAnswer } from "../../server/store/ThreadStore";
import { replyString, unexpectedReply } from "../replies";
import type { StoreScript } from "../commands/EVAL";
import { PRELUDE } from "./prelude";

/**
 * The Lua of `stop` (ARGV[5]: runId). Answers "stopping", "ended" or "unknown" (StopAnswer).
 *
 * @example
 * parseStopReply(await calls.script(port, stopScript, keys, context, ["r1"])); // "stopping"
 */
export const stopScript: StoreScript = {
  name: "stop",
  source: `${PRELUDE}
local run_id = ARGV[5]
if redis.call('EXISTS', META) == 0 then return 'unknown' end
abandon_if_due()
if redis.call('HGET', META, 'live') == run_id then
  redis.call('HSET', META, 'stop', run_id)
  signal('stop', run_id)
  return 'stopping'
end
for _, run in ipairs(redis.call('LRANGE', RUNS, 0, -1)) do
  if string.sub(run, string.find(run, ' ', 1, true) + 1) == run_id then return 'ended' end
end
return 'unknown'
`,
};

/**
 * The stop script's reply as a StopAnswer.
 *
 * @example
 * parseStopReply("ended"); // "ended"
 */
export function parseStopReply(reply: unknown): StopAnswer {
  const answer = replyString(reply, "the stop script's answer");
  switch (answer) {
    case "stopping":
    case "ended":
    case "unknown":
      return answer;
    default:
      throw unexpectedReply(answer, 'one of "stopping", "ended", "unknown" as the stop script\'s answer');
  }
}
