/**
 * Small io-ts combinators the protocol codecs are made of, and the one place protocol files import
 * them from (`struct` and `taggedUnion` live in files of their own and are re-exported here). They
 * exist for four wire facts io-ts does not model on its own: optional fields that producers send
 * as `null`, defaults that a consumer fills in, unions that are discriminated by one key (decoded
 * in O(1), with an error that names the unknown tag instead of listing every member's failure),
 * and AG-UI 1.1's processing model: material the protocol does not describe (an unknown property,
 * an unknown union member or enum value) is stripped, never fatal, while a malformed known value
 * stays a failure (`unrecognised.ts` records what was stripped).
 */
import * as t from "io-ts";
import { isUnrecognised, noteRemoved, propagate, RecognisingType, rollBack, strippedMark, unrecognised } from "./unrecognised";

export { struct, type StructCodec, type StructOptions, type StructOutput, type StructType } from "./struct";
export { taggedUnion, type TaggedUnionCodec, type TaggedUnionOptions, type TaggedUnionType } from "./taggedUnion";

/**
 * A codec made by `withDefault`: it keeps the codec it wraps and the fallback, so what reads codecs
 * (the JSON Schema derivation of client tools) can see through it.
 */
export interface WithDefaultCodec<C extends t.Mixed> extends t.Type<t.TypeOf<C>, t.OutputOf<C>, unknown> {
  /** The codec a present value is decoded with. */
  readonly base: C;
  /** What `undefined` and `null` decode to. */
  readonly fallback: t.TypeOf<C>;
}

/**
 * A required member that decodes `undefined` or `null` to `fallback` (e.g. TEXT_MESSAGE_START.role).
 * On the wire such a member is optional, so an unrecognised value there is removed and the
 * default applies (1.1: an unrecognised value in an optional position removes that field).
 *
 * @example
 * const Query = t.type({ text: t.string, limit: withDefault(t.number, 10) });
 * Query.decode({ text: "rx" }); // right({ text: "rx", limit: 10 })
 */
export function withDefault<C extends t.Mixed>(codec: C, fallback: t.TypeOf<C>): WithDefaultCodec<C> {
  const defaulted = new t.Type<t.TypeOf<C>, t.OutputOf<C>, unknown>(
    codec.name,
    codec.is,
    (u, context) => {
      if (u === undefined || u === null) return t.success(fallback);
      const result = codec.validate(u, context);
      if (result._tag === "Right" && isUnrecognised(result.right)) {
        noteRemoved(context);
        return t.success(fallback);
      }
      return result;
    },
    codec.encode,
  );
  return Object.assign(defaulted, { base: codec, fallback });
}

/**
 * Options of `enumOf`.
 *
 * @example
 * const options: EnumOptions = { malformed: ["assistant", "user"] };
 */
export interface EnumOptions {
  /**
   * Strings the protocol knows as members of a wider set that this position does not take (the
   * message roles other than `reasoning` on REASONING_MESSAGE_START): such a value is a malformed
   * known value and fails, where a string the protocol does not know at all is unrecognised.
   */
  readonly malformed?: readonly string[];
}

/**
 * A closed set of string values (a role, a subtype, a status). A string outside the set is
 * unrecognised material, stripped by the container (1.1), unless `options.malformed` names it;
 * anything that is not a string is a malformed value and fails.
 *
 * @example
 * const Status = enumOf("ResumeStatus", ["resolved", "cancelled"]);
 * const Role = enumOf("REASONING_MESSAGE_START.role", ["reasoning"], { malformed: ["assistant", "user"] }); // "assistant" fails, "narrator" is stripped
 */
