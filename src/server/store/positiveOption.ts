/** The one check every store option that counts or times something goes through: a positive number, or a RangeError that names the store and the option. */

/**
 * `value` if it is a positive finite number; else a RangeError naming `store` and the option.
 *
 * @example
 * positiveOption("memoryStore", "lease", 0); // throws RangeError: memoryStore: expected lease to be a positive number, but got 0
 */
export function positiveOption(store: string, name: string, value: number): number {
  if (!Number.isFinite(value) || value <= 0) throw new RangeError(`${store}: expected ${name} to be a positive number, but got ${value}`);
  return value;
}
