/**
 * The scripts of an owner's thread index (docs/threads.md#redis-keys): sorted sets of thread ids
 * by `updatedAt` under the owner's own hash tag, written after the thread's own scripts (another
 * slot, so never in the same script) and repaired when they disagree with the thread. Each takes
 * the three `OwnerKeys` and the common context arguments (`ARGV[1]` the lease clock's now or "",
 * `ARGV[3]` the thread id, `ARGV[4]` the TTL).
 */
import { replyArray, replyNumber, replyString } from "../replies";
import type { StoreScript } from "../commands/EVAL";
import { CLOCK_LUA } from "./prelude";

const INDEX_PRELUDE = `
local ACTIVE, ARCHIVED, DELETED = KEYS[1], KEYS[2], KEYS[3]
local THREAD, TTL = ARGV[3], tonumber(ARGV[4])
${CLOCK_LUA}local function touch()
  redis.call('PEXPIRE', ACTIVE, TTL)
  redis.call('PEXPIRE', ARCHIVED, TTL)
  redis.call('PEXPIRE', DELETED, TTL)
end
`;

/**
 * The Lua of an index write (ARGV[5…]: the thread's `updatedAt`, "1" when archived): the thread
 * goes into the set its archived flag names, at its `updatedAt` — unless it was deleted less than
 * its tombstone's time ago (a late write of a run that was racing the delete). Answers "1" or "0".
 *
 * @example
 * await calls.script(port, indexUpsertScript, ownerKeys("agui:", "ann"), context, ["1718000000000", "0"]);
 */
export const indexUpsertScript: StoreScript = {
  name: "index-upsert",
  source: `${INDEX_PRELUDE}
redis.call('ZREMRANGEBYSCORE', DELETED, '-inf', NOW)
if redis.call('ZSCORE', DELETED, THREAD) then return '0' end
if ARGV[6] == '1' then
  redis.call('ZREM', ACTIVE, THREAD)
  redis.call('ZADD', ARCHIVED, ARGV[5], THREAD)
else
  redis.call('ZREM', ARCHIVED, THREAD)
  redis.call('ZADD', ACTIVE, ARGV[5], THREAD)
end
touch()
return '1'
`,
};

/**
 * The Lua of a deletion's index write (ARGV[5]: until when, on the lease clock, no write may add it again).
 *
 * @example
 * await calls.script(port, indexDropScript, ownerKeys("agui:", "ann"), context, ["1718000060000"]);
 */
export const indexDropScript: StoreScript = {
  name: "index-drop",
  source: `${INDEX_PRELUDE}
redis.call('ZREM', ACTIVE, THREAD)
redis.call('ZREM', ARCHIVED, THREAD)
redis.call('ZREMRANGEBYSCORE', DELETED, '-inf', NOW)
redis.call('ZADD', DELETED, ARGV[5], THREAD)
touch()
return '1'
`,
};

/**
 * The Lua of a repair (ARGV[5…]: "1" for the archived set, the score the entry was seen at): an
 * entry whose thread is gone leaves the index, unless a write moved it since it was seen (the
 * thread was made again meanwhile).
 *
 * @example
 * await calls.script(port, indexForgetScript, ownerKeys("agui:", "ann"), context, ["0", "1718000000000"]);
 */
export const indexForgetScript: StoreScript = {
  name: "index-forget",
  source: `${INDEX_PRELUDE}
local key = ACTIVE
if ARGV[5] == '1' then key = ARCHIVED end
local score = redis.call('ZSCORE', key, THREAD)
if score and tonumber(score) == tonumber(ARGV[6]) then redis.call('ZREM', key, THREAD) end
return '1'
`,
};

/**
 * The Lua of one page of the index (ARGV[5…]: "1" for the archived set, the cursor's score or ""
 * for the first page, the cursor's thread id, how many): thread ids and scores, flat, by score
 * descending and, at equal scores, by thread id ascending, strictly after the cursor. Each score
 * is read as a group (one ZRANGE per distinct score on the page), so ties order alike on every page.
 *
 * @example
 * parseIndexPage(await calls.script(port, indexPageScript, ownerKeys("agui:", "ann"), context, ["0", "", "", "21"]));
 */
export const indexPageScript: StoreScript = {
  name: "index-page",
  source: `${INDEX_PRELUDE}
local key = ACTIVE
if ARGV[5] == '1' then key = ARCHIVED end
local after_score, after_id, limit = ARGV[6], ARGV[7], tonumber(ARGV[8])
local out = {}
local function add(id, score)
  if #out < 2 * limit then
    out[#out + 1] = id
    out[#out + 1] = score
  end
end
local below = '+inf'
if after_score ~= '' then
  for _, id in ipairs(redis.call('ZRANGE', key, after_score, after_score, 'BYSCORE')) do
    if id > after_id then add(id, after_score) end
  end
  below = '(' .. after_score
end
while #out < 2 * limit do
  local top = redis.call('ZRANGE', key, below, '-inf', 'BYSCORE', 'REV', 'LIMIT', 0, 1, 'WITHSCORES')
  if #top == 0 then break end
  for _, id in ipairs(redis.call('ZRANGE', key, top[2], top[2], 'BYSCORE')) do add(id, top[2]) end
  below = '(' .. top[2]
end
return out
`,
};

/**
 * One entry of an index page.
 *
 * @example
 * const entry: IndexEntry = { threadId: "t1", score: 1718000000000 };
 */
export interface IndexEntry {
  readonly threadId: string;
  readonly score: number;
}

/**
 * The page script's reply as entries.
 *
 * @example
 * parseIndexPage(["t1", "5"]); // [{ threadId: "t1", score: 5 }]
 */
export function parseIndexPage(reply: unknown): IndexEntry[] {
  const flat = replyArray(reply, "the index page script");
  const out: IndexEntry[] = [];
  for (let i = 0; i + 1 < flat.length; i += 2)
    out.push({ threadId: replyString(flat[i], "an indexed thread id"), score: replyNumber(flat[i + 1], "an indexed thread's score") });
  return out;
}
