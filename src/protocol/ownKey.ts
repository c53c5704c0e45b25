/** This library's own key in the places AG-UI leaves to implementations (`metadata`, `forwardedProps`): reading it, and adding to it beside what is there. */
import { CAPABILITIES_KEY } from "./historyCapability";

/**
 * The object under our key (`"agui-rx"`) of `value`, or `undefined` when `value` is not an object
 * or holds no object there.
 *
 * @example
 * ownKeyOf({ "agui-rx": { forkAfter: "a1" } }); // { forkAfter: "a1" }
 */
export function ownKeyOf(value: unknown): Record<string, unknown> | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const own: unknown = (value as Record<string, unknown>)[CAPABILITIES_KEY];
  return typeof own === "object" && own !== null && !Array.isArray(own) ? (own as Record<string, unknown>) : undefined;
}

/**
 * `value` (an object; anything else counts as `{}`) with `entries` added under our key, beside the
 * entries already there and the object's other members.
 *
 * @example
 * withOwnEntries({ model: "x" }, { whileRunning: "queue" }); // { model: "x", "agui-rx": { whileRunning: "queue" } }
 */
export function withOwnEntries(value: unknown, entries: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const base = typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  return { ...base, [CAPABILITIES_KEY]: { ...ownKeyOf(base), ...entries } };
}

/**
 * `value` without our key's entry `name` (our key left out when nothing else is under it); `value`
 * itself when it has no such entry.
 *
 * @example
 * withoutOwnEntry({ model: "x", "agui-rx": { whileRunning: "queue" } }, "whileRunning"); // { model: "x" }
 */
export function withoutOwnEntry(value: unknown, name: string): unknown {
  const own = ownKeyOf(value);
  if (own === undefined || !(name in own)) return value;
  const { [name]: _dropped, ...rest } = own;
  const { [CAPABILITIES_KEY]: _own, ...others } = value as Record<string, unknown>;
  return Object.keys(rest).length === 0 ? others : { ...others, [CAPABILITIES_KEY]: rest };
}

/**
 * The list under our key's entry `name` of `value`, keeping the members `is` accepts (malformed ones
 * are left out), or `undefined` when there is no list there.
 *
 * @example
 * ownListOf(event.metadata, "queue", QueuedMessage.is); // the prelude's waiting messages
 */
export function ownListOf<T>(value: unknown, name: string, is: (member: unknown) => member is T): readonly T[] | undefined {
  const list = ownKeyOf(value)?.[name];
  return Array.isArray(list) ? list.filter(is) : undefined;
}
