import { isLeft, isRight, type Either } from "fp-ts/Either";
import * as fc from "fast-check";
import * as rfc6902 from "rfc6902";
import { applyPatch } from "../../src/patch/apply";
import { PatchError } from "../../src/patch/PatchError";
import type { JsonPatchOperation } from "../../src/protocol/common";

// eslint-disable-next-line @typescript-eslint/no-unsafe-return -- a JSON copy of a JSON value has the original's type
const copy = <T>(value: T): T => JSON.parse(JSON.stringify(value));

function ok<T>(result: Either<PatchError, T>): T {
  if (isLeft(result)) throw new Error(`expected success, got ${result.left.message}`);
  return result.right;
}

function failure<T>(result: Either<PatchError, T>): PatchError {
  if (isRight(result)) throw new Error(`expected a failure, got ${JSON.stringify(result.right)}`);
  return result.left;
}

describe("applyPatch: the six operations (RFC 6902 §4 and appendix A)", () => {
  test.each<[string, unknown, JsonPatchOperation[], unknown]>([
    ["add a member", { a: 1 }, [{ op: "add", path: "/b", value: 2 }], { a: 1, b: 2 }],
    ["add replaces an existing member", { a: 1 }, [{ op: "add", path: "/a", value: [1] }], { a: [1] }],
    ["add inserts into an array", { a: [1, 3] }, [{ op: "add", path: "/a/1", value: 2 }], { a: [1, 2, 3] }],
    ["add at the array's length appends", { a: [1] }, [{ op: "add", path: "/a/1", value: 2 }], { a: [1, 2] }],
    ["add with - appends", { a: [1] }, [{ op: "add", path: "/a/-", value: { x: 2 } }], { a: [1, { x: 2 }] }],
    ["add at the root replaces the document", { a: 1 }, [{ op: "add", path: "", value: [true] }], [true]],
    ["add a member named by an empty string", {}, [{ op: "add", path: "/", value: 1 }], { "": 1 }],
    ["add with escaped segments", { "a/b": {} }, [{ op: "add", path: "/a~1b/~0", value: null }], { "a/b": { "~": null } }],
    ["remove a member", { a: 1, b: 2 }, [{ op: "remove", path: "/a" }], { b: 2 }],
    ["remove an array element", { a: [1, 2, 3] }, [{ op: "remove", path: "/a/1" }], { a: [1, 3] }],
    ["replace a member", { a: 1 }, [{ op: "replace", path: "/a", value: "x" }], { a: "x" }],
    ["replace an element", [1, 2], [{ op: "replace", path: "/1", value: 5 }], [1, 5]],
    ["replace the root", { a: 1 }, [{ op: "replace", path: "", value: 7 }], 7],
    ["move a member", { a: { b: 1 }, c: {} }, [{ op: "move", from: "/a/b", path: "/c/d" }], { a: {}, c: { d: 1 } }],
    ["move an element within an array", { a: [1, 2, 3, 4] }, [{ op: "move", from: "/a/1", path: "/a/3" }], { a: [1, 3, 4, 2] }],
    ["move to the same place is a no-op", { a: 1 }, [{ op: "move", from: "/a", path: "/a" }], { a: 1 }],
    ["copy a subtree", { a: { b: [1] } }, [{ op: "copy", from: "/a", path: "/c" }], { a: { b: [1] }, c: { b: [1] } }],
    [
      "test passes on deep equality, member order aside",
      { a: { x: [1, { y: 2 }], z: null } },
      [{ op: "test", path: "/a", value: { z: null, x: [1, { y: 2 }] } }],
      { a: { x: [1, { y: 2 }], z: null } },
    ],
    ["test on the root", [1], [{ op: "test", path: "", value: [1] }], [1]],
    [
      "ops see the effects of earlier ops",
      {},
      [
        { op: "add", path: "/a", value: [] },
        { op: "add", path: "/a/-", value: 1 },
        { op: "add", path: "/a/0", value: 0 },
        { op: "replace", path: "/a/1", value: 2 },
        { op: "test", path: "/a", value: [0, 2] },
      ],
      { a: [0, 2] },
    ],
    ["an empty patch returns the same document", { a: 1 }, [], { a: 1 }],
  ])("%s", (_name, document, patch, expected) => {
    const before = copy(document);
    expect(ok(applyPatch(document, patch))).toEqual(expected);
    expect(document).toEqual(before);
  });

  test.each<[string, unknown, JsonPatchOperation[], number, string, RegExp]>([
    [
      "replace a missing path",
      { a: 1 },
      [{ op: "replace", path: "/missing/deeply", value: 1 }],
      0,
      "/missing/deeply",
      /^operation 0 \(replace\) failed: replace at \/missing\/deeply: no member "missing"$/,
    ],
    ["replace a missing member (replace needs a target)", { a: 1 }, [{ op: "replace", path: "/b", value: 1 }], 0, "/b", /no member "b"/],
    ["remove a missing member", { a: 1 }, [{ op: "remove", path: "/b" }], 0, "/b", /no member "b"/],
    ["remove the document", { a: 1 }, [{ op: "remove", path: "" }], 0, "", /the document itself cannot be removed/],
    ["remove past the end", { a: [1] }, [{ op: "remove", path: "/a/1" }], 0, "/a/1", /index 1 is out of range \(array length 1\)/],
    ["remove with -", { a: [1] }, [{ op: "remove", path: "/a/-" }], 0, "/a/-", /"-" names no existing element/],
    ["replace with -", { a: [1] }, [{ op: "replace", path: "/a/-", value: 2 }], 0, "/a/-", /"-" names no existing element/],
    ["add past the end", { a: [1] }, [{ op: "add", path: "/a/2", value: 2 }], 0, "/a/2", /index 2 is out of range/],
    ["a leading zero", { a: [1, 2] }, [{ op: "add", path: "/a/01", value: 2 }], 0, "/a/01", /"01" is not an array index/],
    ["a non-numeric array index", { a: [1] }, [{ op: "add", path: "/a/x", value: 2 }], 0, "/a/x", /"x" is not an array index/],
    ["a negative index", { a: [1] }, [{ op: "remove", path: "/a/-1" }], 0, "/a/-1", /"-1" is not an array index/],
    ["going into a number", { a: 1 }, [{ op: "add", path: "/a/b", value: 2 }], 0, "/a/b", /cannot look up "b": the value at \/a is a number/],
    ["going into null", { a: null }, [{ op: "test", path: "/a/b", value: 2 }], 0, "/a/b", /the value at \/a is null/],
    ["a root that is not a container", 5, [{ op: "add", path: "/a", value: 1 }], 0, "/a", /the value at "" is a number/],
    ["add without a parent", {}, [{ op: "add", path: "/a/b", value: 1 }], 0, "/a/b", /no member "a"/],
    ["test fails", { a: [1, 2] }, [{ op: "test", path: "/a", value: [2, 1] }], 0, "/a", /expected \[2,1\], found \[1,2\]/],
    ["test of a missing member", { a: 1 }, [{ op: "test", path: "/b", value: null }], 0, "/b", /no member "b"/],
    ["move from a missing member (the error names from)", { a: 1 }, [{ op: "move", from: "/x", path: "/y" }], 0, "/x", /no member "x"/],
    ["copy from a missing member", { a: 1 }, [{ op: "copy", from: "/x/0", path: "/y" }], 0, "/x/0", /no member "x"/],
    ["move into its own child", { a: { b: {} } }, [{ op: "move", from: "/a", path: "/a/b/c" }], 0, "/a/b/c", /into one of its own children/],
    ["move to a bad destination", { a: 1 }, [{ op: "move", from: "/a", path: "/b/c" }], 0, "/b/c", /no member "b"/],
    ["a malformed pointer", { a: 1 }, [{ op: "add", path: "a", value: 1 }], 0, "a", /must be "" or start with "\/"/],
    ["a bad escape", { a: 1 }, [{ op: "add", path: "/~2", value: 1 }], 0, "/~2", /not followed by "0" or "1"/],
    [
      "the failing op's index",
      { a: 1 },
      [
        { op: "test", path: "/a", value: 1 },
        { op: "remove", path: "/a" },
        { op: "remove", path: "/a" },
      ],
      2,
      "/a",
      /no member "a"/,
    ],
  ])("%s", (_name, document, patch, index, path, reason) => {
    const before = copy(document);
    const error = failure(applyPatch(document, patch));
    expect(error).toBeInstanceOf(PatchError);
    expect(error.index).toBe(index);
    expect(error.operation).toBe(patch[index]);
    expect(error.path).toBe(path);
    expect(error.message).toMatch(reason);
    expect(document).toEqual(before);
  });

  test("an operation without a value is an error, not an insertion of undefined", () => {
    const patch = JSON.parse('[{"op":"add","path":"/a"}]');
    // eslint-disable-next-line @typescript-eslint/no-unsafe-argument -- a malformed operation, as a peer could send it
    expect(failure(applyPatch({}, patch)).reason).toBe("the operation has no value");
  });
});

