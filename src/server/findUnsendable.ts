/**
 * The part of the egress check (`checkEgress`) that a codec's `is` cannot see: members a struct
 * does not declare (AG-UI 1.1 has the client strip them, so they must not be sent), values JSON
 * cannot carry (a BigInt), and nesting past the depth limit both ends apply (a cycle is infinitely
 * deep, so it is caught by the same bound). One walk, guided by the protocol codecs where they have
 * a shape and plain JSON where they do not (`metadata`, `rawEvent`, state, `value`, `result`).
 */
import * as t from "io-ts";

/** What is wrong and where: the JSON Pointer of the offending member, and a phrase that completes "… at <path> …". */
export interface Unsendable {
  /** RFC 6901 pointer from the walked value (`""` for the value itself). */
  readonly path: string;
  /** What is wrong there, as a phrase: `is a member TEXT_MESSAGE_END does not declare (the client strips it)`. */
  readonly problem: string;
}

/**
 * Finds the first member of `value` that a client decoding it with `codec` would not receive as
 * it was sent, or `undefined`. Call it on values that `codec.is` accepts: it looks only for what
 * `is` does not check (undeclared members, BigInts, depth). Recursion is bounded by `limit`, so it
 * cannot overflow on the values it refuses; it allocates nothing on the values it accepts.
 *
 * Codecs are read through their structure: the library's structs (declared `required` and
 * `optional` members), tagged unions, arrays and unions. A codec without a visible structure
 * (`t.unknown`, `metadata`'s record, a default-filling or non-empty wrapper) is treated as any
 * JSON, where only BigInts and depth are checked.
 *
 * @example
 * findUnsendable(TextMessageEndEvent, { type: "TEXT_MESSAGE_END", messageId: "m1", extra: 1 }, 512);
 * // { path: "/extra", problem: "is a member TEXT_MESSAGE_END does not declare (the client strips it)" }
 */
export function findUnsendable(codec: t.Mixed, value: unknown, limit: number): Unsendable | undefined {
  const found = walk(codec, value, 1, limit);
  if (found === undefined) return undefined;
  const path = found.segments
    .reverse()
    .map((segment) => `/${segment.replace(/~/g, "~0").replace(/\//g, "~1")}`)
    .join("");
  return { path, problem: found.problem };
}

/** A finding on the way back up: the segments are innermost first, so each level pushes its own. */
interface Found {
  readonly segments: string[];
  readonly problem: string;
}

/** How the walk looks inside values of one codec. */
type Shape =
  | { readonly kind: "struct"; readonly name: string; readonly members: ReadonlyMap<string, t.Mixed> }
  | { readonly kind: "tagged"; readonly tag: string; readonly members: Readonly<Record<string, t.Mixed>> }
  | { readonly kind: "array"; readonly item: t.Mixed }
  | { readonly kind: "union"; readonly types: readonly t.Mixed[] }
  | { readonly kind: "json" };

const JSON_SHAPE: Shape = { kind: "json" };
const shapes = new WeakMap<t.Mixed, Shape>();

function walk(codec: t.Mixed | undefined, value: unknown, depth: number, limit: number): Found | undefined {
  if (!isObject(value)) {
    return typeof value === "bigint" ? { segments: [], problem: "is a BigInt, which JSON cannot carry" } : undefined;
  }
  if (depth > limit) return { segments: [], problem: `nests deeper than the limit of ${limit} levels (or is circular)` };
  const shape = codec === undefined ? JSON_SHAPE : shapeOf(codec);
  switch (shape.kind) {
    case "struct": {
      for (const key in value) {
        if (!Object.hasOwn(value, key)) continue;
        const member = shape.members.get(key);
        const inner = value[key];
        if (member === undefined) {
          if (inner === undefined) continue; // JSON leaves it out: the client never sees it
          return { segments: [key], problem: `is a member ${shape.name} does not declare (the client strips it)` };
        }
        if (!isObject(inner) && typeof inner !== "bigint") continue; // a scalar the codec's `is` accepted: nothing to look into
        const found = walk(member, inner, depth + 1, limit);
        if (found !== undefined) return (found.segments.push(key), found);
      }
      return undefined;
    }
    case "tagged": {
      const tag = value[shape.tag];
      const member = typeof tag === "string" && Object.hasOwn(shape.members, tag) ? shape.members[tag] : undefined;
      return walk(member, value, depth, limit); // the member codec describes the same object
    }
    case "union": {
      const member = shape.types.find((type) => type.is(value));
      return walk(member, value, depth, limit);
    }
    case "array":
      return walkItems(shape.item, value, depth, limit);
    case "json":
      if (Array.isArray(value)) return walkItems(undefined, value, depth, limit);
      for (const key in value) {
        if (!Object.hasOwn(value, key)) continue;
        const found = walk(undefined, value[key], depth + 1, limit);
        if (found !== undefined) return (found.segments.push(key), found);
      }
      return undefined;
    default: {
      const unreachable: never = shape;
      return unreachable;
    }
  }
}

function walkItems(item: t.Mixed | undefined, value: Record<string, unknown>, depth: number, limit: number): Found | undefined {
  if (!Array.isArray(value)) return undefined; // `is` already refused a non-array here
  for (let i = 0; i < value.length; i++) {
    const found = walk(item, value[i], depth + 1, limit);
    if (found !== undefined) return (found.segments.push(String(i)), found);
  }
  return undefined;
}

/** Arrays and objects; read by key like any JSON object (an array's keys are its indices). */
function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

/** The shape of a codec, worked out once per codec. */
function shapeOf(codec: t.Mixed): Shape {
  let shape = shapes.get(codec);
  if (shape === undefined) {
    shape = describeShape(codec);
    shapes.set(codec, shape);
  }
  return shape;
}

/**
 * Reads a codec's structure. The library's `struct` and `taggedUnion` codecs expose their members
 * (`required`/`optional`, `tag`/`members`); io-ts's own arrays and unions are classes. This is a
 * codec boundary: the members are read as the codecs declare them.
 */
function describeShape(codec: t.Mixed): Shape {
  // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- io-ts classes type their parts `any` (codec boundary)
  if (codec instanceof t.ArrayType) return { kind: "array", item: codec.type };
  // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- io-ts classes type their parts `any` (codec boundary)
  if (codec instanceof t.UnionType) return { kind: "union", types: codec.types };
  const exposed = codec as t.Mixed & { required?: t.Props; optional?: t.Props; tag?: string; members?: Record<string, t.Mixed> }; // see above
  if (exposed.required !== undefined && exposed.optional !== undefined) {
    return { kind: "struct", name: codec.name, members: new Map([...Object.entries(exposed.required), ...Object.entries(exposed.optional)]) };
  }
  if (typeof exposed.tag === "string" && exposed.members !== undefined) return { kind: "tagged", tag: exposed.tag, members: exposed.members };
  return JSON_SHAPE;
}
