/** The state a new sibling starts from (docs/threads.md#the-tree), read off the path's checkpoints: the same rule for the fold and for the handler that plans the run. */
import type { Checkpoint } from "./BranchTree";
import type { PathView } from "./groupAfter";

/**
 * What a new sibling starts with: a `user` message (an edit, or another question in place of what
 * followed) or an `answer` (a regenerate: the run's own messages come first).
 *
 * @example
 * const head: SiblingHead = input.messages.length === 0 ? "answer" : "user";
 */
export type SiblingHead = "user" | "answer";

/**
 * The state a sibling group at path position `at` starts from: the state at the start of the run
 * that added the user message it answers or replaces, the last checkpoint at or before that
 * message. An `answer` right after a user message (a regenerate) answers the message before `at`;
 * a `user` head (an edit) replaces the one at `at`, and so does an answer that does not follow a
 * user message. The head decides where the path has two user messages in a row (a run that failed
 * before it answered, then another question): a new answer to the first starts from the state
 * before the first's run, an edit of the second from the state before the second's. `{}` (no
 * state yet) before any checkpoint. `head` defaults to `answer`.
 *
 * @example
 * stateBefore([{ at: 0, state: { n: 1 } }, { at: 2, state: { n: 2 } }], pathOf([u1, a1, u2, a2]), 3); // { n: 2 }
 */
export function stateBefore(checkpoints: readonly Checkpoint[], path: PathView, at: number, head: SiblingHead = "answer"): unknown {
  const answers = head === "answer" && at > 0 && at <= path.length && path.at(at - 1).role === "user";
  const userAt = answers ? at - 1 : at;
  let state: unknown = {};
  for (const checkpoint of checkpoints) if (checkpoint.at <= userAt) state = checkpoint.state;
  return state;
}
