/** Edit and regenerate (docs/threads.md#edit-and-regenerate): whether a post starts a new sibling, and after which message of the path. */
import { forkRequestOf } from "../../protocol/branchMeta";
import type { RunAgentInput } from "../../protocol/input";
import type { Message } from "../../protocol/messages";
import type { HistoryRefusal } from "./HistoryRefusal";
import { matchAnchor } from "./matchAnchor";
import { sameMessage } from "./sameMessage";

/**
 * A post that starts a sibling: the path is kept up to position `at` (right after the message
 * `after`, `null` for the thread's start), and `added` are the post's new messages there (none
 * for a regenerate).
 *
 * @example
 * const fork: ForkPlan = { kind: "fork", after: "u1", at: 1, added: [] }; // another answer to u1
 */
export interface ForkPlan {
  readonly kind: "fork";
  readonly after: string | null;
  readonly at: number;
  readonly added: readonly Message[];
}

/**
 * Whether `input` (its `posted` messages, activity left out) starts a sibling on `path` (the
 * stored selected path): `undefined` when it continues the path (the anchor rule applies as
 * before), a `ForkPlan`, or a refusal.
 *
 * - **Named** (our Session): `forwardedProps["agui-rx"].forkAfter` names the message the new
 *   sibling follows. It must be on the path (a 409 `history-conflict` otherwise); what the post
 *   repeats of the path must come at or before it; the rest is new. Naming the path's last message
 *   continues the path.
 * - **Inferred** (any client that posts the whole path, as the official `HttpAgent` does): the
 *   post repeats the path from its start, equal message for message, and then either carries a
 *   user message where the path has a different user message (an edit, the same id or a new one:
 *   ids are unique along a path, not across the tree; a post that repeats nothing edits only a
 *   message of the same id, else it is new messages anchored at the path's end), or ends at a user message the path goes on
 *   to answer, with no `resume` (a regenerate).
 *
 * @example
 * findFork([u1, a1], [u1], input); // { kind: "fork", after: "u1", at: 1, added: [] }
 */
export function findFork(path: readonly Message[], posted: readonly Message[], input: RunAgentInput): ForkPlan | HistoryRefusal | undefined {
  const request = forkRequestOf(input.forwardedProps);
  if (request === "malformed") {
    return {
      error: "history-conflict",
      message: 'expected forwardedProps["agui-rx"].forkAfter to be a message id or null, but it is neither',
      messageId: posted[posted.length - 1]?.id ?? "",
    };
  }
  if (request !== undefined) return namedFork(path, posted, request.forkAfter);
  return inferredFork(path, posted, input);
}

function namedFork(path: readonly Message[], posted: readonly Message[], after: string | null): ForkPlan | HistoryRefusal | undefined {
  const at = after === null ? 0 : path.findIndex((message) => message.id === after) + 1;
  if (after !== null && at === 0) {
    return {
      error: "history-conflict",
      message: `expected the fork point ${JSON.stringify(after)} to be a message of the thread's selected path, but it is not`,
      messageId: after,
    };
  }
  if (at >= path.length) return undefined;
  const anchored = matchAnchor(path.slice(0, at), posted);
  if ("error" in anchored) return anchored;
  return { kind: "fork", after, at, added: anchored.after };
}

function inferredFork(path: readonly Message[], posted: readonly Message[], input: RunAgentInput): ForkPlan | undefined {
  let at = 0;
  let k = 0;
  for (; k < posted.length; k++) {
    at = skipActivity(path, at);
    if (at >= path.length || posted[k].id !== path[at].id || sameMessage(posted[k], path[at]) !== undefined) break;
    at++;
  }
  const next = skipActivity(path, at);
  if (next >= path.length) return undefined; // the post reaches the path's end: it continues it
  const after = at === 0 ? null : path[at - 1].id;
  if (k < posted.length) {
    // an edit: a user message where the path has another user message, after the path's start
    // repeated (or in place: the same id); a post of new messages alone anchors at the path's end
    const edits = posted[k].role === "user" && path[next].role === "user" && (k > 0 || posted[k].id === path[next].id);
    return edits ? { kind: "fork", after, at, added: posted.slice(k) } : undefined;
  }
  // a regenerate: the post ends at a user message the path goes on to answer
  const last = posted[posted.length - 1];
  return last !== undefined && last.role === "user" && input.resume === undefined ? { kind: "fork", after, at, added: [] } : undefined;
}

/** The first position at or after `from` that holds no activity message (clients never post those). */
function skipActivity(path: readonly Message[], from: number): number {
  let at = from;
  while (at < path.length && path[at].role === "activity") at++;
  return at;
}
