/**
 * A thread's tree as the store keeps it beside the selected path (docs/threads.md#the-tree): the
 * forks on the path, each holding the siblings that are not shown as frozen branches, and the
 * checkpoints of the state along the path. Plain JSON with codecs, so a store that persists the
 * snapshot (Redis) reads the tree back.
 */
import * as t from "io-ts";
import { Present, struct } from "../../protocol/codec";
import { BranchGroup } from "../../protocol/branchMeta";
import { Message } from "../../protocol/messages";
import type { NamedStructCodec } from "../../protocol/namedCodec";
import { Interrupt } from "../../protocol/outcomes";

const CheckpointCodec = /* @__PURE__ */ struct("Checkpoint", { at: t.number, state: Present }, {});
/**
 * The state at the start of a run when the path held `at` messages. Kept only where the state
 * changed since the checkpoint before it, so a thread whose state never changes keeps none.
 *
 * @example
 * const checkpoint: Checkpoint = { at: 4, state: { count: 2 } };
 */
export interface Checkpoint extends t.TypeOf<typeof CheckpointCodec> {}
export const Checkpoint: NamedStructCodec<Checkpoint> = CheckpointCodec;

/**
 * A sibling that is not on the selected path, frozen as it was when the path left it: its own
 * selected path from the fork on (`messages`), what that path had (state, pending interrupts and
 * client tool calls), its own forks and checkpoints from the fork on (positions count from the
 * thread's start, as on the path).
 *
 * @example
 * const saved: SavedBranch = { messages: [a1], state: null, interrupts: [], forks: [], checkpoints: [] };
 */
export interface SavedBranch {
  readonly messages: readonly Message[];
  readonly state: unknown;
  readonly interrupts: readonly Interrupt[];
  readonly pendingToolCallIds?: readonly string[];
  readonly forks: readonly Fork[];
  readonly checkpoints: readonly Checkpoint[];
}

/**
 * One sibling group on the selected path: the siblings start at path position `at`, right after
 * the message `after` (`null`: the thread's start). `branches[selected]` is `null` (that sibling
 * is the path itself); every other entry is a frozen sibling.
 *
 * @example
 * const fork: Fork = { after: "u1", at: 1, selected: 1, branches: [saved, null] };
 */
export interface Fork {
  readonly after: string | null;
  readonly at: number;
  readonly selected: number;
  readonly branches: readonly (SavedBranch | null)[];
}

/** The codecs of the two recursive types, each referring to the other. */
export const SavedBranch: t.Type<SavedBranch, unknown> = /* @__PURE__ */ t.recursion("SavedBranch", () =>
  struct(
    "SavedBranch",
    {
      messages: t.readonlyArray(Message),
      state: Present,
      interrupts: t.readonlyArray(Interrupt),
      forks: t.readonlyArray(Fork),
      checkpoints: t.readonlyArray(Checkpoint),
    },
    { pendingToolCallIds: t.readonlyArray(t.string) },
  ),
);
export const Fork: t.Type<Fork, unknown> = /* @__PURE__ */ t.recursion("Fork", () =>
  struct("Fork", { after: t.union([t.string, t.null]), at: t.number, selected: t.number, branches: t.readonlyArray(t.union([SavedBranch, t.null])) }, {}),
);

const BranchTreeCodec = /* @__PURE__ */ struct(
  "BranchTree",
  { forks: t.readonlyArray(Fork), checkpoints: t.readonlyArray(Checkpoint), groups: t.readonlyArray(BranchGroup) },
  {},
);
/**
 * The tree of a thread beside its selected path: `forks` on the path (by position), the path's
 * state `checkpoints`, and `groups`, the same forks as the wire shows them (derived when the
 * snapshot is taken, so a read of the path's last messages alone still names every group).
 *
 * @example
 * snapshot.branches?.groups; // [{ after: "u1", selected: 1, siblingIds: ["a1", "a2"] }]
 */
export interface BranchTree extends t.TypeOf<typeof BranchTreeCodec> {}
export const BranchTree: NamedStructCodec<BranchTree> = BranchTreeCodec;
