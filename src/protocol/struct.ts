/**
 * The object codec of the protocol (AG-UI 1.1 processing model): required and optional members,
 * `null` on an optional member read as absent, members it does not declare stripped (and noted by
 * `unrecognised.ts`), an unrecognised value removing its member or, in a required one, the object.
 */
import * as t from "io-ts";
import { isUnrecognised, keepCause, noteRemoved, noteUnknownProperty, pointerOf, propagate, RecognisingType, rollBack, strippedMark } from "./unrecognised";

/** Optional keys whose `null` is an error rather than "absent" (docs/wire.md#1.4: both revisions reject them). */
const NULL_IS_AN_ERROR = ["subagentRunId", "metadata"] as const;

/**
 * Options of `struct`.
 *
 * @example
 * struct("JsonPatchOperation", { op: t.string, path: t.string }, {}, { open: true });
 */
export interface StructOptions {
  /** Optional keys on which `null` must be rejected instead of read as absent. */
  readonly nullIsError?: readonly string[];
  /**
   * Members the struct does not declare are kept instead of stripped. Only where the schema leaves
   * an object open on purpose: JSON Patch operations (RFC 6902 §4 ignores unknown members).
   */
  readonly open?: boolean;
}

/**
 * The decoded type of a struct: required props plus optional ones. An optional member also takes
 * `undefined` (`?: T | undefined`), which `validate` reads as absent: under `exactOptionalPropertyTypes`
 * io-ts's own `t.partial` face (`?: T`) would refuse `{ name: maybeName }` in a message a user builds.
 */
export type StructType<R extends t.Props, O extends t.Props> = t.TypeOf<t.TypeC<R>> & { [K in keyof O]?: t.TypeOf<O[K]> | undefined };
/** The encoded (wire) type of a struct. */
export type StructOutput<R extends t.Props, O extends t.Props> = t.OutputOf<t.TypeC<R>> & t.OutputOf<t.PartialC<O>>;

/** A struct codec that also exposes its declared keys (used by the decoders and builders). */
export interface StructCodec<R extends t.Props, O extends t.Props> extends t.Type<StructType<R, O>, StructOutput<R, O>, unknown> {
  readonly required: R;
  readonly optional: O;
  /** Whether members besides the declared ones are kept (`open`) rather than stripped (read by the client tools' JSON Schema derivation). */
  readonly open: boolean;
}

/**
 * Whether `u` is a JSON object: not an array, not `null`.
 *
 * @example
 * isPlainObject([]); // false
 */
export function isPlainObject(u: unknown): u is Record<string, unknown> {
  return typeof u === "object" && u !== null && !Array.isArray(u);
}

/**
 * How many enumerable keys `u` has, its own and inherited (for the plain objects `is` checks, its
 * own). Counting with for-in costs no hash lookup and no allocation (Object.keys allocates).
 */
function countKeys(u: Record<string, unknown>): number {
  let keys = 0;
  for (const _key in u) keys++;
  return keys;
}

/**
 * An object codec with required and optional members.
 * Decoding reads `null` on an optional member as absent (the key is removed), except for the
 * members listed in `nullIsError`. A member the struct does not declare is stripped (unless the
 * struct is `open`); an unrecognised value in an optional member removes that member, and in a
 * required member makes the whole object unrecognised, for its container to remove (1.1).
 *
 * @example
 * const Tool = struct("Tool", { name: t.string }, { description: t.string });
 * Tool.decode({ name: "search", description: null, extra: 1 }); // right({ name: "search" }), `extra` noted as stripped
 */
export function struct<R extends t.Props, O extends t.Props>(name: string, required: R, optional: O, options: StructOptions = {}): StructCodec<R, O> {
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
    let present = 0; // declared members present
    for (let i = 0; i < requiredKeys.length; i++) {
      const value = u[requiredKeys[i]];
      if (!requiredMembers[i].is(value)) return false;
      if (value !== undefined) present++; // a required t.unknown may be missing
    }
    // An undeclared member would be stripped: then the object has more keys than declared ones are
    // present. A key whose value is `undefined` also makes the counts differ; decoding handles it.
    const keys = declared ? countKeys(u) : -1;
    // No key but the required members (the common event: a delta): no optional member to look up,
    // and a lookup of a missing key costs more than the count.
    if (keys === present) return true;
    for (let i = 0; i < optionalKeys.length; i++) {
      const value = u[optionalKeys[i]];
      if (value === undefined) continue;
      present++;
      if (value === null && optionalNullIsAbsent[i]) return false; // decoding drops it: not a fast-path value
      if (!optionalMembers[i].is(value)) return false;
    }
    return !declared || keys === present;
  };

  // One pass over the declared members (io-ts's intersection of `type` and `partial` validates the
  // object twice and merges the halves); the input is copied only when something changes (a default
  // filled, a `null` dropped, a member stripped), so an unchanged value is returned as it is.
  const validate = (u: unknown, context: t.Context): t.Validation<StructType<R, O>> => {
    if (is(u)) return t.success(u);
    if (!isPlainObject(u)) return t.failure(u, context, `expected ${name} (a JSON object)`);
    const mark = strippedMark(context);
    let out: Record<string, unknown> | undefined;
    let errors: t.ValidationError[] | undefined;
    let restoreCause: (() => void) | undefined; // set once a required member turns out unrecognisable
    if (declared) {
      for (const key of Object.keys(u)) {
        if (declared.has(key)) continue;
        out ??= { ...u };
        delete out[key];
        noteUnknownProperty(context, `${pointerOf(context)}/${escape(key)}`, name, key);
      }
    }
    const check = (key: string, member: t.Mixed, value: unknown, isRequired: boolean) => {
      const memberContext = t.appendContext(context, key, member, value);
      const result = member.validate(value, memberContext);
      if (result._tag === "Left") (errors ??= []).push(...result.left);
      else if (isUnrecognised(result.right)) {
        if (isRequired) restoreCause ??= keepCause(context);
        else {
          out ??= { ...u };
          delete out[key];
          noteRemoved(memberContext);
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
      rollBack(context, mark); // a failed value strips nothing (it may be one branch of a union)
      return t.failures(errors);
    }
    if (restoreCause !== undefined) {
      rollBack(context, mark); // removed whole by the container: what was stripped inside it is moot
      restoreCause(); // and the removal is reported with the required member's cause
      return propagate();
    }
    return t.success((out ?? u) as StructType<R, O>); // every declared member was just validated by its codec
  };

  const codec = new RecognisingType<StructType<R, O>, StructOutput<R, O>, unknown>(name, is, validate, inner.encode);
  return Object.assign(codec, { required, optional, open: options.open === true });
}

/** RFC 6901 escaping of one member name. */
function escape(key: string): string {
  return key.replace(/~/g, "~0").replace(/\//g, "~1");
}
