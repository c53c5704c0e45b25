/**
 * Derives the JSON Schema of a client tool's arguments (`Tool.parameters` on the wire) from its
 * io-ts codec (docs/tools.md#frontend-tools; the table is in docs/tools.md § schema derivation).
 */
import * as t from "io-ts";
import { NonNegativeInteger, Present } from "../../protocol/codec";
import { ClientToolError } from "./ClientToolError";
import type { JsonSchema } from "./JsonSchema";
import { allOfSchema, mergeShapes, renderShape, unionSchema, type ObjectShape } from "./schemaParts";

/** Any io-ts decoder from `unknown`: what a tool's `parameters` is. */
type Codec = t.Decoder<unknown, unknown>;

/** What deriving one codec gives besides its schema. */
interface Derived {
  readonly schema: JsonSchema;
  /** Whether the member may be left out of its object (a `withDefault`, a union with `t.undefined`). */
  readonly optional: boolean;
  /** The members, for an object codec (so intersections merge them). */
  readonly shape?: ObjectShape;
  /** `t.undefined` / `t.void`: no JSON form at all; only allowed as a union member. */
  readonly absentOnly?: boolean;
}

/** The combinators `jsonSchemaOf` reads, as the error names them. */
const SUPPORTED =
  "t.type, t.partial, t.strict/t.exact, t.intersection, t.string, t.number, t.boolean, t.null, t.unknown, " +
  "t.literal, t.keyof, t.union, t.array, t.record, t.readonly, t.Int, refinements and brands, withDefault, struct and taggedUnion";

/**
 * The JSON Schema that accepts what `codec` decodes, or throws a `ClientToolError` coded
 * `unsupported-codec` that names the codec and its path in the arguments. Exact where io-ts can
 * be exact; where it cannot, the schema is the stricter side, so what a model sends by the schema
 * decodes, with one exception: a refinement's predicate (other than `t.Int`'s) is opaque, so it
 * is described as its base, and a value it refuses comes back as a decode failure.
 *
 * @example
 * jsonSchemaOf(t.type({ city: t.string, days: t.Int }));
 * // { type: "object", properties: { city: { type: "string" }, days: { type: "integer" } }, required: ["city", "days"] }
 */
export function jsonSchemaOf(codec: t.Decoder<unknown, unknown>): JsonSchema {
  const derived = derive(codec, []);
  if (derived.absentOnly) throw unsupported(codec, [], "it only accepts undefined, which has no JSON form");
  return derived.schema;
}

function derive(codec: Codec, path: readonly string[]): Derived {
  if (codec === t.Int || codec === t.Integer) return plain({ type: "integer" });
  if (codec === NonNegativeInteger) return plain({ type: "integer", minimum: 0 });
  if (codec === Present) return plain({});
  if (isWithDefault(codec)) return withDefaultOf(codec.base, codec.fallback, path);
  if (isStruct(codec)) return structOf(codec, path);
  if (isTaggedUnion(codec)) return plain(unionSchema(Object.values(codec.members).map((member) => present(member, path))));
  if (codec instanceof t.StringType) return plain({ type: "string" });
  if (codec instanceof t.NumberType) return plain({ type: "number" });
  if (codec instanceof t.BooleanType) return plain({ type: "boolean" });
  if (codec instanceof t.NullType) return plain({ type: "null" });
  // t.unknown accepts undefined too, so a member of that type may be left out (`Present` may not).
  if (codec instanceof t.UnknownType) return { schema: {}, optional: true };
  if (codec instanceof t.UndefinedType || codec instanceof t.VoidType) return { schema: {}, optional: true, absentOnly: true };
  if (codec instanceof t.AnyDictionaryType) return plain({ type: "object" });
  if (codec instanceof t.AnyArrayType) return plain({ type: "array" });
  // eslint-disable-next-line @typescript-eslint/no-unsafe-argument -- io-ts classes type their parts `any` (codec boundary)
  if (codec instanceof t.LiteralType) return plain(literalOf(codec.value));
  // eslint-disable-next-line @typescript-eslint/no-unsafe-argument -- io-ts classes type their parts `any` (codec boundary)
  if (codec instanceof t.KeyofType) return plain({ type: "string", enum: Object.keys(codec.keys) });
  // eslint-disable-next-line @typescript-eslint/no-unsafe-argument -- io-ts classes type their parts `any` (codec boundary)
  if (codec instanceof t.RefinementType || codec instanceof t.ReadonlyType) return derive(codec.type, path);
  // eslint-disable-next-line @typescript-eslint/no-unsafe-argument -- io-ts classes type their parts `any` (codec boundary)
  if (codec instanceof t.ArrayType || codec instanceof t.ReadonlyArrayType) return plain({ type: "array", items: present(codec.type, [...path, "*"]) });
  // eslint-disable-next-line @typescript-eslint/no-unsafe-argument -- io-ts classes type their parts `any` (codec boundary)
  if (codec instanceof t.InterfaceType) return object(propsShape(codec.props, path, true, false));
  // eslint-disable-next-line @typescript-eslint/no-unsafe-argument -- io-ts classes type their parts `any` (codec boundary)
  if (codec instanceof t.PartialType) return object(propsShape(codec.props, path, false, false));
  // eslint-disable-next-line @typescript-eslint/no-unsafe-argument -- io-ts classes type their parts `any` (codec boundary)
  if (codec instanceof t.ExactType) return exactOf(codec, path);
  // eslint-disable-next-line @typescript-eslint/no-unsafe-argument -- io-ts classes type their parts `any` (codec boundary)
  if (codec instanceof t.DictionaryType) return recordOf(codec.domain, codec.codomain, codec, path);
  // eslint-disable-next-line @typescript-eslint/no-unsafe-argument -- io-ts classes type their parts `any` (codec boundary)
  if (codec instanceof t.UnionType) return unionOf(codec.types, path);
  // eslint-disable-next-line @typescript-eslint/no-unsafe-argument -- io-ts classes type their parts `any` (codec boundary)
  if (codec instanceof t.IntersectionType) return intersectionOf(codec.types, path);
  throw unsupported(codec, path, `it is ${kindOf(codec)}, not one of the supported combinators (${SUPPORTED})`);
}