describe("applyPatch: all or nothing", () => {
  test("a failure midway returns Left and leaves the input exactly as it was", () => {
    const document = { a: { b: 1, list: [1, 2] }, c: { d: "x" } };
    const before = copy(document);
    const { a, c } = document;
    const list = document.a.list;
    const error = failure(
      applyPatch(document, [
        { op: "replace", path: "/a/b", value: 2 },
        { op: "add", path: "/a/list/-", value: 3 },
        { op: "remove", path: "/c/d" },
        { op: "replace", path: "/missing/deeply", value: 1 },
        { op: "add", path: "/never", value: 1 },
      ]),
    );
    expect(error.index).toBe(3);
    expect(document).toEqual(before);
    expect(document.a).toBe(a);
    expect(document.c).toBe(c);
    expect(document.a.list).toBe(list);
  });
});

describe("applyPatch: structural sharing", () => {
  test("a change on /a/b copies /a and the root and keeps /c and /a/x", () => {
    const document = { a: { b: 1, x: { deep: [1] } }, c: { d: [1, 2] } };
    const before = copy(document);
    const after = ok(applyPatch(document, [{ op: "replace", path: "/a/b", value: 2 }]));
    expect(after).toEqual({ a: { b: 2, x: { deep: [1] } }, c: { d: [1, 2] } });
    expect(after).not.toBe(document);
    expect(after.a).not.toBe(document.a);
    expect(after.c).toBe(document.c);
    expect(after.a.x).toBe(document.a.x);
    expect(document).toEqual(before);
  });

  test("a push into a 100,000-element array shares every existing element", () => {
    const items = Array.from({ length: 100_000 }, (_, i) => ({ id: i }));
    const document = { items, other: { k: 1 } };
    const after = ok(applyPatch(document, [{ op: "add", path: "/items/-", value: { id: -1 } }]));
    expect(after.items).toHaveLength(100_001);
    expect(document.items).toHaveLength(100_000);
    expect(after.items[99_999]).toBe(items[99_999]);
    expect(after.items[0]).toBe(items[0]);
    expect(after.items[100_000]).toEqual({ id: -1 });
    expect(after.other).toBe(document.other);
  });

  test("several operations under one container edit the same copy", () => {
    const document = { a: { list: [0] }, b: {} };
    const after = ok(
      applyPatch(document, [
        { op: "add", path: "/a/list/-", value: 1 },
        { op: "add", path: "/a/list/-", value: 2 },
        { op: "add", path: "/a/n", value: 1 },
      ]),
    );
    expect(after).toEqual({ a: { list: [0, 1, 2], n: 1 }, b: {} });
    expect(document).toEqual({ a: { list: [0] }, b: {} });
    expect(after.b).toBe(document.b);
  });

  test("each container on a changed path is copied once per patch, however many ops touch it", () => {
    let copies = 0;
    const a = new Proxy(
      { x: 1, y: 2 },
      {
        ownKeys: (target) => (copies++, Reflect.ownKeys(target)), // object spread lists the keys once per copy
      },
    );
    const after = ok(
      applyPatch({ a }, [
        { op: "replace", path: "/a/x", value: 10 },
        { op: "add", path: "/a/z", value: 3 },
        { op: "remove", path: "/a/y" },
      ]),
    );
    expect(after).toEqual({ a: { x: 10, z: 3 } });
    expect(copies).toBe(1);
  });

  test("inserted values do not alias the patch", () => {
    const value = { nested: { n: 1 }, list: [{ m: 1 }] };
    const patch: JsonPatchOperation[] = [
      { op: "add", path: "/v", value },
      { op: "replace", path: "/w", value },
    ];
    const after = ok(applyPatch<Record<string, typeof value>>({ w: value }, patch));
    expect(after.v).toEqual(value);
    expect(after.v).not.toBe(value);
    expect(after.w.nested).not.toBe(value.nested);
    value.nested.n = 99;
    value.list.push({ m: 2 });
    expect(after).toEqual({ v: { nested: { n: 1 }, list: [{ m: 1 }] }, w: { nested: { n: 1 }, list: [{ m: 1 }] } });
  });

  test("a copy made in this patch and then edited does not change its source", () => {
    const after = ok(
      applyPatch({}, [
        { op: "add", path: "/a", value: { n: 1, inner: { k: 1 } } },
        { op: "copy", from: "/a", path: "/b" },
        { op: "replace", path: "/b/n", value: 2 },
        { op: "replace", path: "/b/inner/k", value: 2 },
        { op: "replace", path: "/a/inner/k", value: 3 },
      ]),
    );
    expect(after).toEqual({ a: { n: 1, inner: { k: 3 } }, b: { n: 2, inner: { k: 2 } } });
  });

  test("a copy of an input subtree, edited, leaves the input and the source alone", () => {
    const document = { a: { n: 1 } };
    const after = ok(
      applyPatch<Record<string, { n: number }>>(document, [
        { op: "copy", from: "/a", path: "/b" },
        { op: "replace", path: "/b/n", value: 2 },
      ]),
    );
    expect(after).toEqual({ a: { n: 1 }, b: { n: 2 } });
    expect(after.a).toBe(document.a);
    expect(document).toEqual({ a: { n: 1 } });
  });
});

