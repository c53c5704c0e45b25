/**
 * The seeded operations of the branch property tests: sends, edits, regenerates, switches and
 * history walks, each drawn from the model's selected path so that it always applies. Every draw
 * takes the same three numbers from the sequence, so two clients that name messages differently
 * (new ids for an edit, or the same id) still meet the same operations.
 */
import type { BranchModel } from "./branchModel";

/** One operation on the thread, as a client would make it. */
export type BranchOp =
  | { readonly kind: "send"; readonly content: string }
  | { readonly kind: "edit"; readonly userId: string; readonly content: string }
  | { readonly kind: "regenerate"; readonly userId: string }
  | { readonly kind: "switch"; readonly messageId: string; readonly index: number }
  | { readonly kind: "loadOlder"; readonly limit: number };

/**
 * The operation `step` (counted from 0) of a sequence, drawn with `random` from what `model`
 * shows: a send on an empty thread; a switch only where the path has a group (else a regenerate,
 * which makes one), to a sibling other than the one shown.
 *
 * @example
 * const op = nextOp(random, model, 3); // e.g. { kind: "edit", userId: "u1", content: "edited 3" }
 */
export function nextOp(random: () => number, model: BranchModel, step: number): BranchOp {
  const [kind, target, index] = [random(), random(), random()];
  const users = model.userMessages();
  if (users.length === 0 || kind < 0.3) return { kind: "send", content: `question ${step}` };
  const user = users[Math.floor(target * users.length)];
  if (kind < 0.5) return { kind: "edit", userId: user.id, content: `edited ${step}` };
  if (kind >= 0.9) return { kind: "loadOlder", limit: 1 + Math.floor(index * 3) };
  const grouped = model.messages().filter((message) => model.position(message.id).count > 1);
  if (kind < 0.7 || grouped.length === 0) return { kind: "regenerate", userId: user.id };
  const chosen = grouped[Math.floor(target * grouped.length)];
  const { index: shown, count } = model.position(chosen.id);
  return { kind: "switch", messageId: chosen.id, index: (shown + 1 + Math.floor(index * (count - 1))) % count };
}

/** How an operation reads in a failure message: `edit u3 "edited 4"`. */
export function describeOp(op: BranchOp): string {
  switch (op.kind) {
    case "send":
      return `send ${JSON.stringify(op.content)}`;
    case "edit":
      return `edit ${op.userId} ${JSON.stringify(op.content)}`;
    case "regenerate":
      return `regenerate ${op.userId}`;
    case "switch":
      return `switch ${op.messageId} to ${op.index}`;
    case "loadOlder":
      return `loadOlder by ${op.limit}`;
  }
}
