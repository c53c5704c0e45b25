/**
 * EVAL, the one command every store script goes through (docs/durability.md, "Redis"). EVAL and
 * not EVALSHA: Redis caches the compiled script by its digest either way, and a script never goes
 * missing (no NOSCRIPT after a restart or SCRIPT FLUSH), so a run's batches, sent without waiting
 * for each other, can never be re-sent out of order.
 */
import { scriptKeys, type ThreadKeys } from "../keys";
import { contextArguments, type ScriptContext } from "../scripts/prelude";

/**
 * A store script: a name for messages and its whole Lua source (the prelude included).
 *
 * @example
 * const script: StoreScript = { name: "stop", source: PRELUDE + "return 'unknown'" };
 */
export interface StoreScript {
  readonly name: string;
  readonly source: string;
}

/**
 * The arguments of `EVAL <source> 5 <the thread's keys> <context> <args>`.
 *
 * @example
 * evalArguments(stopScript, threadKeys("agui:", "t1"), context, ["r1"]);
 * // ["EVAL", "<lua>", "5", "agui:{t1}:events", …, "", "agui:signals", "t1", "604800000", "r1"]
 */
export function evalArguments(script: StoreScript, keys: ThreadKeys, context: ScriptContext, args: readonly string[]): string[] {
  const keyList = scriptKeys(keys);
  return ["EVAL", script.source, String(keyList.length), ...keyList, ...contextArguments(context), ...args];
}
