/** How a typed shared state is read from the wire: a codec plus the value "no state yet" means. */
import * as t from "io-ts";

/**
 * The shared state's type on both ends: `codec` decodes the wire value into `S`, and
 * `defaultValue` stands for "no state yet" (`null`, absent or `{}` on the wire, docs/seeds.md#seed-000).
 */
export interface StateSpec<S> {
  readonly codec: t.Type<S, unknown, unknown>;
  readonly defaultValue: S;
}

/**
 * Makes a StateSpec from an io-ts codec and the default value.
 *
 * @example
 * const Board = t.type({ tasks: t.array(t.string) });
 * const board = stateSpec(Board, { tasks: [] });
 */
export function stateSpec<S>(codec: t.Type<S, unknown, unknown>, defaultValue: S): StateSpec<S> {
  return { codec, defaultValue };
}

/** True for the wire values that mean "no state yet": absent, `null` and the empty object. */
export function isEmptyState(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value !== "object" || Array.isArray(value)) return false;
  for (const _ in value) return false;
  return true;
}
