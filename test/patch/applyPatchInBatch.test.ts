/** applyPatchInBatch: a run of patches copies each container once, stays atomic per patch, and shares untouched subtrees. */
import { isLeft, isRight, type Either } from "fp-ts/Either";
import { applyPatchInBatch } from "../../src/patch/apply";
import type { PatchError } from "../../src/patch/PatchError";
import type { JsonPatchOperation } from "../../src/protocol/common";

function board() {
  return { a: { items: [{ done: false }, { done: false }], name: "a" }, b: { items: [{ done: false }] } };
}

function right<T>(result: Either<PatchError, T>): T {
  if (isLeft(result)) throw new Error(`expected the patch to apply, got ${result.left.message}`);
  return result.right;
}

describe("applyPatchInBatch", () => {
  test("the first patch copies the path, later ones edit the batch's copies in place; the input and untouched subtrees are untouched", () => {
    const before = board();
    const frozen = JSON.stringify(before);
    const owned = new Set<object>();
    const first = right(applyPatchInBatch(before, [{ op: "replace", path: "/a/items/0/done", value: true }], owned));
    expect(first).not.toBe(before);
    expect(first.a).not.toBe(before.a);
    expect(first.b).toBe(before.b);
    expect(first.a.items[1]).toBe(before.a.items[1]);
    const second = right(applyPatchInBatch(first, [{ op: "replace", path: "/a/items/1/done", value: true }], owned));
    expect(second).toBe(first); // the root was the batch's own: edited in place
    expect(second.a.items).toBe(first.a.items);
    expect(second).toEqual({ a: { items: [{ done: true }, { done: true }], name: "a" }, b: { items: [{ done: false }] } });
    expect(JSON.stringify(before)).toBe(frozen);
  });

  test("a single-write patch that fails leaves the batch's document equal to what it was", () => {
    const owned = new Set<object>();
    const doc = right(applyPatchInBatch(board(), [{ op: "replace", path: "/a/name", value: "x" }], owned));
    const snapshot = JSON.stringify(doc);
    const failures: JsonPatchOperation[][] = [
      [{ op: "replace", path: "/b/items/0/missing", value: 1 }],
      [{ op: "remove", path: "/a/items/5" }],
      [{ op: "add", path: "/a/items/9", value: 1 }],
      [{ op: "test", path: "/a/name", value: "y" }],
    ];
    for (const patch of failures) {
      expect(isLeft(applyPatchInBatch(doc, patch, owned))).toBe(true);
      expect(JSON.stringify(doc)).toBe(snapshot);
    }
  });

  test("a multi-operation patch that fails midway changes nothing of the batch's document; one that succeeds hands its copies to the batch", () => {
    const owned = new Set<object>();
    const doc = right(applyPatchInBatch(board(), [{ op: "replace", path: "/a/name", value: "x" }], owned));
    const snapshot = JSON.stringify(doc);
    const failing = applyPatchInBatch(
      doc,
      [
        { op: "replace", path: "/a/name", value: "changed" },
        { op: "remove", path: "/nowhere" },
      ],
      owned,
    );
    expect(isLeft(failing)).toBe(true);
    expect(JSON.stringify(doc)).toBe(snapshot);
    const ok = applyPatchInBatch(
      doc,
      [
        { op: "replace", path: "/b/items/0/done", value: true },
        { op: "add", path: "/b/extra", value: { n: 1 } },
      ],
      owned,
    );
    expect(isRight(ok)).toBe(true);
    const next = right(ok);
    expect(owned.has(next)).toBe(true);
    expect(owned.has(next.b)).toBe(true);
    const after = right(applyPatchInBatch(next, [{ op: "replace", path: "/b/items/0/done", value: false }], owned));
    expect(after.b).toBe(next.b); // copied once in this batch: edited in place now
  });

  test("array indices: digits without leading zeros, and `-` only to append", () => {
    const owned = new Set<object>();
    const doc = { list: [1, 2, 3] };
    expect(right(applyPatchInBatch(doc, [{ op: "replace", path: "/list/2", value: 9 }], owned)).list).toEqual([1, 2, 9]);
    for (const path of ["/list/01", "/list/x", "/list/-", "/list/3", "/list/"]) {
      expect(isLeft(applyPatchInBatch(doc, [{ op: "replace", path, value: 0 }], new Set()))).toBe(true);
    }
    expect(right(applyPatchInBatch(doc, [{ op: "add", path: "/list/-", value: 4 }], new Set())).list).toEqual([1, 2, 3, 4]);
  });

  test("members an object inherits are not members: replacing toString or valueOf fails", () => {
    for (const path of ["/toString", "/valueOf", "/hasOwnProperty"]) {
      const result = applyPatchInBatch({ a: 1 }, [{ op: "replace", path, value: 1 }], new Set());
      expect(isLeft(result) && result.left.message).toContain("no member");
    }
  });
});
