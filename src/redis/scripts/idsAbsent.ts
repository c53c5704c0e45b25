/**
 * The ids-absent script (docs/threads.md#redis-keys): whether none of some message ids and tool
 * call ids is in the kept snapshot's `ids` hash, and the kept snapshot is still the one at a
 * sequence number. A read with a limit asks it before folding a live run's entries into the
 * snapshot's last messages only.
 */
import type { StoreScript } from "../commands/EVAL";
import { PRELUDE } from "./prelude";

/**
 * The Lua (ARGV[5…]: the kept snapshot's sequence number, the number of message ids, the message
 * ids, then the tool call ids): `1` when the kept snapshot is still at that sequence number and
 * holds none of the ids, else `0`. An index a later write left behind (`ids` is not pruned) counts
 * as held: the caller then reads everything. Tool call ids are looked up as `tc:` fields, and only
 * in a hash marked `tc-indexed` (written whole since tool calls were indexed): in an older one
 * their absence proves nothing, so any tool call id answers `0`.
 *
 * @example
 * const absent = (await calls.script(port, idsAbsentScript, keys, context, ["41", "1", "a42", "call7"])) === 1;
 */
export const idsAbsentScript: StoreScript = {
  name: "ids-absent",
  source: `${PRELUDE}
if redis.call('HGET', SNAPSHOT, 'seq') ~= ARGV[5] then return 0 end
local calls_from = 7 + tonumber(ARGV[6])
if calls_from <= #ARGV and redis.call('HGET', IDS, 'tc-indexed') ~= '-1' then return 0 end
for i = 7, #ARGV do
  local field = ARGV[i]
  if i >= calls_from then field = 'tc:' .. field end
  if redis.call('HEXISTS', IDS, field) == 1 then return 0 end
end
return 1
`,
};

/**
 * The ids-absent script's arguments after the context: the kept snapshot's sequence number, then
 * the message ids and the tool call ids to prove absent before the window.
 *
 * @example
 * idsAbsentArguments(41, ["a42"], ["call7"]); // ["41", "1", "a42", "call7"]
 */
export function idsAbsentArguments(seq: number, messages: readonly string[], calls: readonly string[]): string[] {
  return [String(seq), String(messages.length), ...messages, ...calls];
}
