/**
 * The route of each command the store sends (docs/durability.md#redis-cluster): its first key, by
 * which a Redis Cluster client picks the node of the key's slot, and whether it only reads.
 */
import type { CommandRoute } from "../RedisPort";

/** Commands whose first argument is their (only or first) key, and whether each only reads. */
const KEYED: ReadonlyMap<string, boolean> = new Map([
  ["XRANGE", true],
  ["HGET", true],
  ["LLEN", true],
  ["XADD", false],
  ["PEXPIRE", false],
  ["DEL", false],
  ["SET", false],
]);

/**
 * The route of `args`: `EVAL`/`EVALSHA` by their first key (a script without keys: none), `XREAD`
 * by its first stream, the store's one-key commands by their key, `PUBLISH` and anything else by
 * none. Scripts count as writing, whatever they do: they go to the primary.
 *
 * @example
 * commandRoute(["XRANGE", "agui:{t1}:events", "(1-0", "+", "COUNT", "10"]); // { key: "agui:{t1}:events", readOnly: true }
 * commandRoute(["PUBLISH", "agui:signals", "…"]); // { key: undefined, readOnly: false }
 */
export function commandRoute(args: readonly string[]): CommandRoute {
  const name = (args[0] ?? "").toUpperCase();
  if (name === "EVAL" || name === "EVALSHA") return { key: Number(args[2]) > 0 ? args[3] : undefined, readOnly: false };
  if (name === "XREAD") {
    const streams = args.findIndex((arg) => arg.toUpperCase() === "STREAMS");
    return { key: streams < 0 ? undefined : args[streams + 1], readOnly: true };
  }
  const readOnly = KEYED.get(name);
  return readOnly === undefined ? { key: undefined, readOnly: false } : { key: args[1], readOnly };
}
