import { DEFAULT_MAX_JSON_DEPTH, findTooDeep } from "../../src/protocol/jsonDepth";

/** An array nested `depth` levels deep, built without recursion. */
function nestedArray(depth: number): unknown {
  let value: unknown = [];
  for (let i = 1; i < depth; i++) value = [value];
  return value;
}

describe("findTooDeep", () => {
  it.each([
    ["a scalar", 42, 0],
    ["null", null, 0],
    ["an empty array at the limit", [], 1],
    ["nesting exactly at the limit", { a: [{ b: [] }] }, 4],
  ])("accepts %s", (_name, value, limit) => {
    expect(findTooDeep(value, limit)).toBeUndefined();
  });

  it.each([
    ["an array one level past the limit", [[[]]], 2, "/0/0"],
    ["an object member", { a: { b: { c: {} } } }, 3, "/a/b/c"],
    ["the first offender in document order", { x: [1, [[]]], y: [[[]]] }, 3, "/x/1/0"],
    ["a member name that needs escaping", { "a/b": { "~": [] } }, 2, "/a~1b/~0"],
    ["the value itself when the limit is 0", {}, 0, ""],
  ])("finds %s", (_name, value, limit, path) => {
    expect(findTooDeep(value, limit)).toEqual({ path, limit });
  });

  it("refuses a 100,000-deep array without overflowing the stack", () => {
    const found = findTooDeep(nestedArray(100_000));
    expect(found?.limit).toBe(DEFAULT_MAX_JSON_DEPTH);
    expect(found?.path).toBe("/0".repeat(DEFAULT_MAX_JSON_DEPTH));
  });

  it("ignores inherited members", () => {
    const value = Object.create({ inherited: [[[]]] }) as Record<string, unknown>;
    value.own = 1;
    expect(findTooDeep(value, 1)).toBeUndefined();
  });
});
