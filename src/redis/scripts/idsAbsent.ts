/**
 * The ids-absent script (docs/threads.md#redis-keys): whether none of some message ids is in the
 * kept snapshot's `ids` hash, and the kept snapshot is still the one at a sequence number. A read
 * with a limit asks it before folding a live run's entries into the snapshot's last messages only.
 */
import type { StoreScript } from "../commands/EVAL";
import { PRELUDE } from "./prelude";

/**
 * The Lua (ARGV[5…]: the kept snapshot's sequence number, then the message ids): `1` when the kept
 * snapshot is still at that sequence number and holds none of the ids, else `0`. An index a later
 * write left behind (`ids` is not pruned) counts as held: the caller then reads everything.
 *
 * @example
 * const absent = (await calls.script(port, idsAbsentScript, keys, context, ["41", "a42"])) === 1;
 */
export const idsAbsentScript: StoreScript = {
  name: "ids-absent",
  source: `${PRELUDE}
if redis.call('HGET', SNAPSHOT, 'seq') ~= ARGV[5] then return 0 end
for i = 6, #ARGV do
  if redis.call('HEXISTS', IDS, ARGV[i]) == 1 then return 0 end
end
return 1
`,
};
