// Random codec trees of the combinators where io-ts and JSON Schema can agree exactly (no strict
// stripping, no null-as-default, no opaque refinement), with values shaped like each codec and
// mutated: the derived schema, checked by Ajv, accepts a value exactly when the codec decodes it.
import * as fc from "fast-check";
import * as t from "io-ts";
import { jsonSchemaOf } from "../../../src/client/tools/jsonSchemaOf";
import { compile, decodes } from "./support";

type Spec =
  | { readonly kind: "string" | "number" | "boolean" | "null" | "int" | "unknown" | "unknownRecord" | "unknownArray" }
  | { readonly kind: "literal"; readonly value: string | number | boolean }
  | { readonly kind: "keyof"; readonly keys: readonly string[] }
  | { readonly kind: "array" | "readonlyArray" | "readonly" | "record"; readonly of: Spec }
  | { readonly kind: "type" | "partial"; readonly props: readonly (readonly [string, Spec, boolean])[] }
  | { readonly kind: "union" | "intersection"; readonly members: readonly Spec[] };

const KEYS = ["a", "b", "c", "kind"] as const;
const key = fc.constantFrom(...KEYS);

const leaf: fc.Arbitrary<Spec> = fc.oneof(
  fc.constantFrom<Spec>(
    { kind: "string" },
    { kind: "number" },
    { kind: "boolean" },
    { kind: "null" },
    { kind: "int" },
    { kind: "unknown" },
    { kind: "unknownRecord" },
    { kind: "unknownArray" },
  ),
  fc.oneof(fc.constantFrom("x", "y"), fc.constantFrom(0, 1, 2.5), fc.boolean()).map((value): Spec => ({ kind: "literal", value })),
  fc.uniqueArray(key, { minLength: 1, maxLength: 3 }).map((keys): Spec => ({ kind: "keyof", keys })),
);

function specOf(depth: number): fc.Arbitrary<Spec> {
  if (depth === 0) return leaf;
  const inner = specOf(depth - 1);
  const props = fc.uniqueArray(fc.tuple(key, inner, fc.boolean()), { maxLength: 3, selector: ([name]) => name });
  const object = fc.oneof(
    props.map((p): Spec => ({ kind: "type", props: p })),
    props.map((p): Spec => ({ kind: "partial", props: p })),
  );
  return fc.oneof(
    { weight: 2, arbitrary: leaf },
    fc.constantFrom("array", "readonlyArray", "readonly", "record").chain((kind) => inner.map((of): Spec => ({ kind: kind as "array", of }))),
    { weight: 2, arbitrary: object },
    fc.array(inner, { minLength: 2, maxLength: 3 }).map((members): Spec => ({ kind: "union", members })),
    fc.array(object, { minLength: 2, maxLength: 3 }).map((members): Spec => ({ kind: "intersection", members })),
  );
}

function codecOf(spec: Spec): t.Mixed {
  switch (spec.kind) {
    case "string":
      return t.string;
    case "number":
      return t.number;
    case "boolean":
      return t.boolean;
    case "null":
      return t.null;
    case "int":
      return t.Int;
    case "unknown":
      return t.unknown;
    case "unknownRecord":
      return t.UnknownRecord;
    case "unknownArray":
      return t.UnknownArray;
    case "literal":
      return t.literal(spec.value);
    case "keyof":
      return t.keyof(Object.fromEntries(spec.keys.map((k) => [k, null])));
    case "array":
      return t.array(codecOf(spec.of));
    case "readonlyArray":
      return t.readonlyArray(codecOf(spec.of));
    case "readonly":
      return t.readonly(codecOf(spec.of));
    case "record":
      return t.record(t.string, codecOf(spec.of));
    case "type":
      // The third entry makes a member optional the io-ts way: a union with t.undefined.
      return t.type(
        Object.fromEntries(spec.props.map(([name, member, optional]) => [name, optional ? t.union([codecOf(member), t.undefined]) : codecOf(member)])),
      );
    case "partial":
      return t.partial(Object.fromEntries(spec.props.map(([name, member]) => [name, codecOf(member)])));
    case "union":
      return t.union(spec.members.map(codecOf) as [t.Mixed, t.Mixed]); // two or more by construction
    case "intersection":
      return t.intersection(spec.members.map(codecOf) as [t.Mixed, t.Mixed]);
    default: {
      const never: never = spec;
      return never;
    }
  }
}

