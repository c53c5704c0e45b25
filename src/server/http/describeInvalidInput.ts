/** Turns io-ts decode errors of a request body into one sentence and a JSON Pointer. */
import type * as t from "io-ts";

/** The first (most specific) failure: where it is, what was expected there, and the sentence for the user. */
export interface InvalidInput {
  /** JSON Pointer of the offending member (`""` for the body itself). */
  readonly path: string;
  readonly message: string;
}

/**
 * Describes why a body is not a `RunAgentInput`: the deepest failure wins (a union reports one
 * failure per member; the deepest names the member that is actually wrong), codec plumbing (union
 * indices, the two halves of a struct) is left out of the path.
 *
 * @example
 * describeInvalidInput(errors) // { path: "/messages/0/role", message: "invalid RunAgentInput at /messages/0/role: …, got \"robot\"" }
 */
export function describeInvalidInput(errors: t.Errors): InvalidInput {
  let first = errors[0];
  for (const error of errors) if (error.context.length > (first?.context.length ?? 0)) first = error;
  const entries = first?.context ?? [];
  const segments: string[] = [];
  for (let i = 1; i < entries.length; i++) {
    if (isPlumbing(entries[i - 1].type, entries[i].type)) continue;
    segments.push(entries[i].key.replace(/~/g, "~0").replace(/\//g, "~1"));
  }
  const path = segments.length ? `/${segments.join("/")}` : "";
  const expected = first?.message ?? `expected ${entries[entries.length - 1]?.type.name ?? "RunAgentInput"}`;
  const where = path ? ` at ${path}` : "";
  return { path, message: `invalid RunAgentInput${where}: ${expected}, got ${excerpt(first?.value)}` };
}

/** A context entry that is codec structure rather than a JSON member. */
function isPlumbing(parent: t.Decoder<unknown, unknown>, own: t.Decoder<unknown, unknown>): boolean {
  // io-ts tags its built-in codecs; reading the tag is the only way to tell structure from members.
  const parentTag = (parent as { _tag?: string })._tag;
  const ownTag = (own as { _tag?: string })._tag;
  return parentTag === "UnionType" || ownTag === "InterfaceType" || ownTag === "PartialType" || ownTag === "IntersectionType";
}

function excerpt(value: unknown): string {
  if (value === undefined) return "nothing (the member is missing)";
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}
