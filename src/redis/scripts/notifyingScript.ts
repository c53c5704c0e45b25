/**
 * The Redis Cluster variant of the store's scripts (docs/durability.md#redis-cluster): every script
 * that logs events also announces them on the thread's sharded channel (`SPUBLISH`), named like
 * the thread's events key so that it hashes to the thread's slot (a script may only publish to its
 * own node's slots). The tail readers of every instance subscribe there instead of blocking in an
 * `XREAD`, which cannot span slots. On one server the scripts carry only the mark, a Lua comment.
 */
import type { StoreScript } from "../commands/EVAL";
import { NOTIFY_MARK } from "./prelude";

/** The announcement: the last id logged, on the channel named like the events key (`EVENTS`, the same slot). */
const NOTIFY_LUA = "redis.call('SPUBLISH', EVENTS, ids[#ids])";

const variants = new WeakMap<StoreScript, StoreScript>();

/**
 * `script` with its events announced on the thread's sharded channel; the same object for the same
 * script (so its digest is computed once), and the script itself when it logs nothing. Every
 * mark is replaced: the append script logs on its fast path and through the prelude's `log`.
 *
 * @example
 * notifyingScript(appendScript).source.includes("SPUBLISH"); // true
 */
export function notifyingScript(script: StoreScript): StoreScript {
  const known = variants.get(script);
  if (known !== undefined) return known;
  const variant = script.source.includes(NOTIFY_MARK) ? { name: script.name, source: script.source.split(NOTIFY_MARK).join(NOTIFY_LUA) } : script;
  variants.set(script, variant);
  return variant;
}
