/** Edit and regenerate (docs/threads.md#edit-and-regenerate): whether a post starts a new sibling, and after which message of the path. */
import { forkRequestOf } from "../../protocol/branchMeta";
import type { RunAgentInput } from "../../protocol/input";
import type { Message } from "../../protocol/messages";
import type { HistoryRefusal } from "./HistoryRefusal";
import { groupAfter, pathOf } from "../../thread/branches/groupAfter";
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
 *   sibling follows. Naming the path's last message continues the path. Otherwise each of these
 *   is a 409 `history-conflict`: a fork point not on the path, or not where a sibling group
 *   starts (the message after it must be a user message or the head of its answer); a post that
 *   repeats a message the path holds past the fork point; a run that adds nothing (a regenerate)
 *   after anything but a user message. What the post repeats of the path up to the fork point
 *   follows the anchor rule; the rest is new.
 * - **Inferred** (any client that posts the whole path, as the official `HttpAgent` does): the
 *   post repeats the path from its start, equal message for message, and then either carries a
 *   user message where the path has a different user message (an edit, the same id or a new one:
 *   ids are unique along a path, not across the tree; a post that repeats nothing edits only a
 *   message of the same id, else it is new messages anchored at the path's end), or ends at a
 *   user message the path goes on to answer, with no `resume` (a regenerate). A message of the
 *   kept path posted again after the edit is a 409 `history-conflict`.
 *
 * @example
 * findFork([u1, a1], [u1], input); // { kind: "fork", after: "u1", at: 1, added: [] }
 */
export function findFork(path: readonly Message[], posted: readonly Message[], input: RunAgentInput): ForkPlan | HistoryRefusal | undefined {
  const request = forkRequestOf(input.forwardedProps);
  if (request === "malformed") {
    return conflict(posted[posted.length - 1]?.id ?? "", 'expected forwardedProps["agui-rx"].forkAfter to be a message id or null, but it is neither');
  }
  if (request !== undefined) return namedFork(path, posted, request.forkAfter);
  const inferred = inferredFork(path, posted, input);
  if (inferred === undefined) return undefined;
  // what the post repeats of the path comes first, in order: a kept message again after the edit is out of place
  const kept = new Set(path.slice(0, inferred.at).map((message) => message.id));
  const again = inferred.added.find((message) => kept.has(message.id));
  return again === undefined
    ? inferred
    : conflict(again.id, `expected the messages after the edited one to be new, but ${quote(again.id)} is a message of the path before it`);
}

function namedFork(path: readonly Message[], posted: readonly Message[], after: string | null): ForkPlan | HistoryRefusal | undefined {
  const at = after === null ? 0 : path.findIndex((message) => message.id === after) + 1;
  if (after !== null && at === 0) {
    return conflict(after, `expected the fork point ${quote(after)} to be a message of the thread's selected path, but it is not`);
  }
  if (at >= path.length) return undefined;
  const misplaced = misplacedForkPoint(path, at, after);
  if (misplaced !== undefined) return misplaced;
  const anchored = matchAnchor(path.slice(0, at), posted);
  if ("error" in anchored) return anchored;
  // ids are unique along a path: a message the path holds past the fork point is the old sibling's, never the new one's
  const past = new Set(path.slice(at).map((message) => message.id));
  const repeated = anchored.after.find((message) => past.has(message.id));
  if (repeated !== undefined) {
    return conflict(
      repeated.id,
      `expected the post to repeat the path only up to the fork point ${quote(after)}, but it repeats ${quote(repeated.id)}, which the path holds after it`,
    );
  }
  if (anchored.after.length === 0 && at > 0 && path[at - 1].role !== "user") {
    return conflict(
      after ?? "",
      `expected a run that adds no message (a regenerate) to fork after a user message, but the fork point ${quote(after)} is a ${path[at - 1].role} message`,
    );
  }
  return { kind: "fork", after, at, added: anchored.after };
}

/**
 * A refusal when a sibling group cannot start right after `after` (docs/threads.md#the-tree): the
 * message the path holds there must head a group that follows `after` (a user message, or the
 * first message of a user message's answer), else no switch could ever reach the new sibling.
 */
function misplacedForkPoint(path: readonly Message[], at: number, after: string | null): HistoryRefusal | undefined {
  const group = groupAfter(pathOf(path), at);
  if (group === after) return undefined;
  return conflict(
    after ?? "",
    `expected the fork point ${quote(after)} to be where a sibling group starts (a user message, or the message right before one), ` +
      `but ${quote(path[at].id)} after it belongs to the answer to ${quote(group)}`,
  );
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

function conflict(messageId: string, message: string): HistoryRefusal {
  return { error: "history-conflict", message, messageId };
}

function quote(id: string | null): string {
  return JSON.stringify(id);
}

/** The first position at or after `from` that holds no activity message (clients never post those). */
function skipActivity(path: readonly Message[], from: number): number {
  let at = from;
  while (at < path.length && path[at].role === "activity") at++;
  return at;
}
