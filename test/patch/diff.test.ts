import { isRight } from "fp-ts/Either";
import * as fc from "fast-check";
import * as rfc6902 from "rfc6902";
import { applyPatch } from "../../src/patch/apply";
import { diff } from "../../src/patch/diff";
import type { JsonPatchOperation } from "../../src/protocol/common";

// eslint-disable-next-line @typescript-eslint/no-unsafe-return -- a JSON copy of a JSON value has the original's type
const copy = <T>(value: T): T => JSON.parse(JSON.stringify(value));

/** Applies with rfc6902 on a deep copy, wrapped under /r so that a root `replace` works too. */
function viaOracle(a: unknown, patch: JsonPatchOperation[]): unknown {
  const wrapped = { r: copy(a) };
  const moved = patch.map((op) => ({ ...copy(op), path: `/r${op.path}`, ...("from" in op ? { from: `/r${op.from}` } : {}) }));
  const errors = rfc6902.applyPatch(wrapped, moved);
  expect(errors.filter((e) => e !== null)).toEqual([]);
  return wrapped.r;
}

function viaOurs(a: unknown, patch: JsonPatchOperation[]): unknown {
  const result = applyPatch(a, patch);
  if (!isRight(result)) throw result.left;
  return result.right;
}

describe("diff: examples", () => {
  test.each<[string, unknown, unknown, JsonPatchOperation[]]>([
    ["equal documents", { a: [1, { b: 2 }] }, { a: [1, { b: 2 }] }, []],
    ["a field", { step: 1, notes: "n" }, { step: 2, notes: "n" }, [{ op: "replace", path: "/step", value: 2 }]],
    ["a new member is added, never replaced", { a: 1 }, { a: 1, b: null }, [{ op: "add", path: "/b", value: null }]],
    ["a gone member is removed", { a: 1, b: 2 }, { a: 1 }, [{ op: "remove", path: "/b" }]],
    ["escaped member names", { "a/b": { "~c": 1 } }, { "a/b": { "~c": 2 } }, [{ op: "replace", path: "/a~1b/~0c", value: 2 }]],
    ["a push is one add at -", { t: [1, 2] }, { t: [1, 2, 3] }, [{ op: "add", path: "/t/-", value: 3 }]],
    [
      "two pushes",
      [1],
      [1, 2, 3],
      [
        { op: "add", path: "/-", value: 2 },
        { op: "add", path: "/-", value: 3 },
      ],
    ],
    ["an insertion at the front", [1, 2], [0, 1, 2], [{ op: "add", path: "/0", value: 0 }]],
    ["a removal in the middle", [1, 2, 3], [1, 3], [{ op: "remove", path: "/1" }]],
    [
      "removals at the end, highest index first",
      [1, 2, 3],
      [1],
      [
        { op: "remove", path: "/2" },
        { op: "remove", path: "/1" },
      ],
    ],
    ["equal-length arrays element by element", [{ a: 1 }, { a: 2 }], [{ a: 1 }, { a: 3 }], [{ op: "replace", path: "/1/a", value: 3 }]],
    [
      "a small middle replaced by removes and adds",
      [1, 2, 3, 4, 5, 6],
      [1, 2, 9, 8, 4, 5, 6],
      [
        { op: "remove", path: "/2" },
        { op: "add", path: "/2", value: 9 },
        { op: "add", path: "/3", value: 8 },
      ],
    ],
    ["a mostly different array replaced whole", { t: [1, 2, 3] }, { t: [4, 5] }, [{ op: "replace", path: "/t", value: [4, 5] }]],
    ["an array becoming an object", { t: [] }, { t: {} }, [{ op: "replace", path: "/t", value: {} }]],
    ["a different root type", [1], { a: 1 }, [{ op: "replace", path: "", value: { a: 1 } }]],
    ["a primitive root", 1, 2, [{ op: "replace", path: "", value: 2 }]],
    ["undefined members count as absent", { a: 1, b: undefined }, { a: 1, c: undefined }, []],
  ])("%s", (_name, a, b, expected) => {
    const patch = diff(a, b);
    expect(patch).toEqual(expected);
    expect(viaOurs(a, expected)).toEqual(JSON.parse(JSON.stringify(b) ?? "null"));
  });

  test("shared subtrees are not walked (reference fast path)", () => {
    let walked = 0;
    const shared = new Proxy({ big: 1 }, { ownKeys: (target) => (walked++, Reflect.ownKeys(target)) });
    expect(diff({ s: shared, n: 1 }, { s: shared, n: 2 })).toEqual([{ op: "replace", path: "/n", value: 2 }]);
    expect(walked).toBe(0);
  });

  test("a changed member named __proto__, constructor or prototype gives up (no safe applier takes the pointer)", () => {
    expect(diff({}, JSON.parse('{"__proto__": 1}'))).toBeUndefined();
    expect(diff({ constructor: 1 }, {})).toBeUndefined();
    expect(diff({ prototype: 1 }, { prototype: 2 })).toBeUndefined();
    expect(diff({ prototype: 1 }, { prototype: 1 })).toEqual([]);
  });

  test("maxSize: a patch is returned only when strictly shorter; otherwise undefined", () => {
    const a = { a: 1 };
    const b = { b: 2 };
    const patch = diff(a, b)!;
    const size = JSON.stringify(patch).length;
    expect(diff(a, b, { maxSize: size + 1 })).toEqual(patch);
    expect(diff(a, b, { maxSize: size })).toBeUndefined();
    expect(diff(a, b, { maxSize: JSON.stringify(b).length })).toBeUndefined(); // the seed's small document
    expect(diff(a, a, { maxSize: 3 })).toEqual([]);
  });
});

