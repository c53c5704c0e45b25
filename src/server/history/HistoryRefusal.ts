/** Why a posted history was refused (docs/threads.md#what-a-request-may-add): a 409 conflict or a 422 forgery, naming the message and the rule. */

/**
 * The rule a forged message broke (`HttpErrorBody.rule`): `agent-role` (an `assistant` or
 * `reasoning` message: only the agent says those), `seed-after-start` (a `system` or `developer`
 * message on a thread that already has runs), `tool-not-pending` (a tool result for a call the
 * thread does not wait on the client for), `duplicate-id` (two new messages with one id).
 *
 * @example
 * const rule: ForgeryRule = "tool-not-pending";
 */
export type ForgeryRule = "agent-role" | "seed-after-start" | "tool-not-pending" | "duplicate-id";

/**
 * A refused post: `history-conflict` (409: the post leaves the stored path, or changes a stored
 * message) or `history-forged` (422: it adds a message a request may not add, `rule` says which
 * rule), with the id of the posted message at fault and a sentence saying what was expected.
 *
 * @example
 * const refusal: HistoryRefusal = { error: "history-forged", message: "…", messageId: "a9", rule: "agent-role" };
 */
export type HistoryRefusal =
  | { readonly error: "history-conflict"; readonly message: string; readonly messageId: string }
  | { readonly error: "history-forged"; readonly message: string; readonly messageId: string; readonly rule: ForgeryRule };

/**
 * The HTTP status of a refusal: 409 for a conflict, 422 for a forgery.
 *
 * @example
 * refusalStatus({ error: "history-forged", message: "…", messageId: "a9", rule: "agent-role" }); // 422
 */
export function refusalStatus(refusal: HistoryRefusal): 409 | 422 {
  switch (refusal.error) {
    case "history-conflict":
      return 409;
    case "history-forged":
      return 422;
    default: {
      const unexpected: never = refusal;
      return unexpected;
    }
  }
}
