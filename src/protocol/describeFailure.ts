/**
 * The one io-ts error reporter of the library, kept apart from decoding as io-ts keeps its
 * reporters apart: it turns a failed validation into where (a JSON Pointer), what was expected
 * and what arrived. Events, request bodies, agent state and client state all report through it.
 */
import type * as t from "io-ts";

/** The most specific failure of a validation. */
export interface Failure {
  /** The member names and indices from the validated value down to the failure (codec plumbing left out). */
  readonly segments: readonly string[];
  /** The same, as an RFC 6901 JSON Pointer (`""` for the value itself). */
  readonly path: string;
  /** What the codec expected there, as a phrase that starts with "expected". */
  readonly expected: string;
  /** What arrived there. */
  readonly actual: unknown;
  /** How many failures the validation reported in all. */
  readonly count: number;
}

/**
 * Picks the deepest failure (a union reports one failure per member; the deepest names the member
 * that is actually wrong) and describes it.
 *
 * @example
 * describeFailure(errors) // { path: "/messages/0/role", expected: "expected \"user\"", actual: "robot", … }
 */
export function describeFailure(errors: t.Errors): Failure {
  let first = errors[0];
  for (const error of errors) if (error.context.length > (first?.context.length ?? 0)) first = error;
  const entries = first?.context ?? [];
  const segments: string[] = [];
  for (let i = 1; i < entries.length; i++) {
    if (isPlumbing(entries[i - 1].type, entries[i].type)) continue;
    if (entries[i].key !== "") segments.push(entries[i].key);
  }
  const path = segments.map((segment) => `/${segment.replace(/~/g, "~0").replace(/\//g, "~1")}`).join("");
  const expected = first?.message ?? `expected ${entries[entries.length - 1]?.type.name ?? "a valid value"}`;
  return { segments, path, expected, actual: first?.value, count: errors.length };
}

/**
 * Context entries that are codec structure rather than JSON members: a union's member index, and
 * the halves of an intersection (the library's structs are an intersection of `t.type` and
 * `t.partial`). io-ts tags its built-in codecs; reading the tag is the only way to tell them apart.
 */
function isPlumbing(parent: t.Decoder<unknown, unknown>, own: t.Decoder<unknown, unknown>): boolean {
  const parentTag = (parent as { _tag?: string })._tag;
  const ownTag = (own as { _tag?: string })._tag;
  return parentTag === "UnionType" || ownTag === "InterfaceType" || ownTag === "PartialType" || ownTag === "IntersectionType";
}

/**
 * A short, single-line rendering of a value for error messages. Never throws: a value that JSON
 * cannot render (a BigInt, a cycle, a value nested past the call stack, a throwing getter or
 * proxy) falls back to `String(value)`, and if that throws too, to a description of its kind.
 *
 * @example
 * excerpt({ a: 1 }) // '{"a":1}'
 */
export function excerpt(value: unknown, max = 80): string {
  if (value === undefined) return "nothing (the member is missing)";
  const text = render(value);
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** JSON text, else `String()`, else the kind of value: the three get more robust in that order. */
function render(value: unknown): string {
  try {
    const json = JSON.stringify(value);
    if (json !== undefined) return json;
  } catch {
    // not JSON-renderable: try the next form
  }
  try {
    return String(value);
  } catch {
    // `String()` overflows on deep arrays and throws on objects without a usable toString
  }
  return `a value of type ${typeof value} that cannot be shown`; // `typeof` is the one read that cannot throw
}