describe("diff: large and deep documents", () => {
  const tasks = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `t${i}`, title: `task ${i}`, done: i % 3 === 0 }));

  // b is a JSON copy, so nothing is shared and the trimming has to compare deeply.
  test.each<[string, (b: { tasks: ReturnType<typeof tasks> }) => void]>([
    ["one push", (b) => void b.tasks.push({ id: "new", title: "new", done: false })],
    ["one removal in the middle", (b) => void b.tasks.splice(50_000, 1)],
    ["one field change", (b) => void (b.tasks[73_210].done = !b.tasks[73_210].done)],
    ["one insertion near the front", (b) => void b.tasks.splice(3, 0, { id: "x", title: "x", done: true })],
  ])("100,000 tasks, %s: at most 3 operations, and correct", (_name, change) => {
    const a = { tasks: tasks(100_000), title: "board" };
    const b = copy(a);
    change(b);
    const patch = diff(a, b, { maxSize: JSON.stringify(b).length });
    expect(patch).toBeDefined();
    expect(patch!.length).toBeGreaterThanOrEqual(1);
    expect(patch!.length).toBeLessThanOrEqual(3);
    expect(viaOurs(a, patch!)).toEqual(b);
  });

  test("100,000 tasks with a push, shared elements: one add at -", () => {
    const a = tasks(100_000);
    const b = [...a, { id: "n", title: "n", done: false }];
    expect(diff(a, b)).toEqual([{ op: "add", path: "/-", value: { id: "n", title: "n", done: false } }]);
  });

  const deep = (depth: number, leaf: unknown): unknown => {
    let node = leaf;
    for (let i = 0; i < depth; i++) node = { x: node, i };
    return node;
  };

  /** Walks down `x` members iteratively (jest's own equality recurses). */
  const leaf = (value: unknown): { depth: number; value: unknown } => {
    let node = value;
    let depth = 0;
    while (typeof node === "object" && node !== null && "x" in node) {
      node = node.x;
      depth++;
    }
    return { depth, value: node };
  };

  test("10,000 levels deep: no stack overflow, a patch that applies (or undefined under a size limit)", () => {
    const a = deep(10_000, 1);
    const b = deep(10_000, 2);
    const patch = diff(a, b);
    expect(patch).toEqual([{ op: "replace", path: "/x".repeat(10_000), value: 2 }]);
    const patched = viaOurs(a, patch!);
    expect(leaf(patched)).toEqual({ depth: 10_000, value: 2 });
    expect(leaf(a)).toEqual({ depth: 10_000, value: 1 });
    expect(() => diff(a, b, { maxSize: 1_000_000 })).not.toThrow();
    expect(() => diff({ d: 1 }, { d: deep(10_000, 0) }, { maxSize: 1_000_000 })).not.toThrow(); // a value too deep to serialize
    expect(() => diff(deep(10_000, [1]), deep(10_000, [1, 2]))).not.toThrow();
  });

  test("10,000 nested arrays: the change at the bottom is found, past the recursion limit", () => {
    const nested = (leaf: unknown): unknown => {
      let node = leaf;
      for (let i = 0; i < 10_000; i++) node = [node];
      return node;
    };
    expect(diff(nested(1), nested(2))).toEqual([{ op: "replace", path: "/0".repeat(10_000), value: 2 }]);
    expect(diff(nested({ a: 1 }), nested({ a: 1, b: 2 }))).toEqual([{ op: "add", path: `${"/0".repeat(10_000)}/b`, value: 2 }]);
  });
});

