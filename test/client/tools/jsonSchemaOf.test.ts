import * as t from "io-ts";
import { ClientToolError } from "../../../src/client/tools/ClientToolError";
import { jsonSchemaOf } from "../../../src/client/tools/jsonSchemaOf";
import { SCHEMA_CASES } from "./schemaCases";
import { compile, decodes } from "./support";

describe.each(SCHEMA_CASES)("jsonSchemaOf: $name", (row) => {
  const schema = jsonSchemaOf(row.codec);
  const valid = compile(schema);

  test("derives the expected schema", () => {
    expect(schema).toEqual(row.schema);
  });

  test("codec and schema agree on the shared samples", () => {
    for (const value of row.both) expect([value, decodes(row.codec, value), valid(value)]).toEqual([value, true, true]);
    for (const value of row.neither) expect([value, decodes(row.codec, value), valid(value)]).toEqual([value, false, false]);
  });

  test("the one-way gaps go the documented way", () => {
    for (const value of row.codecOnly ?? []) expect([value, decodes(row.codec, value), valid(value)]).toEqual([value, true, false]);
    for (const value of row.schemaOnly ?? []) expect([value, decodes(row.codec, value), valid(value)]).toEqual([value, false, true]);
  });
});

describe("jsonSchemaOf refuses what it cannot describe", () => {
  const DateFromString = new t.Type<Date, string, unknown>(
    "DateFromString",
    (u): u is Date => u instanceof Date,
    (u, c) => (typeof u === "string" ? t.success(new Date(u)) : t.failure(u, c)),
    (d) => d.toISOString(),
  );
  interface Tree {
    readonly children: Tree[];
  }
  const Tree: t.Type<Tree> = t.recursion("Tree", () => t.type({ children: t.array(Tree) }));

  const refusals: readonly { name: string; codec: t.Mixed; codec_: string; path: string; mentions: string }[] = [
    { name: "a custom t.Type at the top", codec: DateFromString, codec_: "DateFromString", path: "", mentions: "at the top level: it is a custom t.Type" },
    {
      name: "a custom t.Type deep inside",
      codec: t.type({ events: t.array(t.partial({ at: DateFromString })) }),
      codec_: "DateFromString",
      path: "/events/*/at",
      mentions: "at /events/*/at",
    },
    { name: "a tuple", codec: t.type({ pair: t.tuple([t.string, t.number]) }), codec_: "[string, number]", path: "/pair", mentions: "an io-ts TupleType" },
    { name: "a recursive codec", codec: t.type({ tree: Tree }), codec_: "Tree", path: "/tree", mentions: "an io-ts RecursiveType" },
    { name: "t.undefined alone", codec: t.undefined, codec_: "undefined", path: "", mentions: "only accepts undefined" },
    { name: "an array of t.undefined", codec: t.type({ xs: t.array(t.undefined) }), codec_: "undefined", path: "/xs/*", mentions: "only accepts undefined" },
    {
      name: "a record over number keys",
      codec: t.record(t.number, t.string),
      codec_: "{ [K in number]: string }",
      path: "",
      mentions: 'its keys are "number"',
    },
    { name: "a member name with a slash, escaped", codec: t.type({ "a/b": t.bigint }), codec_: "bigint", path: "/a~1b", mentions: "an io-ts BigIntType" },
  ];

  test.each(refusals)("$name", ({ codec, codec_, path, mentions }) => {
    let caught: unknown;
    try {
      jsonSchemaOf(codec);
    } catch (error) {
      caught = error;
    }
    expect(ClientToolError.isInstance(caught)).toBe(true);
    const error = caught as ClientToolError; // checked just above
    expect(error).toMatchObject({ code: "unsupported-codec", codec: codec_, path });
    expect(error.message).toContain(`the codec "${codec_}"`);
    expect(error.message).toContain(mentions);
    expect(error.message).toContain("give jsonSchema beside parameters");
  });
});
