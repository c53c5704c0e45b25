/**
 * Unrecognised material (AG-UI 1.1 processing model): how the codecs strip what the protocol does
 * not describe, and how they record what they removed. Decoding is synchronous, so the record is a
 * module-level list that `collectStripped` installs for the length of one decode; codecs called
 * outside it strip silently.
 *
 * The rules (`/spec/1.1/basic/processing`): a property an object does not declare is removed; a
 * union member or enum value that is not known (a string the schema does not name) is removed where
 * it stands when that position is optional, takes its containing value with it when the position is
 * required, and is dropped from a list that holds it. A malformed known value (a number where a
 * string belongs, a missing tag) is not unrecognised material: it stays a decode failure.
 */
import * as t from "io-ts";

/**
 * What a codec returns (as a successful value) for a value it does not recognise: the container
 * decides whether that removes a member, a list element, or the container itself.
 */
export const UNRECOGNISED: unique symbol = Symbol("agui-rx: unrecognised material");

/**
 * One piece of material decoding removed.
 *
 * @example
 * const stripped: Stripped = { code: "unknown-property", path: "/vendorField", reason: 'TEXT_MESSAGE_CONTENT has no member "vendorField"' };
 */
export interface Stripped {
  /** `unknown-property`: a member the object does not declare; `unknown-member`: an unrecognised union member or enum value. */
  readonly code: "unknown-property" | "unknown-member";
  /** JSON Pointer of what was removed, from the decoded value's root (`""`: the value itself). */
  readonly path: string;
  /** Why, naming the unrecognised value and where it sat. */
  readonly reason: string;
}

let sink: Stripped[] | undefined;
/** The innermost unrecognised value of the removal under way: set where it is met, read where it is removed. */
let cause: { readonly path: string; readonly what: string } | undefined;

/** What `collectStripped` returns. */
export interface Collected<R> {
  readonly result: R;
  /** Everything removed, in the order it was met. */
  readonly stripped: readonly Stripped[];
  /** When the decoded value as a whole was unrecognisable (e.g. an event dropped whole): why. */
  readonly dropped: string | undefined;
}

/**
 * Runs `decode` and returns its result with everything the codecs stripped meanwhile, in order.
 * Re-entrant: an outer collection resumes when the inner one returns.
 *
 * @example
 * const { result, stripped, dropped } = collectStripped(() => Event.validate(json, [{ key: "", type: Event, actual: json }]));
 */
export function collectStripped<A>(decode: () => t.Validation<A>): Collected<t.Validation<A>> {
  const outer = sink;
  const outerCause = cause;
  const own: Stripped[] = [];
  sink = own;
  cause = undefined;
  try {
    const result = decode();
    const dropped = result._tag === "Right" && isUnrecognised(result.right) ? describeCause("") : undefined;
    return { result, stripped: own, dropped };
  } finally {
    sink = outer;
    cause = outerCause;
  }
}

/** Why the value at `removed` is being removed: the innermost unrecognised value met last. */
function describeCause(removed: string): string {
  if (cause === undefined) return "it holds unrecognised material";
  return cause.path === removed ? cause.what : `${cause.path === "" ? "the value" : cause.path} holds ${cause.what}`;
}

/** Whether a decoded value is the UNRECOGNISED marker. */
export function isUnrecognised(value: unknown): value is typeof UNRECOGNISED {
  return value === UNRECOGNISED;
}

/**
 * A successful validation carrying the marker. A codec boundary: the marker stands in for a value
 * of type A that does not exist, and every container of this module checks for it before using the
 * value, so it never reaches a caller of `decode` (see `guardDecode`).
 */
export function unrecognised<A>(context: t.Context, what: string): t.Validation<A> {
  cause = { path: pointerOf(context), what };
  return t.success(UNRECOGNISED as unknown as A); // see the doc comment: the marker never escapes the codecs
}

/**
 * The marker for a container whose required member was unrecognisable; unlike `unrecognised`, it
 * keeps the cause that member recorded, which is what the removal reports.
 */
export function propagate<A>(): t.Validation<A> {
  return t.success(UNRECOGNISED as unknown as A); // as in `unrecognised`: the marker never escapes the codecs
}

/**
 * Remembers the current cause; the returned function puts it back. A container whose required
 * member was unrecognised calls it before validating its other members, whose own unrecognised
 * values would otherwise take the place of the cause its removal reports.
 */
export function keepCause(): () => void {
  const kept = cause;
  return () => {
    cause = kept;
  };
}

/** The sink's length, to roll back to when what was recorded since turns out to be moot. */
export function strippedMark(): number {
  return sink?.length ?? 0;
}

/** Forgets what was recorded after `mark` (a failed branch, or a value that is removed whole). */
export function rollBack(mark: number): void {
  if (sink !== undefined && sink.length > mark) sink.length = mark;
}

/** Records an unknown property at `path`. */
export function noteUnknownProperty(path: string, owner: string, key: string): void {
  sink?.push({ code: "unknown-property", path, reason: `${owner} has no member ${JSON.stringify(key)}` });
}

/** Records the removal of the value at `path` because of the unrecognised value met last. */
export function noteRemoved(path: string): void {
  sink?.push({ code: "unknown-member", path, reason: describeCause(path) });
}

/**
 * The JSON Pointer of a validation context: the member names and indices from the root, leaving
 * out the plumbing entries io-ts adds (a `t.union`'s member index).
 *
 * @example
 * pointerOf(context) // "/messages/2/content/0"
 */
export function pointerOf(context: t.Context): string {
  let out = "";
  for (let i = 1; i < context.length; i++) {
    const parentTag = (context[i - 1].type as { _tag?: string })._tag; // io-ts tags its built-in codecs; the tag is the only way to tell
    if (parentTag === "UnionType" || context[i].key === "") continue;
    out += `/${context[i].key.replace(/~/g, "~0").replace(/\//g, "~1")}`;
  }
  return out;
}

/**
 * Gives a codec a `decode` that never returns the marker: a value unrecognisable as a whole is a
 * failure there ("expected … got an unrecognised …"), for callers that decode one value directly.
 */
export function guardDecode<A, O>(codec: t.Type<A, O, unknown>): t.Type<A, O, unknown> {
  const validate = codec.validate.bind(codec);
  codec.decode = (input) => {
    const result = validate(input, [{ key: "", type: codec, actual: input }]);
    if (result._tag === "Right" && isUnrecognised(result.right)) {
      return { _tag: "Left", left: [{ value: input, context: [{ key: "", type: codec, actual: input }], message: `expected a recognisable ${codec.name}, but ${describeCause("")}` }] };
    }
    return result;
  };
  return codec;
}