// ----- Property tests -----

const key = fc.constantFrom("a", "b", "c", "a/b", "~", "~1", "/", "é", "😀", "", "0");
const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.oneof(fc.integer({ min: -3, max: 3 }), fc.boolean(), fc.constant(null), fc.string({ unit: "grapheme", maxLength: 4 })),
    tie("array"),
    tie("object"),
  ),
  array: fc.array(tie("value"), { maxLength: 6 }),
  object: fc.dictionary(key, tie("value"), { maxKeys: 5 }),
})).value;

/** Containers of `value` with their parents, for in-place edits in `mutated`. */
function containers(value: unknown, out: object[] = []): object[] {
  if (typeof value !== "object" || value === null) return out;
  out.push(value);
  for (const item of Object.values(value)) containers(item, out);
  return out;
}

/** A copy of `a` with a few random edits, so the pair shares most of its structure. */
function mutated(a: unknown, edits: readonly { at: number; kind: number; index: number; key: string; value: unknown }[]): unknown {
  const root = { r: copy(a) };
  for (const edit of edits) {
    const all = containers(root.r);
    if (all.length === 0) {
      root.r = edit.value;
      continue;
    }
    const target = all[edit.at % all.length];
    if (Array.isArray(target)) {
      const i = target.length === 0 ? 0 : edit.index % target.length;
      if (edit.kind % 4 === 0) target.push(edit.value);
      else if (edit.kind % 4 === 1) target.splice(i, 1);
      else if (edit.kind % 4 === 2) target.splice(i, 0, edit.value);
      else target[i] = edit.value;
    } else {
      const record = target as Record<string, unknown>;
      if (edit.kind % 2 === 0) delete record[edit.key];
      else record[edit.key] = edit.value;
    }
  }
  return root.r;
}

const edit = fc.record({ at: fc.nat(), kind: fc.nat(), index: fc.nat(), key, value: json });
const pair = fc.oneof(
  fc.tuple(json, json),
  json.chain((a) => fc.array(edit, { minLength: 1, maxLength: 4 }).map((edits) => [a, mutated(a, edits)] as const)),
);

test("property: the patch turns a into b, by rfc6902 and by our applyPatch, and never touches a", () => {
  fc.assert(
    fc.property(pair, ([a, b]) => {
      const before = copy(a);
      const patch = diff(a, b);
      expect(patch).toBeDefined();
      expect(viaOracle(a, patch!)).toEqual(b);
      expect(viaOurs(a, patch!)).toEqual(b);
      expect(a).toEqual(before);
    }),
    { numRuns: 3000 },
  );
});

test("property: under maxSize, a returned patch is strictly smaller than maxSize and still correct", () => {
  fc.assert(
    fc.property(pair, fc.option(fc.nat({ max: 200 }), { nil: undefined }), ([a, b], limit) => {
      const maxSize = limit ?? JSON.stringify(b).length;
      const patch = diff(a, b, { maxSize });
      if (patch === undefined) return;
      if (patch.length > 0)
        expect(JSON.stringify(patch).length).toBeLessThan(maxSize); // [] means "no change" at any size
      else expect(b).toEqual(a);
      expect(viaOurs(a, patch)).toEqual(b);
    }),
    { numRuns: 3000 },
  );
});