const anyJson = fc.jsonValue({ maxDepth: 2 });

/** Mostly values of the codec's shape (with members that may themselves be off), sometimes any JSON. */
function near(spec: Spec): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 4, arbitrary: shaped(spec) }, { weight: 1, arbitrary: anyJson });
}

function shaped(spec: Spec): fc.Arbitrary<unknown> {
  switch (spec.kind) {
    case "string":
      return fc.string({ maxLength: 3 });
    case "number":
      return fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }));
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "int":
      return fc.oneof(fc.integer(), fc.constantFrom(0.5, -2.25));
    case "unknown":
      return anyJson;
    case "unknownRecord":
      return fc.dictionary(key, anyJson, { maxKeys: 2 });
    case "unknownArray":
      return fc.array(anyJson, { maxLength: 2 });
    case "literal":
      return fc.constantFrom(spec.value, "x", 1, true);
    case "keyof":
      return fc.constantFrom(...spec.keys, "zz");
    case "array":
    case "readonlyArray":
      return fc.array(near(spec.of), { maxLength: 3 });
    case "readonly":
      return shaped(spec.of);
    case "record":
      return fc.dictionary(key, near(spec.of), { maxKeys: 3 });
    case "type":
    case "partial":
      return objectLike(spec.props.map(([name, member]) => [name, member] as const));
    case "union":
      return fc.oneof(...spec.members.map(near));
    case "intersection": {
      const all = spec.members.flatMap((member) =>
        member.kind === "type" || member.kind === "partial" ? member.props.map(([name, m]) => [name, m] as const) : [],
      );
      return objectLike(all);
    }
    default: {
      const never: never = spec;
      return never;
    }
  }
}

/** An object with some of the declared members (values near their codec) and maybe an undeclared one. */
function objectLike(members: readonly (readonly [string, Spec])[]): fc.Arbitrary<unknown> {
  const declared = fc.tuple(...members.map(([name, member]) => fc.option(near(member), { nil: undefined }).map((value) => [name, value] as const)));
  return fc.tuple(declared, fc.option(fc.tuple(fc.constant("extra"), anyJson), { nil: undefined })).map(([entries, extra]) => {
    const out: Record<string, unknown> = {};
    for (const [name, value] of entries) if (value !== undefined) out[name] = value;
    if (extra !== undefined) out[extra[0]] = extra[1];
    return out;
  });
}

test("for random codec trees, the derived schema accepts exactly what the codec decodes", () => {
  const cases = specOf(3).chain((spec) => fc.tuple(fc.constant(spec), fc.array(near(spec), { minLength: 8, maxLength: 8 })));
  fc.assert(
    fc.property(cases, ([spec, values]) => {
      const codec = codecOf(spec);
      const valid = compile(jsonSchemaOf(codec));
      for (const value of values) {
        if (valid(value) !== decodes(codec, value)) throw new Error(`disagree on ${JSON.stringify(value)}: codec ${decodes(codec, value)}`);
      }
    }),
    { numRuns: 300 },
  );
});

test("the generated values hit both sides, so the agreement above is not vacuous", () => {
  let accepted = 0;
  let refused = 0;
  fc.assert(
    fc.property(
      specOf(2).chain((spec) => fc.tuple(fc.constant(spec), near(spec))),
      ([spec, value]) => {
        if (decodes(codecOf(spec), value)) accepted++;
        else refused++;
      },
    ),
    { numRuns: 300, seed: 7 },
  );
  expect(accepted).toBeGreaterThan(60);
  expect(refused).toBeGreaterThan(60);
});
