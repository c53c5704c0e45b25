/**
 * Small io-ts combinators the protocol codecs are made of. They exist for four wire facts io-ts
 * does not model on its own: optional fields that producers send as `null`, defaults that a
 * consumer fills in, unions that are discriminated by one key (decoded in O(1), with an error that
 * names the unknown tag instead of listing every member's failure), and AG-UI 1.1's processing
 * model: material the protocol does not describe (an unknown property, an unknown union member or
 * enum value) is stripped, never fatal, while a malformed known value stays a failure
 * (`unrecognised.ts` records what was stripped).
 */
import * as t from "io-ts";
import {
  guardDecode,
  isUnrecognised,
  keepCause,
  noteRemoved,
  noteUnknownProperty,
  pointerOf,
  propagate,
  rollBack,
  strippedMark,
  unrecognised,
} from "./unrecognised";

/** Optional keys whose `null` is an error rather than "absent" (WIRE §1.4: both revisions reject them). */
const NULL_IS_AN_ERROR = ["subagentRunId", "metadata"] as const;

export interface StructOptions {
  /** Optional keys on which `null` must be rejected instead of read as absent. */
  readonly nullIsError?: readonly string[];
  /**
   * Members the struct does not declare are kept instead of stripped. Only where the schema leaves
   * an object open on purpose: JSON Patch operations (RFC 6902 §4 ignores unknown members).
   */
  readonly open?: boolean;
}

/** The decoded type of a struct: required props plus optional ones. */
export type StructType<R extends t.Props, O extends t.Props> = t.TypeOf<t.TypeC<R>> & t.TypeOf<t.PartialC<O>>;
export type StructOutput<R extends t.Props, O extends t.Props> = t.OutputOf<t.TypeC<R>> & t.OutputOf<t.PartialC<O>>;

/** A struct codec that also exposes its declared keys (used by the decoders and builders). */
export interface StructCodec<R extends t.Props, O extends t.Props>
  extends t.Type<StructType<R, O>, StructOutput<R, O>, unknown> {
  readonly required: R;
  readonly optional: O;
  /** Whether members besides the declared ones are kept (`open`) rather than stripped (read by the client tools' JSON Schema derivation). */
  readonly open: boolean;
}

const isPlainObject = (u: unknown): u is Record<string, unknown> =>
  typeof u === "object" && u !== null && !Array.isArray(u);

/**
 * An object codec with required and optional members.
 * Decoding reads `null` on an optional member as absent (the key is removed), except for the
 * members listed in `nullIsError`. A member the struct does not declare is stripped (unless the
 * struct is `open`); an unrecognised value in an optional member removes that member, and in a
 * required member makes the whole object unrecognised, for its container to remove (1.1).
 */
