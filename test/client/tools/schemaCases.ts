/**
 * One row per combinator `jsonSchemaOf` reads: the codec, the schema it must derive, and sample
 * values. `both` and `neither` are where codec and schema agree; `codecOnly` and `schemaOnly` are
 * the documented one-way gaps (docs/tools.md § schema derivation): values io-ts accepts leniently
 * (it strips keys `t.strict` does not declare, reads `null` as a default or as absent) and values
 * an opaque refinement refuses.
 */
import * as t from "io-ts";
import { NonNegativeInteger, Present, struct, taggedUnion, withDefault } from "../../../src/protocol/codec";
import type { JsonSchema } from "../../../src/client/tools/JsonSchema";

export interface SchemaCase {
  readonly name: string;
  readonly codec: t.Mixed;
  readonly schema: JsonSchema;
  /** Decoded by the codec and valid by the schema. */
  readonly both: readonly unknown[];
  /** Refused by both. */
  readonly neither: readonly unknown[];
  /** Decoded by the codec, refused by the schema (the schema is the stricter side). */
  readonly codecOnly?: readonly unknown[];
  /** Valid by the schema, refused by the codec (a refinement's predicate). */
  readonly schemaOnly?: readonly unknown[];
}

interface PositiveBrand {
  readonly Positive: unique symbol;
}
const Positive = t.brand(t.number, (n): n is t.Branded<number, PositiveBrand> => n > 0, "Positive");
const ShortString = t.refinement(t.string, (s) => s.length <= 3, "ShortString");

const str = { type: "string" } as const;
const num = { type: "number" } as const;

