/** Turns io-ts decode errors of a request body into one sentence and a JSON Pointer. */
import type * as t from "io-ts";
import { describeFailure, excerpt } from "../../protocol/describeFailure";

/** The first (most specific) failure: where it is, what was expected there, and the sentence for the user. */
export interface InvalidInput {
  /** JSON Pointer of the offending member (`""` for the body itself). */
  readonly path: string;
  readonly message: string;
}

/**
 * Describes why a body is not a `RunAgentInput` (or the `what` a route expects): the deepest failure wins (a union reports one
 * failure per member; the deepest names the member that is actually wrong), codec plumbing (union
 * indices, the two halves of a struct) is left out of the path.
 *
 * @example
 * describeInvalidInput(errors) // { path: "/messages/0/role", message: "invalid RunAgentInput at /messages/0/role: …, got \"robot\"" }
 */
export function describeInvalidInput(errors: t.Errors, what = "RunAgentInput"): InvalidInput {
  const { path, expected, actual } = describeFailure(errors);
  const where = path ? ` at ${path}` : "";
  return { path, message: `invalid ${what}${where}: ${expected}, got ${excerpt(actual)}` };
}