function plain(schema: JsonSchema): Derived {
  return { schema, optional: false };
}

function object(shape: ObjectShape): Derived {
  return { schema: renderShape(shape), optional: false, shape };
}

/** The schema of a member that must have a JSON form (an array item, a record value). */
function present(codec: Codec, path: readonly string[]): JsonSchema {
  const derived = derive(codec, path);
  if (derived.absentOnly) throw unsupported(codec, path, "it only accepts undefined, which has no JSON form");
  return derived.schema;
}

function literalOf(value: string | number | boolean): JsonSchema {
  if (typeof value === "string") return { type: "string", enum: [value] };
  if (typeof value === "boolean") return { type: "boolean", enum: [value] };
  return { type: Number.isInteger(value) ? "integer" : "number", enum: [value] };
}

/** `withDefault(base, fallback)`: the base's schema with the fallback (encoded, when it has a JSON form) as `default`; the member may be left out. */
function withDefaultOf(base: Codec, fallback: unknown, path: readonly string[]): Derived {
  const schema = present(base, path);
  const encoded = isEncoder(base) ? base.encode(fallback) : fallback;
  const json = jsonCopy(encoded);
  return { schema: json === undefined ? schema : { ...schema, default: json.value }, optional: true };
}

function propsShape(props: t.Props, path: readonly string[], requiredByDefault: boolean, exact: boolean): ObjectShape {
  const properties = new Map<string, JsonSchema>();
  const required = new Set<string>();
  for (const [key, member] of Object.entries(props)) {
    const derived = derive(member, [...path, key]);
    properties.set(key, derived.schema);
    if (requiredByDefault && !derived.optional) required.add(key);
  }
  return { properties, required, exact };
}

/**
 * Our `struct`: required and optional members. Unless it is `open`, it strips other keys (as
 * `t.strict` does), so the schema asks for none. Its `null`-as-absent leniency is left out of the schema.
 */
function structOf(codec: StructLike, path: readonly string[]): Derived {
  const required = propsShape(codec.required, path, true, !codec.open);
  const optional = propsShape(codec.optional, path, false, !codec.open);
  return object(mergeShapes([required, optional]));
}

/**
 * `t.strict` / `t.exact`: the object refuses other keys. io-ts strips them instead of failing, so
 * here the schema is the stricter side: it tells the model not to send what would be dropped.
 */
function exactOf(codec: t.ExactType<t.Mixed>, path: readonly string[]): Derived {
  const inner = derive(codec.type, path);
  if (inner.shape === undefined) return inner;
  return object({ ...inner.shape, exact: true });
}

/**
 * `t.record`: over a string domain (or a refinement of one), `additionalProperties`; over literal
 * keys (`t.keyof`, string literals, unions of them), every key required and no other, as io-ts
 * decodes such a record with `t.strict`.
 */
function recordOf(domain: Codec, codomain: Codec, codec: Codec, path: readonly string[]): Derived {
  const value = present(codomain, [...path, "*"]);
  const keys = domainKeys(domain);
  if (keys !== undefined) return object({ properties: new Map(keys.map((key) => [key, value])), required: new Set(keys), exact: true });
  if (!isStringDomain(domain)) {
    throw unsupported(codec, path, `its keys are "${domain.name}", expected t.string, a refinement of it, t.keyof or string literals`);
  }
  return plain(Object.keys(value).length === 0 ? { type: "object" } : { type: "object", additionalProperties: value });
}