export function struct<R extends t.Props, O extends t.Props>(
  name: string,
  required: R,
  optional: O,
  options: StructOptions = {},
): StructCodec<R, O> {
  const inner = t.intersection([t.type(required), t.partial(optional)], name);
  const strict = new Set(options.nullIsError ?? NULL_IS_AN_ERROR);
  const requiredEntries = Object.entries(required);
  const requiredKeys = requiredEntries.map(([key]) => key);
  const requiredMembers = requiredEntries.map(([, member]) => member);
  const optionalKeys = Object.keys(optional);
  const optionalMembers = Object.values(optional);
  const optionalNullIsAbsent = optionalKeys.map((key) => !strict.has(key));
  const optionalEntries = Object.entries(optional).map(([key, member]) => [key, member, !strict.has(key)] as const);
  const declared = options.open ? undefined : new Set([...requiredKeys, ...optionalKeys]);

  // The fast path: a value that already is what decoding would return (no `null` to drop, no
  // default to fill, nothing to strip) is checked with `is` alone, which allocates nothing.
  // Decoding (below) runs only for values that need a change or an error report.
  const is = (u: unknown): u is StructType<R, O> => {
    if (!isPlainObject(u)) return false;
    // Indexed loops: this runs once per decoded event, and destructuring iterators cost more here.
    for (let i = 0; i < requiredKeys.length; i++) if (!requiredMembers[i].is(u[requiredKeys[i]])) return false;
    let present = requiredKeys.length; // declared members present (a required one that passed `is` is present, but for t.unknown)
    for (let i = 0; i < optionalKeys.length; i++) {
      const value = u[optionalKeys[i]];
      if (value === undefined) continue;
      present++;
      if (value === null && optionalNullIsAbsent[i]) return false; // decoding drops it: not a fast-path value
      if (!optionalMembers[i].is(value)) return false;
    }
    // An undeclared member would be stripped: then the object has more keys than declared ones are
    // present. Counting with for-in costs no hash lookup and no allocation (Object.keys allocates).
    // A key whose value is `undefined` also makes the counts differ; decoding then handles it.
    if (declared) {
      let keys = 0;
      for (const _key in u) keys++;
      if (keys !== present) return false;
    }
    return true;
  };

  // One pass over the declared members (io-ts's intersection of `type` and `partial` validates the
  // object twice and merges the halves); the input is copied only when something changes (a default
  // filled, a `null` dropped, a member stripped), so an unchanged value is returned as it is.
  const validate = (u: unknown, context: t.Context): t.Validation<StructType<R, O>> => {
    if (is(u)) return t.success(u);
    if (!isPlainObject(u)) return t.failure(u, context, `expected ${name} (a JSON object)`);
    const mark = strippedMark();
    let out: Record<string, unknown> | undefined;
    let errors: t.ValidationError[] | undefined;
    let restoreCause: (() => void) | undefined; // set once a required member turns out unrecognisable
    if (declared) {
      for (const key of Object.keys(u)) {
        if (declared.has(key)) continue;
        out ??= { ...u };
        delete out[key];
        noteUnknownProperty(`${pointerOf(context)}/${escape(key)}`, name, key);
      }
    }
    const check = (key: string, member: t.Mixed, value: unknown, isRequired: boolean) => {
      const memberContext = t.appendContext(context, key, member, value);
      const result = member.validate(value, memberContext);
      if (result._tag === "Left") (errors ??= []).push(...result.left);
      else if (isUnrecognised(result.right)) {
        if (isRequired) restoreCause ??= keepCause();
        else {
          out ??= { ...u };
          delete out[key];
          noteRemoved(pointerOf(memberContext));
        }
      } else if (result.right !== value) (out ??= { ...u })[key] = result.right;
    };
    for (const [key, member] of requiredEntries) check(key, member, u[key], true);
    for (const [key, member, nullIsAbsent] of optionalEntries) {
      const value = u[key];
      if (value === undefined) continue;
      if (value === null && nullIsAbsent) {
        out ??= { ...u };
        delete out[key];
        continue;
      }
      check(key, member, value, false);
    }
    if (errors) {
      rollBack(mark); // a failed value strips nothing (it may be one branch of a union)
      return t.failures(errors);
    }
    if (restoreCause !== undefined) {
      rollBack(mark); // removed whole by the container: what was stripped inside it is moot
      restoreCause(); // and the removal is reported with the required member's cause
      return propagate();
    }
    return t.success((out ?? u) as StructType<R, O>); // every declared member was just validated by its codec
  };

  const codec = guardDecode(new t.Type<StructType<R, O>, StructOutput<R, O>, unknown>(name, is, validate, inner.encode));
  return Object.assign(codec, { required, optional, open: options.open === true });
}

/** RFC 6901 escaping of one member name. */
function escape(key: string): string {
  return key.replace(/~/g, "~0").replace(/\//g, "~1");
}

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
        noteRemoved(pointerOf(context));
        return t.success(fallback);
      }
      return result;
    },
    codec.encode,
  );
  return Object.assign(defaulted, { base: codec, fallback });
}

/**
 * A closed set of string values (a role, a subtype, a status). A string outside the set is
 * unrecognised material, stripped by the container (1.1); anything that is not a string is a
 * malformed value and fails.
 *
 * @example
 * const Status = enumOf("ResumeStatus", ["resolved", "cancelled"]);
 */
export function enumOf<const V extends readonly [string, ...string[]]>(name: string, values: V): t.Type<V[number], V[number], unknown> {
  const known: ReadonlySet<string> = new Set(values);
  const listed = values.join(", ");
  const is = (u: unknown): u is V[number] => typeof u === "string" && known.has(u);
  return guardDecode(
    new t.Type<V[number], V[number], unknown>(
      name,
      is,
      (u, context) => {
        if (is(u)) return t.success(u);
        if (typeof u !== "string") return t.failure(u, context, `expected ${name} (one of ${listed})`);
        return unrecognised(context, `unknown value ${JSON.stringify(u)} (${name} is one of ${listed})`);
      },
      t.identity,
    ),
  );
}

