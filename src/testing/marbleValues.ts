/**
 * The values of a marble diagram from a list (docs/testing.md#asserting-on-updates): `a`, `b`, `c`, …
 * stand for the lines in order, so a diagram of an Update stream reads beside its `summarize` list.
 */

const LETTERS = "abcdefghijklmnopqrstuvwxyz";

/**
 * `{ a: values[0], b: values[1], … }`: at most 26 values (a diagram longer than that is clearer as
 * a list); more throws a `RangeError` saying how many were given.
 *
 * @example
 * marbleValues("assistant m1 started", "done success"); // { a: "assistant m1 started", b: "done success" }
 */
export function marbleValues<T>(...values: readonly T[]): Record<string, T> {
  if (values.length > LETTERS.length) throw new RangeError(`marbleValues: expected at most ${LETTERS.length} values (a to z), but got ${values.length}`);
  return Object.fromEntries(values.map((value, index) => [LETTERS[index], value]));
}
