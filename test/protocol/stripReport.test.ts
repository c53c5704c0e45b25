/** src/protocol/unrecognised.ts reports through the validation context, never through module state (#21 §3.4). */
import * as t from "io-ts";
import { enumOf, list, struct } from "../../src/protocol/codec";
import { collectStripped, RecognisingType } from "../../src/protocol/unrecognised";

const Item = struct("Item", { kind: enumOf("Kind", ["a"]) }, { mode: enumOf("Mode", ["x"]) });
const Items = list(Item);

describe("the strip report travels in the context", () => {
  test("a decode run inside another decode's validation reports to its own report, and the outer one keeps its order", () => {
    // A member whose validation decodes something else with a report of its own (as a nested decoder would).
    let inner: ReturnType<typeof collectStripped> | undefined;
    const Nesting = new t.Type<unknown, unknown, unknown>(
      "Nesting",
      (_u): _u is unknown => false,
      (u) => {
        inner = collectStripped(Items, [{ kind: "a", mode: "inner" }]);
        return t.success(u);
      },
      t.identity,
    );
    const Outer = struct("Outer", { nest: Nesting }, { mode: enumOf("Mode", ["x"]) });
    const outer = collectStripped(Outer, { extra: 1, nest: 0, mode: "outer" });
    expect(outer.stripped.map((piece) => piece.path)).toEqual(["/extra", "/mode"]);
    expect(inner?.stripped).toEqual([{ code: "unknown-member", path: "/0/mode", reason: 'unknown value "inner" (Mode is one of x)' }]);
  });

  test("a validation whose root carries no report strips the same value, silently", () => {
    const value = [{ kind: "a", mode: "y", extra: 1 }];
    const reported = collectStripped(Items, value);
    const silent = Items.validate(value, [{ key: "", type: Items, actual: value }]);
    expect(silent).toEqual(reported.result);
    expect(reported.stripped).toHaveLength(2);
  });

  test("decode is the codec class's own method, not a property written over an io-ts instance, and its failure's context is the plain root", () => {
    expect(Item).toBeInstanceOf(RecognisingType);
    // Read by name, not as a method value: the comparison is of the functions, never called here.
    const ownDecode: unknown = Reflect.get(Object.getPrototypeOf(Item) as object, "decode");
    expect(ownDecode).toBe(Reflect.get(RecognisingType.prototype, "decode"));
    const failed = Item.decode({ kind: "b" });
    expect(failed._tag).toBe("Left");
    if (failed._tag === "Left") {
      expect(failed.left[0].message).toBe('expected a recognisable Item, but /kind holds unknown value "b" (Kind is one of a)');
      expect(failed.left[0].context).toEqual([{ key: "", type: Item, actual: { kind: "b" } }]);
    }
  });

  test("a failed decode leaves nothing behind: the next decode's cause is its own", () => {
    expect(Item.decode({ kind: "b" })._tag).toBe("Left");
    const next = collectStripped(Item, { mode: "z" });
    expect(next.result._tag).toBe("Left"); // kind is missing: malformed, not unrecognised
    expect(next.stripped).toEqual([]);
    const dropped = collectStripped(Items, [{ kind: "c" }]);
    expect(dropped.stripped).toEqual([{ code: "unknown-member", path: "/0", reason: '/0/kind holds unknown value "c" (Kind is one of a)' }]);
  });
});