describe("applyPatch: prototype pollution", () => {
  afterEach(() => {
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty("polluted");
  });

  test.each<[JsonPatchOperation, string]>([
    [{ op: "add", path: "/__proto__/polluted", value: 1 }, "__proto__"],
    [{ op: "add", path: "/constructor/prototype/polluted", value: 1 }, "constructor"],
    [{ op: "replace", path: "/a/__proto__", value: { polluted: 1 } }, "__proto__"],
    [{ op: "add", path: "/prototype", value: 1 }, "prototype"],
    [{ op: "copy", from: "/a", path: "/__proto__" }, "__proto__"],
    [{ op: "move", from: "/__proto__", path: "/x" }, "__proto__"],
    [{ op: "test", path: "/constructor", value: 1 }, "constructor"],
  ])("%j is rejected, naming %s", (operation, segment) => {
    const error = failure(applyPatch({ a: {} }, [operation]));
    expect(error.reason).toBe(`segment "${segment}" is not allowed (prototype pollution)`);
  });

  test("a value with a __proto__ member (as JSON.parse makes it) stays an own member", () => {
    const value = JSON.parse('{"__proto__": {"polluted": 1}, "ok": true}');
    const after = ok(applyPatch<Record<string, Record<string, unknown>>>({}, [{ op: "add", path: "/x", value }]));
    expect(Object.getPrototypeOf(after.x)).toBe(Object.prototype);
    expect(Object.prototype.hasOwnProperty.call(after.x, "__proto__")).toBe(true);
    expect(after.x.polluted).toBeUndefined();
  });
});