export const SCHEMA_CASES: readonly SchemaCase[] = [
  { name: "t.string", codec: t.string, schema: str, both: ["", "a"], neither: [1, null, {}, [], true] },
  { name: "t.number", codec: t.number, schema: num, both: [0, -1.5, 1e300], neither: ["1", null, {}, false] },
  { name: "t.boolean", codec: t.boolean, schema: { type: "boolean" }, both: [true, false], neither: [0, "true", null] },
  { name: "t.null", codec: t.null, schema: { type: "null" }, both: [null], neither: [0, "", false, {}] },
  { name: "t.unknown", codec: t.unknown, schema: {}, both: [null, 1, "x", [], {}], neither: [] },
  { name: "t.UnknownRecord", codec: t.UnknownRecord, schema: { type: "object" }, both: [{}, { a: 1 }], neither: [[], null, "x"] },
  { name: "t.UnknownArray", codec: t.UnknownArray, schema: { type: "array" }, both: [[], [1, "x"]], neither: [{}, null] },
  { name: "t.literal string", codec: t.literal("on"), schema: { type: "string", enum: ["on"] }, both: ["on"], neither: ["off", 1] },
  { name: "t.literal integer", codec: t.literal(3), schema: { type: "integer", enum: [3] }, both: [3], neither: [3.5, "3"] },
  { name: "t.literal fraction", codec: t.literal(0.5), schema: { type: "number", enum: [0.5] }, both: [0.5], neither: [1] },
  { name: "t.literal boolean", codec: t.literal(false), schema: { type: "boolean", enum: [false] }, both: [false], neither: [true, 0] },
  {
    name: "t.keyof",
    codec: t.keyof({ low: null, high: null }),
    schema: { type: "string", enum: ["low", "high"] },
    both: ["low", "high"],
    neither: ["mid", 0, null],
  },
  { name: "t.Int", codec: t.Int, schema: { type: "integer" }, both: [0, -7, 2 ** 40], neither: [1.5, "1", null] },
  { name: "t.Integer (deprecated)", codec: t.Integer, schema: { type: "integer" }, both: [4], neither: [4.5] },
  { name: "NonNegativeInteger", codec: NonNegativeInteger, schema: { type: "integer", minimum: 0 }, both: [0, 12], neither: [-1, 0.5, "1"] },
  {
    name: "a t.unknown member may be left out, a Present one may not",
    codec: t.type({ anything: t.unknown, something: Present }),
    schema: { type: "object", properties: { anything: {}, something: {} }, required: ["something"] },
    both: [{ something: null }, { anything: 1, something: 2 }],
    neither: [{ anything: 1 }, {}],
  },
  { name: "Present", codec: Present, schema: {}, both: [null, 0, {}], neither: [] },
  { name: "a brand: its base", codec: Positive, schema: num, both: [1, 0.5], neither: ["1", null], schemaOnly: [0, -3] },
  { name: "a refinement: its base", codec: ShortString, schema: str, both: ["abc", ""], neither: [3], schemaOnly: ["abcd"] },
  {
    name: "a brand of t.Int: integer",
    codec: t.brand(t.Int, (n): n is t.Branded<t.Int, PositiveBrand> => n > 0, "Positive"),
    schema: { type: "integer" },
    both: [2],
    neither: [2.5],
    schemaOnly: [-2],
  },
  {
    name: "t.readonly",
    codec: t.readonly(t.type({ a: t.string })),
    schema: { type: "object", properties: { a: str }, required: ["a"] },
    both: [{ a: "x" }, { a: "x", b: 1 }],
    neither: [{}, { a: 1 }],
  },
  { name: "t.array", codec: t.array(t.number), schema: { type: "array", items: num }, both: [[], [1, 2]], neither: [[1, "2"], {}, "1,2"] },
  { name: "t.readonlyArray", codec: t.readonlyArray(t.string), schema: { type: "array", items: str }, both: [["a"]], neither: [[1]] },
  {
    name: "t.type",
    codec: t.type({ city: t.string, days: t.Int }),
    schema: { type: "object", properties: { city: str, days: { type: "integer" } }, required: ["city", "days"] },
    both: [
      { city: "Seoul", days: 3 },
      { city: "Seoul", days: 3, extra: true },
    ],
    neither: [{ city: "Seoul" }, { city: "Seoul", days: 1.5 }, { days: 3 }, [], null, "Seoul"],
  },
  {
    name: "t.type with an optional member (a union with t.undefined)",
    codec: t.type({ city: t.string, unit: t.union([t.keyof({ c: null, f: null }), t.undefined]) }),
    schema: { type: "object", properties: { city: str, unit: { type: "string", enum: ["c", "f"] } }, required: ["city"] },
    both: [{ city: "x" }, { city: "x", unit: "c" }],
    neither: [{ city: "x", unit: "k" }, { unit: "c" }],
  },
  {
    name: "t.partial",
    codec: t.partial({ limit: t.number, query: t.string }),
    schema: { type: "object", properties: { limit: num, query: str } },
    both: [{}, { limit: 1 }, { query: "q", other: 1 }],
    neither: [{ limit: "1" }, [], null],
  },
  {
    name: "t.strict",
    codec: t.strict({ id: t.string }),
    schema: { type: "object", properties: { id: str }, required: ["id"], additionalProperties: false },
    both: [{ id: "a" }],
    neither: [{}, { id: 1 }, { id: 1, more: 2 }],
    codecOnly: [{ id: "a", more: 2 }],
  },
  {
    name: "t.exact of t.partial",
    codec: t.exact(t.partial({ note: t.string })),
    schema: { type: "object", properties: { note: str }, additionalProperties: false },
    both: [{}, { note: "n" }],
    neither: [{ note: 1 }],
    codecOnly: [{ other: 1 }],
  },
  {
    name: "t.intersection of t.type and t.partial: one object",
    codec: t.intersection([t.type({ title: t.string }), t.partial({ due: t.string })]),
    schema: { type: "object", properties: { title: str, due: str }, required: ["title"] },
    both: [{ title: "t" }, { title: "t", due: "d" }, { title: "t", x: 1 }],
    neither: [{ due: "d" }, { title: "t", due: 1 }],
  },
  {
    name: "t.exact of an intersection: one closed object",
    codec: t.exact(t.intersection([t.type({ title: t.string }), t.partial({ due: t.string })])),
    schema: { type: "object", properties: { title: str, due: str }, required: ["title"], additionalProperties: false },
    both: [{ title: "t", due: "d" }],
    neither: [{ due: "d" }],
    codecOnly: [{ title: "t", x: 1 }],
  },
  {
    name: "t.intersection of strict members: closed over both halves",
    codec: t.intersection([t.strict({ a: t.string }), t.strict({ b: t.number })]),
    schema: { type: "object", properties: { a: str, b: num }, required: ["a", "b"], additionalProperties: false },
    both: [{ a: "x", b: 1 }],
    neither: [{ a: "x" }],
    codecOnly: [{ a: "x", b: 1, c: true }],
  },
  {
    name: "t.intersection declaring a member twice: both declarations hold",
    codec: t.intersection([t.type({ a: t.string }), t.type({ a: t.keyof({ x: null, y: null }) })]),
    schema: { type: "object", properties: { a: { allOf: [str, { type: "string", enum: ["x", "y"] }] } }, required: ["a"] },
    both: [{ a: "x" }],
    neither: [{ a: "z" }, { a: 1 }],
  },
  {
    name: "t.intersection of non-objects: allOf",
    codec: t.intersection([t.string, ShortString]),
    schema: { allOf: [str, str] },
    both: ["ab"],
    neither: [1],
    schemaOnly: ["abcd"],
  },
  {
    name: "t.union of literals: one enum",
    codec: t.union([t.literal("a"), t.literal("b"), t.literal(1)]),
    schema: { type: ["string", "integer"], enum: ["a", "b", 1] },
    both: ["a", "b", 1],
    neither: ["c", 2, null],
  },
  {
    name: "t.union of bare types: one type list",
    codec: t.union([t.string, t.number, t.null]),
    schema: { type: ["string", "number", "null"] },
    both: ["a", 1, null],
    neither: [true, {}, []],
  },
  {
    name: "t.union of objects: anyOf under an object type",
    codec: t.union([t.type({ kind: t.literal("city"), name: t.string }), t.type({ kind: t.literal("point"), lat: t.number, lon: t.number })]),
    schema: {
      type: "object",
      anyOf: [
        { type: "object", properties: { kind: { type: "string", enum: ["city"] }, name: str }, required: ["kind", "name"] },
        { type: "object", properties: { kind: { type: "string", enum: ["point"] }, lat: num, lon: num }, required: ["kind", "lat", "lon"] },
      ],
    },
    both: [
      { kind: "city", name: "Seoul" },
      { kind: "point", lat: 1, lon: 2 },
    ],
    neither: [{ kind: "city", lat: 1 }, { kind: "other" }, "city"],
  },
  {
    name: "t.union of mixed members: anyOf",
    codec: t.union([t.string, t.array(t.string)]),
    schema: { anyOf: [str, { type: "array", items: str }] },
    both: ["a", ["a", "b"]],
    neither: [1, [1]],
  },
  {
    name: "t.union with t.unknown: anything",
    codec: t.union([t.string, t.unknown]),
    schema: {},
    both: [1, "a", null],
    neither: [],
  },
  {
    name: "t.record over t.string",
    codec: t.record(t.string, t.number),
    schema: { type: "object", additionalProperties: num },
    both: [{}, { a: 1, b: 2 }],
    neither: [{ a: "1" }, [], null],
  },
  {
    name: "t.record of unknown values",
    codec: t.record(t.string, t.unknown),
    schema: { type: "object" },
    both: [{}, { a: null }],
    neither: [[], "x"],
  },
  {
    name: "t.record over a refinement of t.string: its base",
    codec: t.record(ShortString, t.number),
    schema: { type: "object", additionalProperties: num },
    both: [{ ab: 1 }],
    neither: [{ ab: "1" }],
    codecOnly: [{ abcdef: "not checked: the key is outside the domain, io-ts drops it" }],
  },
  {
    name: "t.record over literal keys: every key, no other",
    codec: t.record(t.keyof({ mon: null, tue: null }), t.boolean),
    schema: { type: "object", properties: { mon: { type: "boolean" }, tue: { type: "boolean" } }, required: ["mon", "tue"], additionalProperties: false },
    both: [{ mon: true, tue: false }],
    neither: [{ mon: true }, { mon: 1, tue: true }],
    codecOnly: [{ mon: true, tue: true, wed: true }],
  },
  {
    name: "t.record over a union of string literals",
    codec: t.record(t.union([t.literal("x"), t.literal("y")]), t.number),
    schema: { type: "object", properties: { x: num, y: num }, required: ["x", "y"], additionalProperties: false },
    both: [{ x: 1, y: 2 }],
    neither: [{ x: 1 }],
  },
  {
    name: "withDefault: optional, with the default",
    codec: t.type({ query: t.string, limit: withDefault(t.number, 10) }),
    schema: { type: "object", properties: { query: str, limit: { type: "number", default: 10 } }, required: ["query"] },
    both: [{ query: "q" }, { query: "q", limit: 3 }],
    neither: [{ limit: 3 }, { query: "q", limit: "3" }],
    codecOnly: [{ query: "q", limit: null }],
  },
  {
    name: "withDefault of an encoding codec: the default in its JSON form",
    codec: t.type({ tags: withDefault(t.array(t.string), ["inbox"]) }),
    schema: { type: "object", properties: { tags: { type: "array", items: str, default: ["inbox"] } } },
    both: [{}, { tags: [] }],
    neither: [{ tags: [1] }],
  },
  {
    name: "struct: required and optional members, other keys stripped",
    codec: struct("Task", { title: t.string }, { due: t.string }),
    schema: { type: "object", properties: { title: str, due: str }, required: ["title"], additionalProperties: false },
    both: [{ title: "t" }, { title: "t", due: "d" }],
    neither: [{ due: "d" }, { title: "t", due: 1 }],
    codecOnly: [
      { title: "t", due: null },
      { title: "t", due: "d", x: 1 },
    ],
  },
  {
    name: "struct, open: other keys kept",
    codec: struct("Point", { x: t.number, y: t.number }, {}, { open: true }),
    schema: { type: "object", properties: { x: num, y: num }, required: ["x", "y"] },
    both: [
      { x: 1, y: 2 },
      { x: 1, y: 2, z: 3 },
    ],
    neither: [{ x: 1 }],
  },
  {
    name: "taggedUnion of structs: anyOf",
    codec: taggedUnion("Shape", "type", {
      circle: struct("Circle", { type: t.literal("circle"), r: t.number }, {}),
      square: struct("Square", { type: t.literal("square"), side: t.number }, {}),
    }),
    schema: {
      type: "object",
      anyOf: [
        { type: "object", properties: { type: { type: "string", enum: ["circle"] }, r: num }, required: ["type", "r"], additionalProperties: false },
        { type: "object", properties: { type: { type: "string", enum: ["square"] }, side: num }, required: ["type", "side"], additionalProperties: false },
      ],
    },
    both: [
      { type: "circle", r: 1 },
      { type: "square", side: 2 },
    ],
    neither: [{ type: "circle", side: 2 }, { type: "triangle" }, {}],
  },
  {
    name: "nested: arrays of objects with records inside",
    codec: t.type({ rows: t.array(t.strict({ id: t.Int, cells: t.record(t.string, t.union([t.string, t.number])) })) }),
    schema: {
      type: "object",
      properties: {
        rows: {
          type: "array",
          items: {
            type: "object",
            properties: { id: { type: "integer" }, cells: { type: "object", additionalProperties: { type: ["string", "number"] } } },
            required: ["id", "cells"],
            additionalProperties: false,
          },
        },
      },
      required: ["rows"],
    },
    both: [{ rows: [] }, { rows: [{ id: 1, cells: { a: "x", b: 2 } }] }],
    neither: [{ rows: [{ id: 1.5, cells: {} }] }, { rows: [{ id: 1, cells: { a: true } }] }, { rows: {} }],
  },
  {
    name: "a member named __proto__ stays a property",
    codec: t.type({ ["__proto__"]: t.string }),
    // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- JSON.parse is the only way to make an own `__proto__` key: the case under test
    schema: JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}},"required":["__proto__"]}'),
    both: [JSON.parse('{"__proto__":"x"}')],
    // No refusal sample: Ajv's generated code does not check a property named __proto__ (its own limit, not the schema's).
    neither: [],
  },
];
