/**
 * EVALSHA and EVAL, the commands every store script goes through (docs/durability.md, "Redis"):
 * a script is called by its SHA-1 digest (about 60 bytes on the wire instead of its 2–4 kB of
 * Lua, which small batches would otherwise pay per call, in the instance's CPU and Redis's), and
 * sent whole with EVAL when Redis answers NOSCRIPT (after a restart or SCRIPT FLUSH), which also
 * caches it again. Nothing of a script runs on NOSCRIPT, so re-sending it is safe; a run's
 * appends wait for each other (RedisRunWriter), so a re-sent batch never lands after a later one.
 */
import { scriptKeys, type LogKeys, type OwnerKeys, type ThreadKeys } from "../keys";
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
 * The keys a script is called with: a thread's (every thread script), an owner's index (the index
 * scripts), or a thread's stream and meta alone (the quiet append).
 *
 * @example
 * const keys: ScriptKeys = threadKeys("agui:", "t1");
 */
export type ScriptKeys = ThreadKeys | OwnerKeys | LogKeys;

function keyList(keys: ScriptKeys): readonly string[] {
  if ("active" in keys) return [keys.active, keys.archived, keys.deleted];
  if ("log" in keys) return [keys.log, keys.meta];
  return scriptKeys(keys);
}

/**
 * The arguments of `EVAL <source> 8 <the thread's keys> <context> <args>`.
 *
 * @example
 * evalArguments(stopScript, threadKeys("agui:", "t1"), context, ["r1"]);
 * // ["EVAL", "<lua>", "8", "agui:{t1}:events", …, "", "agui:signals", "t1", "604800000", "r1"]
 */
export function evalArguments(script: StoreScript, keys: ScriptKeys, context: ScriptContext, args: readonly string[]): string[] {
  const list = keyList(keys);
  return ["EVAL", script.source, String(list.length), ...list, ...contextArguments(context), ...args];
}

/**
 * The arguments of `EVALSHA <sha1> 8 <the thread's keys> <context> <args>`: the same call as
 * `evalArguments`, by the script's digest.
 *
 * @example
 * evalshaArguments("e0e1…", threadKeys("agui:", "t1"), context, ["r1"]);
 * // ["EVALSHA", "e0e1…", "8", "agui:{t1}:events", …, "r1"]
 */
export function evalshaArguments(digest: string, keys: ScriptKeys, context: ScriptContext, args: readonly string[]): string[] {
  const list = keyList(keys);
  return ["EVALSHA", digest, String(list.length), ...list, ...contextArguments(context), ...args];
}

/**
 * Whether a failed call failed because Redis does not have the script (the `NOSCRIPT` error
 * reply), judged by the message of the error or of its cause (an error from another realm, as a
 * client's reply error may be, has no `instanceof Error`).
 *
 * @example
 * isNoScript(new Error("NOSCRIPT No matching script. Please use EVAL.")); // true
 */
export function isNoScript(error: unknown): boolean {
  for (let current = error, depth = 0; typeof current === "object" && current !== null && depth < 3; depth++) {
    const message: unknown = "message" in current ? current.message : undefined;
    if (typeof message === "string" && message.startsWith("NOSCRIPT")) return true;
    current = "cause" in current ? current.cause : undefined;
  }
  return false;
}