describe("applyPatch: deep documents", () => {
  const deep = (depth: number, leaf: unknown): unknown => {
    let node = leaf;
    for (let i = 0; i < depth; i++) node = { x: node };
    return node;
  };

  test("10,000 levels: replace at the bottom, add a 10,000-deep value, test it, without overflowing the stack", () => {
    const path = "/x".repeat(10_000);
    const after = ok(
      applyPatch(deep(10_000, 1), [
        { op: "replace", path, value: 2 },
        { op: "replace", path: "/x", value: deep(10_000, "v") },
        { op: "test", path: "/x", value: deep(10_000, "v") },
      ]),
    );
    let node: unknown = after;
    let depth = 0;
    while (typeof node === "object" && node !== null && "x" in node) {
      node = node.x;
      depth++;
    }
    expect(depth).toBe(10_001);
    expect(node).toBe("v");
  });
});

// ----- Property test against rfc6902's applyPatch (on a deep copy) as the oracle -----

/** Every pointer into `value` (container members and elements), plus the root's. */
function pointersOf(value: unknown, prefix = "", out: string[] = []): string[] {
  out.push(prefix);
  if (Array.isArray(value)) value.forEach((item, i) => pointersOf(item, `${prefix}/${i}`, out));
  else if (typeof value === "object" && value !== null) {
    for (const [key, item] of Object.entries(value)) pointersOf(item, `${prefix}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`, out);
  }
  return out;
}

const key = fc.constantFrom("a", "b", "c", "a/b", "~", "é", "😀", "", "0", "1");
const doc = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.string({ maxLength: 3 })),
    tie("array"),
    tie("object"),
  ),
  array: fc.array(tie("value"), { maxLength: 4 }),
  object: fc.dictionary(key, tie("value"), { maxKeys: 4 }),
})).value;

