/**
 * The pieces `jsonSchemaOf` assembles schemas from (docs/tools.md § schema derivation): object
 * shapes, which intersections merge before they are rendered, and unions folded into the plainest
 * schema that says the same (one `enum`, one `type` list, or `anyOf`).
 */
import type { JsonSchema, JsonSchemaType } from "./JsonSchema";

/**
 * An object codec's members before rendering, so an intersection can merge them into one object
 * schema instead of an `allOf` whose `additionalProperties: false` would refuse the other half's keys.
 *
 * @example
 * const shape: ObjectShape = { properties: new Map([["city", { type: "string" }]]), required: new Set(["city"]), exact: true };
 */
export interface ObjectShape {
  readonly properties: ReadonlyMap<string, JsonSchema>;
  readonly required: ReadonlySet<string>;
  /** Whether keys besides `properties` are refused (`additionalProperties: false`). */
  readonly exact: boolean;
}

/**
 * Merges the shapes of an intersection's members: every property of each (one declared twice must
 * match both declarations), required where any member requires it, exact only if every member is
 * (io-ts keeps the keys a non-exact member keeps).
 *
 * @example
 * mergeShapes([a, b]).required; // a.required ∪ b.required
 */
export function mergeShapes(shapes: readonly ObjectShape[]): ObjectShape {
  const properties = new Map<string, JsonSchema>();
  const required = new Set<string>();
  for (const shape of shapes) {
    for (const [key, schema] of shape.properties) {
      const earlier = properties.get(key);
      properties.set(key, earlier === undefined ? schema : { allOf: [earlier, schema] });
    }
    for (const key of shape.required) required.add(key);
  }
  return { properties, required, exact: shapes.every((shape) => shape.exact) };
}

/**
 * The JSON Schema of an object shape. `Object.fromEntries` defines every key as an own member, so a
 * property named `__proto__` stays a property.
 *
 * @example
 * renderShape(shape); // { type: "object", properties: { city: { type: "string" } }, required: ["city"], additionalProperties: false }
 */
export function renderShape(shape: ObjectShape): JsonSchema {
  const schema: { -readonly [K in keyof JsonSchema]: JsonSchema[K] } = { type: "object", properties: Object.fromEntries(shape.properties) };
  if (shape.required.size > 0) schema.required = [...shape.required];
  if (shape.exact) schema.additionalProperties = false;
  return schema;
}

/**
 * One schema for a union's member schemas: the member itself when there is one; `{}` when a member
 * accepts anything; one `enum` when every member is an enum (literals, keyofs); one `type` list
 * when every member is a bare type; otherwise `anyOf`, with `type: "object"` beside it when every
 * member is an object (model providers want a top-level object type).
 *
 * @example
 * unionSchema([{ type: "string", enum: ["a"] }, { type: "string", enum: ["b"] }]); // { type: "string", enum: ["a", "b"] }
 */
export function unionSchema(members: readonly JsonSchema[]): JsonSchema {
  if (members.length === 1) return members[0];
  if (members.some((member) => Object.keys(member).length === 0)) return {};
  if (members.every((member) => hasOnly(member, ["type", "enum"]) && member.enum !== undefined)) {
    const values = unique(members.flatMap((member) => member.enum ?? []));
    return { type: typeOf(unique(members.flatMap(typesOf))), enum: values };
  }
  if (members.every((member) => hasOnly(member, ["type"]))) return { type: typeOf(unique(members.flatMap(typesOf))) };
  return members.every((member) => member.type === "object") ? { type: "object", anyOf: members } : { anyOf: members };
}

/**
 * One schema for an intersection whose members are not all object shapes: `allOf`, with `type:
 * "object"` beside it when a member is an object; members that accept anything are left out.
 *
 * @example
 * allOfSchema([{ type: "object" }, { type: "object", required: ["a"] }]); // { type: "object", allOf: [...] }
 */
export function allOfSchema(members: readonly JsonSchema[]): JsonSchema {
  const constraining = members.filter((member) => Object.keys(member).length > 0);
  if (constraining.length <= 1) return constraining[0] ?? {};
  return constraining.some((member) => member.type === "object") ? { type: "object", allOf: constraining } : { allOf: constraining };
}

function hasOnly(schema: JsonSchema, keys: readonly string[]): boolean {
  const present = Object.keys(schema);
  return present.length > 0 && present.every((key) => keys.includes(key));
}

function typesOf(schema: JsonSchema): readonly JsonSchemaType[] {
  const { type } = schema;
  if (type === undefined) return [];
  return typeof type === "string" ? [type] : type;
}

function typeOf(types: readonly JsonSchemaType[]): JsonSchemaType | readonly JsonSchemaType[] {
  return types.length === 1 ? types[0] : types;
}

function unique<T>(values: readonly T[]): T[] {
  return [...new Set(values)];
}
