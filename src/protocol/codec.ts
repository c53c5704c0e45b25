/**
 * Small io-ts combinators the protocol codecs are made of. They exist for three wire facts
 * io-ts does not model on its own: optional fields that producers send as `null`, defaults that
 * a consumer fills in, and unions that are discriminated by one key (decoded in O(1), with an
 * error that names the unknown tag instead of listing every member's failure).
 */
import * as t from "io-ts";

/** Optional keys whose `null` is an error rather than "absent" (WIRE §1.4: both revisions reject them). */
const NULL_IS_AN_ERROR = ["subagentRunId", "metadata"] as const;

export interface StructOptions {
  /** Optional keys on which `null` must be rejected instead of read as absent. */
  readonly nullIsError?: readonly string[];
  /** Keys that may not appear besides the declared ones (closed objects such as outcomes). */
  readonly closed?: boolean;
}

/** The decoded type of a struct: required props plus optional ones. */
export type StructType<R extends t.Props, O extends t.Props> = t.TypeOf<t.TypeC<R>> & t.TypeOf<t.PartialC<O>>;
export type StructOutput<R extends t.Props, O extends t.Props> = t.OutputOf<t.TypeC<R>> & t.OutputOf<t.PartialC<O>>;

/** A struct codec that also exposes its declared keys (used by the decoders and builders). */
export interface StructCodec<R extends t.Props, O extends t.Props>
  extends t.Type<StructType<R, O>, StructOutput<R, O>, unknown> {
  readonly required: R;
  readonly optional: O;
  /** Whether members besides the declared ones are rejected (read by the client tools' JSON Schema derivation). */
  readonly closed: boolean;
}

const isPlainObject = (u: unknown): u is Record<string, unknown> =>
  typeof u === "object" && u !== null && !Array.isArray(u);

/**
 * An object codec with required and optional members.
 * Decoding reads `null` on an optional member as absent (the key is removed), except for the
 * members listed in `nullIsError`; unknown members are kept unless the struct is `closed`.
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
  const allowed = options.closed ? new Set([...Object.keys(required), ...Object.keys(optional)]) : undefined;

  // The fast path: a value that already is what decoding would return (no `null` to drop, no
  // default to fill, no member closed out) is checked with `is` alone, which allocates nothing.
  // Decoding (below) runs only for values that need a change or an error report.
  const is = (u: unknown): u is StructType<R, O> => {
    if (!isPlainObject(u)) return false;
    if (allowed) for (const key in u) if (!allowed.has(key)) return false;
    // Indexed loops: this runs once per decoded event, and destructuring iterators cost more here.
    for (let i = 0; i < requiredKeys.length; i++) if (!requiredMembers[i].is(u[requiredKeys[i]])) return false;
    for (let i = 0; i < optionalKeys.length; i++) {
      const value = u[optionalKeys[i]];
      if (value === undefined) continue;
      if (value === null && optionalNullIsAbsent[i]) return false; // decoding drops it: not a fast-path value
      if (!optionalMembers[i].is(value)) return false;
    }
    return true;
  };

  // One pass over the declared members (io-ts's intersection of `type` and `partial` validates the
  // object twice and merges the halves); the input is copied only when a member decodes to a new
  // value (a default filled, a `null` dropped), so unknown members are kept as they are.
  const validate = (u: unknown, context: t.Context): t.Validation<StructType<R, O>> => {
    if (is(u)) return t.success(u);
    if (!isPlainObject(u)) return t.failure(u, context, `expected ${name} (a JSON object)`);
    if (allowed) {
      for (const key of Object.keys(u)) {
        if (!allowed.has(key)) {
          return t.failure(u[key], t.appendContext(context, key, t.never, u[key]), `expected no member "${key}" (${name} is closed)`);
        }
      }
    }
    let out: Record<string, unknown> | undefined;
    let errors: t.ValidationError[] | undefined;
    const check = (key: string, member: t.Mixed, value: unknown) => {
      const result = member.validate(value, t.appendContext(context, key, member, value));
      if (result._tag === "Left") (errors ??= []).push(...result.left);
      else if (result.right !== value) (out ??= { ...u })[key] = result.right;
    };
    for (const [key, member] of requiredEntries) check(key, member, u[key]);
    for (const [key, member, nullIsAbsent] of optionalEntries) {
      const value = u[key];
      if (value === undefined) continue;
      if (value === null && nullIsAbsent) {
        out ??= { ...u };
        delete out[key];
        continue;
      }
      check(key, member, value);
    }
    if (errors) return t.failures(errors);
    return t.success((out ?? u) as StructType<R, O>); // every declared member was just validated by its codec
  };

  const codec = new t.Type<StructType<R, O>, StructOutput<R, O>, unknown>(name, is, validate, inner.encode);
  return Object.assign(codec, { required, optional, closed: options.closed === true });
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
 *
 * @example
 * const Query = t.type({ text: t.string, limit: withDefault(t.number, 10) });
 * Query.decode({ text: "rx" }); // right({ text: "rx", limit: 10 })
 */
export function withDefault<C extends t.Mixed>(codec: C, fallback: t.TypeOf<C>): WithDefaultCodec<C> {
  const defaulted = new t.Type<t.TypeOf<C>, t.OutputOf<C>, unknown>(
    codec.name,
    codec.is,
    (u, context) => (u === undefined || u === null ? t.success(fallback) : codec.validate(u, context)),
    codec.encode,
  );
  return Object.assign(defaulted, { base: codec, fallback });
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

/** An array with at least one element; the type is a non-empty tuple so builders cannot pass `[]`. */
export function nonEmptyArray<C extends t.Mixed>(codec: C, name = `NonEmptyArray<${codec.name}>`) {
  const array = t.array(codec);
  return new t.Type<[t.TypeOf<C>, ...t.TypeOf<C>[]], t.OutputOf<C>[], unknown>(
    name,
    (u): u is [t.TypeOf<C>, ...t.TypeOf<C>[]] => array.is(u) && u.length > 0,
    (u, context) => {
      if (Array.isArray(u) && u.length === 0) return t.failure(u, context, `expected at least one ${codec.name}`);
      return array.validate(u, context) as t.Validation<[t.TypeOf<C>, ...t.TypeOf<C>[]]>; // length checked just above
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

/**
 * A union discriminated by the string member `tag`; `members` maps each tag value to its codec.
 * Decoding looks the codec up by tag, so an unknown tag fails with a message that quotes it.
 */
export function taggedUnion<M extends Record<string, t.Mixed>>(name: string, tag: string, members: M): TaggedUnionCodec<M> {
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
        const what = typeof value === "string" ? `unknown ${tag} "${value}"` : `missing or non-string "${tag}"`;
        return t.failure(value, t.appendContext(context, tag, t.never, value), `${name}: ${what} (expected one of ${known})`);
      }
      return members[value].validate(u, context);
    },
    (a) => members[(a as Record<string, string>)[tag]].encode(a),
  );
  return Object.assign(codec, { tag, members });
}