const opSpec = fc.record({
  kind: fc.constantFrom("add", "remove", "replace", "move", "copy", "test"),
  path: fc.nat(),
  from: fc.nat(),
  fresh: fc.option(key, { nil: undefined }),
  value: doc,
});

type Spec = typeof opSpec extends fc.Arbitrary<infer S> ? S : never;

/** Makes operations from specs, with pointers taken from the document (under /r, so "" is never used). */
function operations(document: unknown, specs: readonly Spec[]): JsonPatchOperation[] {
  const pointers = pointersOf(document).map((p) => `/r${p}`);
  return specs.map((spec) => {
    let path = pointers[spec.path % pointers.length];
    const from = pointers[spec.from % pointers.length];
    if (spec.fresh !== undefined) path = `${path}/${spec.kind === "add" && spec.fresh === "1" ? "-" : spec.fresh.replace(/~/g, "~0").replace(/\//g, "~1")}`;
    switch (spec.kind) {
      case "add":
      case "replace":
      case "test":
        return { op: spec.kind, path, value: spec.value };
      case "remove":
        return { op: "remove", path };
      case "move":
      case "copy":
        return { op: spec.kind, from, path };
    }
  });
}

/**
 * The value `pointer` names in `document`, or `undefined` where RFC 6901 finds none: rfc6902's
 * `Pointer.get` indexes into a string as JavaScript does (`" "[0]` is `" "`), which RFC 6901 does
 * not (found by seed -980441350: a copy from `/r/0` after `/r` became a string).
 */
function valueAt(document: unknown, pointer: string): unknown {
  let value = document;
  for (const token of rfc6902.Pointer.fromJSON(pointer).tokens.slice(1)) {
    if (typeof value !== "object" || value === null) return undefined;
    value = (value as Record<string, unknown>)[token];
  }
  return value;
}

/**
 * rfc6902 applies one operation, in place; `move` and `copy` are spelled out as the RFC defines
 * them (remove, then add; add of the source's value), because rfc6902 resolves move's destination
 * before removing the source and skips the bounds check on copy's destination.
 */
function oracleApply(document: unknown, operation: JsonPatchOperation): boolean {
  if (operation.op === "copy") {
    // Spelled out as an add of the source's value: rfc6902's own copy skips add's bounds check.
    const value = valueAt(document, operation.from);
    return value !== undefined && rfc6902.applyPatch(document, [{ op: "add", path: operation.path, value: copy(value) }])[0] === null;
  }
  if (operation.op !== "move") return rfc6902.applyPatch(document, [copy(operation)])[0] === null;
  if (operation.path.startsWith(`${operation.from}/`)) return false; // RFC 6902 §4.4: not into its own child
  const value = valueAt(document, operation.from);
  if (value === undefined) return false;
  if (rfc6902.applyPatch(document, [{ op: "remove", path: operation.from }])[0] !== null) return false;
  return rfc6902.applyPatch(document, [{ op: "add", path: operation.path, value }])[0] === null;
}

test("property: applyPatch agrees with rfc6902 (success and result, or failure at the same op) and never mutates", () => {
  fc.assert(
    fc.property(doc, fc.array(opSpec, { maxLength: 6 }), (document, specs) => {
      const wrapped = { r: document };
      const patch = operations(document, specs);
      const before = copy(wrapped);
      const oracle = copy(wrapped);
      const firstError = patch.findIndex((operation) => {
        try {
          return !oracleApply(oracle, operation);
        } catch {
          return true; // rfc6902 throws on adding into a primitive, which is an error for the RFC too
        }
      });
      const ours = applyPatch(wrapped, patch);
      if (firstError === -1 && isLeft(ours)) {
        // rfc6902 reads a member name on an array with parseInt (NaN → index 0); RFC 6902 §4 and we reject it.
        expect(ours.left.reason).toMatch(/is not an array index/);
      } else if (firstError === -1) expect(ok(ours)).toEqual(oracle);
      else {
        expect(isLeft(ours)).toBe(true);
        if (isLeft(ours) && ours.left.index !== firstError) {
          // Only where rfc6902 is lax (member names as array indices) may we fail earlier.
          expect(ours.left.index).toBeLessThan(firstError);
          expect(ours.left.reason).toMatch(/is not an array index/);
        }
      }
      expect(wrapped).toEqual(before);
    }),
    { numRuns: 2000 },
  );
});