function unionOf(members: readonly Codec[], path: readonly string[]): Derived {
  let optional = false;
  const schemas: JsonSchema[] = [];
  for (const member of members) {
    const derived = derive(member, path);
    if (derived.optional) optional = true;
    if (!derived.absentOnly) schemas.push(derived.schema);
  }
  if (schemas.length === 0) return { schema: {}, optional: true, absentOnly: true };
  return { schema: unionSchema(schemas), optional };
}

function intersectionOf(members: readonly Codec[], path: readonly string[]): Derived {
  const parts = members.map((member) => derive(member, path));
  const shapes = parts.flatMap((part) => (part.shape === undefined ? [] : [part.shape]));
  if (parts.length > 0 && shapes.length === parts.length) return object(mergeShapes(shapes));
  return { schema: allOfSchema(parts.map((part) => part.schema)), optional: parts.length > 0 && parts.every((part) => part.optional) };
}

/** The keys of a literal-keyed record domain, as io-ts's own `getDomainKeys` finds them; `undefined` for other domains. */
function domainKeys(domain: Codec): string[] | undefined {
  if (domain instanceof t.LiteralType) return typeof domain.value === "string" ? [domain.value] : undefined;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-argument -- io-ts classes type their parts `any` (codec boundary)
  if (domain instanceof t.KeyofType) return Object.keys(domain.keys);
  if (domain instanceof t.UnionType) {
    const keys: string[] = [];
    for (const member of domain.types) {
      // eslint-disable-next-line @typescript-eslint/no-unsafe-argument -- io-ts classes type their parts `any` (codec boundary)
      const own = domainKeys(member);
      if (own === undefined) return undefined;
      keys.push(...own);
    }
    return [...new Set(keys)];
  }
  return undefined;
}

function isStringDomain(domain: Codec): boolean {
  if (domain instanceof t.StringType) return true;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-argument -- io-ts classes type their parts `any` (codec boundary)
  return domain instanceof t.RefinementType && isStringDomain(domain.type);
}

// ---- the library's own combinators, recognised by their shape ----------------------------------

interface StructLike {
  readonly required: t.Props;
  readonly optional: t.Props;
  readonly open: boolean;
}

function isDecoder(value: unknown): value is Codec {
  if (typeof value !== "object" || value === null) return false;
  return "validate" in value && typeof value.validate === "function" && "name" in value && typeof value.name === "string";
}

function isEncoder(value: Codec): value is Codec & t.Encoder<unknown, unknown> {
  return "encode" in value && typeof value.encode === "function";
}

function isProps(value: unknown): value is t.Props {
  return typeof value === "object" && value !== null && Object.values(value).every(isDecoder);
}

function isWithDefault(codec: Codec): codec is Codec & { readonly base: Codec; readonly fallback: unknown } {
  return "base" in codec && "fallback" in codec && isDecoder(codec.base);
}

function isStruct(codec: Codec): codec is Codec & StructLike {
  if (!("required" in codec && "optional" in codec && "open" in codec)) return false;
  return isProps(codec.required) && isProps(codec.optional) && typeof codec.open === "boolean";
}

function isTaggedUnion(codec: Codec): codec is Codec & { readonly tag: string; readonly members: Readonly<Record<string, Codec>> } {
  return "tag" in codec && "members" in codec && typeof codec.tag === "string" && isProps(codec.members);
}

// ---- errors -------------------------------------------------------------------------------------

function unsupported(codec: Codec, path: readonly string[], why: string): ClientToolError {
  const pointer = path.map((segment) => `/${segment.replace(/~/g, "~0").replace(/\//g, "~1")}`).join("");
  const where = pointer === "" ? "the top level" : pointer;
  const message = `cannot derive a JSON Schema for the codec "${codec.name}" at ${where}: ${why}; give jsonSchema beside parameters to describe the arguments yourself`;
  return new ClientToolError(message, { code: "unsupported-codec", codec: codec.name, path: pointer });
}

function kindOf(codec: Codec): string {
  const tag = "_tag" in codec && typeof codec._tag === "string" ? codec._tag : undefined;
  return tag === undefined ? "a custom t.Type" : `an io-ts ${tag}`;
}

/** A JSON copy of `value`, or `undefined` when it has no JSON form (a function, a cycle, a BigInt). */
function jsonCopy(value: unknown): { readonly value: unknown } | undefined {
  try {
    const text = JSON.stringify(value);
    return text === undefined ? undefined : { value: JSON.parse(text) };
  } catch {
    return undefined;
  }
}
