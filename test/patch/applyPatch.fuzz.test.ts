/**
 * Fuzz: random JSON Patches on random documents (issue #14 D). `applyPatch` never throws, never
 * mutates its input, is atomic (a failure at operation k means the first k operations applied and
 * the k-th did not; a success equals applying the operations one at a time), and nothing reaches an
 * object prototype: a `__proto__`, `constructor` or `prototype` segment always fails the patch, and
 * every container of a result is a plain object or array.
 */
import * as fc from "fast-check";
import { isLeft, isRight } from "fp-ts/Either";
import type { JsonPatchOperation } from "../../src/protocol/common";
import { applyPatch } from "../../src/patch/apply";
import { FORBIDDEN_SEGMENTS, parsePointer } from "../../src/patch/pointer";
import { fuzzParameters } from "../support/fuzz";

const key = fc.constantFrom("a", "b", "0", "1", "-", "a/b", "~x", "__proto__", "constructor", "prototype", "");
/** JSON values, some with an own `__proto__` member as JSON.parse makes them. */
const value = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constant(null).map(() => JSON.parse('{"__proto__":{"polluted":true},"ok":1}') as unknown),
);
const doc = fc.oneof(fc.jsonValue({ maxDepth: 4 }), fc.dictionary(key, value, { maxKeys: 4, noNullPrototype: true }), fc.array(value, { maxLength: 4 }));
const pointer = fc.array(key, { maxLength: 3 }).map((tokens) => tokens.map((t) => `/${t.replace(/~/g, "~0").replace(/\//g, "~1")}`).join(""));
const operation: fc.Arbitrary<JsonPatchOperation> = fc.oneof(
  fc.record({ op: fc.constant("add" as const), path: pointer, value }),
  fc.record({ op: fc.constant("remove" as const), path: pointer }),
  fc.record({ op: fc.constant("replace" as const), path: pointer, value }),
  fc.record({ op: fc.constant("move" as const), from: pointer, path: pointer }),
  fc.record({ op: fc.constant("copy" as const), from: pointer, path: pointer }),
  fc.record({ op: fc.constant("test" as const), path: pointer, value }),
);

const forbidden = (p: string) => {
  const parsed = parsePointer(p);
  return isLeft(parsed) && [...FORBIDDEN_SEGMENTS].some((segment) => parsed.left.includes(JSON.stringify(segment)));
};
const touchesPrototype = (op: JsonPatchOperation) => forbidden(op.path) || ("from" in op && forbidden(op.from));

/** Every container in `value` is a plain object or an array (nothing with another prototype). */
function plainContainers(root: unknown): boolean {
  const stack = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node !== "object" || node === null) continue;
    const proto: unknown = Object.getPrototypeOf(node);
    if (proto !== Object.prototype && proto !== Array.prototype) return false;
    for (const child of Object.values(node)) stack.push(child);
  }
  return true;
}

test("fuzz: atomic, non-mutating, and safe against prototype pollution", () => {
  const prototypeKeys = Object.getOwnPropertyNames(Object.prototype).sort();
  fc.assert(
    fc.property(doc, fc.array(operation, { maxLength: 5 }), (document, patch) => {
      const before = JSON.stringify(document);
      let result: ReturnType<typeof applyPatch> | undefined;
      expect(() => (result = applyPatch(document, patch))).not.toThrow();
      if (result === undefined) return;
      expect(JSON.stringify(document)).toBe(before); // the input is never touched
      if (isLeft(result)) {
        const k = result.left.index;
        // atomic: the operations before k apply, the k-th fails on their result
        const prefix = applyPatch(document, patch.slice(0, k));
        expect(isRight(prefix)).toBe(true);
        if (isRight(prefix)) expect(isLeft(applyPatch(prefix.right, [patch[k]]))).toBe(true);
      } else {
        expect(patch.some(touchesPrototype)).toBe(false); // a forbidden segment never succeeds
        let stepwise: unknown = document;
        for (const op of patch) {
          const next = applyPatch(stepwise, [op]);
          expect(isRight(next)).toBe(true);
          if (isRight(next)) stepwise = next.right;
        }
        expect(JSON.stringify(result.right)).toBe(JSON.stringify(stepwise));
        expect(plainContainers(result.right)).toBe(true);
      }
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeKeys);
    }),
    fuzzParameters(1000),
  );
});