export function enumOf<const V extends readonly [string, ...string[]]>(
  name: string,
  values: V,
  options: EnumOptions = {},
): t.Type<V[number], V[number], unknown> {
  const known: ReadonlySet<string> = new Set(values);
  const malformed: ReadonlySet<string> = new Set(options.malformed);
  const listed = values.join(", ");
  const expected = values.length === 1 ? JSON.stringify(values[0]) : `${name} (one of ${listed})`;
  const is = (u: unknown): u is V[number] => typeof u === "string" && known.has(u);
  return new RecognisingType<V[number], V[number], unknown>(
    name,
    is,
    (u, context) => {
      if (is(u)) return t.success(u);
      if (typeof u !== "string") return t.failure(u, context, `expected ${name} (one of ${listed})`);
      if (malformed.has(u)) {
        return t.failure(
          u,
          context,
          `expected ${expected} (${JSON.stringify(u)} is known to the protocol but not allowed here: a malformed value, not an unrecognised one)`,
        );
      }
      return unrecognised(context, `unknown value ${JSON.stringify(u)} (${name} is one of ${listed})`);
    },
    t.identity,
  );
}

/**
 * An array of `codec` values. An unrecognised element is dropped and the list survives (1.1), a
 * JSON Patch included (revised: an unknown op used to make the whole patch unrecognised).
 *
 * @example
 * const Parts = list(InputContent); // [{ type: "hologram" }, { type: "text", text: "hi" }] → [{ type: "text", text: "hi" }]
 */
export function list<C extends t.Mixed>(codec: C): t.Type<t.TypeOf<C>[], t.OutputOf<C>[], unknown> {
  const array = t.array(codec);
  return new RecognisingType<t.TypeOf<C>[], t.OutputOf<C>[], unknown>(
    array.name,
    array.is,
    (u, context) => {
      if (array.is(u)) return t.success(u);
      if (!Array.isArray(u)) return t.failure(u, context, `expected ${array.name} (a JSON array)`);
      const mark = strippedMark(context);
      let out: unknown[] | undefined;
      let errors: t.ValidationError[] | undefined;
      for (let i = 0; i < u.length; i++) {
        const element: unknown = u[i];
        const elementContext = t.appendContext(context, String(i), codec, element);
        const result = codec.validate(element, elementContext);
        if (result._tag === "Left") {
          (errors ??= []).push(...result.left);
        } else if (isUnrecognised(result.right)) {
          out ??= u.slice(0, i);
          noteRemoved(elementContext);
        } else if (out !== undefined) out.push(result.right);
        else if (result.right !== element) (out = u.slice(0, i)).push(result.right);
      }
      if (errors) {
        rollBack(context, mark);
        return t.failures(errors);
      }
      return t.success((out ?? u) as t.TypeOf<C>[]); // every element was just validated by its codec
    },
    array.encode,
  );
}

/** Any JSON value, `null` included, but it must be present. */
export const Present = new t.Type<unknown, unknown, unknown>(
  "a JSON value (null allowed)",
  (u): u is unknown => u !== undefined,
  (u, context) => (u === undefined ? t.failure(u, context, "expected a value (null is allowed)") : t.success(u)),
  t.identity,
);

/** An integer from 0 up (token counts). */
export const NonNegativeInteger = new t.Type<number, number, unknown>(
  "a non-negative integer",
  (u): u is number => typeof u === "number" && Number.isInteger(u) && u >= 0,
  (u, context) => (typeof u === "number" && Number.isInteger(u) && u >= 0 ? t.success(u) : t.failure(u, context)),
  t.identity,
);

/** A JSON object (not an array, not `null`) with any members. */
export const JsonObject = t.UnknownRecord;

/**
 * An array with at least one element; the type is a non-empty tuple so builders cannot pass `[]`.
 * Unrecognised elements are dropped as in `list`; if that leaves none, the array itself is
 * unrecognised (its container removes it).
 */
export function nonEmptyArray<C extends t.Mixed>(codec: C, name = `NonEmptyArray<${codec.name}>`) {
  const array = list(codec);
  return new t.Type<[t.TypeOf<C>, ...t.TypeOf<C>[]], t.OutputOf<C>[], unknown>(
    name,
    (u): u is [t.TypeOf<C>, ...t.TypeOf<C>[]] => array.is(u) && u.length > 0,
    (u, context) => {
      if (Array.isArray(u) && u.length === 0) return t.failure(u, context, `expected at least one ${codec.name}`);
      const result = array.validate(u, context);
      if (result._tag === "Right" && result.right.length === 0) return propagate(); // every element was unrecognised
      return result as t.Validation<[t.TypeOf<C>, ...t.TypeOf<C>[]]>; // length checked just above
    },
    array.encode,
  );
}
