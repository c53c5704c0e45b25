/** The state a new sibling starts from (docs/threads.md#the-tree), read off the path's checkpoints: the same rule for the fold and for the handler that plans the run. */
import type { Checkpoint } from "./BranchTree";
import type { PathView } from "./groupAfter";

/**
 * The state at the start of the run that added the user message a sibling group at path position
 * `at` answers (the message before `at` is a user message: a regenerate) or replaces (an edit):
 * the last checkpoint at or before that message. `{}` (no state yet) before any checkpoint.
 *
 * @example
 * stateBefore([{ at: 0, state: { n: 1 } }, { at: 2, state: { n: 2 } }], pathOf([u1, a1, u2, a2]), 3); // { n: 2 }
 */
export function stateBefore(checkpoints: readonly Checkpoint[], path: PathView, at: number): unknown {
  const answers = at > 0 && at <= path.length && path.at(at - 1).role === "user";
  const userAt = answers ? at - 1 : at;
  let state: unknown = {};
  for (const checkpoint of checkpoints) if (checkpoint.at <= userAt) state = checkpoint.state;
  return state;
}