/**
 * An array of `codec` values. An unrecognised element is dropped and the list survives (1.1);
 * with `atomic`, an unrecognised element makes the whole list unrecognised instead (a JSON Patch:
 * applying the other operations without it could build a value the producer never had).
 *
 * @example
 * const Parts = list(InputContent); // [{ type: "hologram" }, { type: "text", text: "hi" }] → [{ type: "text", text: "hi" }]
 */
export function list<C extends t.Mixed>(codec: C, options: { readonly atomic?: boolean } = {}): t.Type<t.TypeOf<C>[], t.OutputOf<C>[], unknown> {
  const array = t.array(codec);
  return guardDecode(
    new t.Type<t.TypeOf<C>[], t.OutputOf<C>[], unknown>(
      array.name,
      array.is,
      (u, context) => {
        if (array.is(u)) return t.success(u);
        if (!Array.isArray(u)) return t.failure(u, context, `expected ${array.name} (a JSON array)`);
        const mark = strippedMark();
        let out: unknown[] | undefined;
        let errors: t.ValidationError[] | undefined;
        for (let i = 0; i < u.length; i++) {
          const element: unknown = u[i];
          const elementContext = t.appendContext(context, String(i), codec, element);
          const result = codec.validate(element, elementContext);
          if (result._tag === "Left") {
            (errors ??= []).push(...result.left);
          } else if (isUnrecognised(result.right)) {
            if (options.atomic) {
              rollBack(mark);
              return propagate();
            }
            out ??= u.slice(0, i);
            noteRemoved(pointerOf(elementContext));
          } else if (out !== undefined) out.push(result.right);
          else if (result.right !== element) (out = u.slice(0, i)).push(result.right);
        }
        if (errors) {
          rollBack(mark);
          return t.failures(errors);
        }
        return t.success((out ?? u) as t.TypeOf<C>[]); // every element was just validated by its codec
      },
      array.encode,
    ),
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
  (u, context) =>
    typeof u === "number" && Number.isInteger(u) && u >= 0 ? t.success(u) : t.failure(u, context),
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

/** The decoded type of a tagged union built from a record of member codecs. */
export type TaggedUnionType<M extends Record<string, t.Mixed>> = { [K in keyof M]: t.TypeOf<M[K]> }[keyof M];

/** A tagged union codec that also exposes its members by tag. */
export interface TaggedUnionCodec<M extends Record<string, t.Mixed>>
  extends t.Type<TaggedUnionType<M>, unknown, unknown> {
  readonly tag: string;
  readonly members: M;
}

/** Options of `taggedUnion`. */
export interface TaggedUnionOptions {
  /**
   * What an unknown tag (a string naming no member) is: `unrecognised` (the default, 1.1) leaves
   * it to the container to strip; `error` fails, naming the tag (the event union: an unknown event
   * type fails the run, seed 001).
   */
  readonly unknownTag?: "unrecognised" | "error";
}

/**
 * A union discriminated by the string member `tag`; `members` maps each tag value to its codec.
 * Decoding looks the codec up by tag. An unknown tag is unrecognised material (or, with
 * `unknownTag: "error"`, a failure whose message quotes it); a missing or non-string tag fails.
 */
export function taggedUnion<M extends Record<string, t.Mixed>>(name: string, tag: string, members: M, options: TaggedUnionOptions = {}): TaggedUnionCodec<M> {
  const has = (value: unknown): value is keyof M & string =>
    typeof value === "string" && Object.prototype.hasOwnProperty.call(members, value);
  const codec = new t.Type<TaggedUnionType<M>, unknown, unknown>(
    name,
    (u): u is TaggedUnionType<M> => isPlainObject(u) && has(u[tag]) && members[u[tag]].is(u),
    (u, context) => {
      if (!isPlainObject(u)) return t.failure(u, context, `expected ${name} (a JSON object with a "${tag}")`);
      const value = u[tag];
      if (!has(value)) {
        const known = Object.keys(members).join(", ");
        const tagContext = t.appendContext(context, tag, t.never, value);
        if (typeof value === "string" && options.unknownTag !== "error") {
          return unrecognised(tagContext, `unknown ${tag} ${JSON.stringify(value)} (${name} is one of ${known})`);
        }
        const what = typeof value === "string" ? `unknown ${tag} "${value}"` : `missing or non-string "${tag}"`;
        return t.failure(value, tagContext, `${name}: ${what} (expected one of ${known})`);
      }
      return members[value].validate(u, context);
    },
    (a) => members[(a as Record<string, string>)[tag]].encode(a),
  );
  return Object.assign(guardDecode(codec), { tag, members });
}
