/**
 * The tree half of a thread's fold (docs/threads.md#the-tree): the forks and state checkpoints along
 * the selected path, and the three things that change them — a run that starts a sibling, a run
 * that starts at all (a checkpoint), and a switch to another sibling. The path itself (messages,
 * state, interrupts) stays in the reducer's `ClientState`, which this edits in place: a switch
 * costs what it moves (the messages past the fork), never the thread's length.
 */
import type { BranchGroup, ForkMarker } from "../../protocol/branchMeta";
import type { Message } from "../../protocol/messages";
import type { ClientState } from "../reducers/ClientState";
import type { BranchTree, Checkpoint, Fork, SavedBranch } from "./BranchTree";
import { groupAfter } from "./groupAfter";
import { stateBefore, type SiblingHead } from "./stateBefore";

/**
 * What a switch did: `switched` (the path changed), `unchanged` (that sibling is already shown),
 * or why it could not: `unknown-message` (no such message on the path), `no-such-sibling` (the
 * group has no sibling at that index).
 *
 * @example
 * if (branches.select(client, "a1", 0) === "no-such-sibling") refuse();
 */
export type SelectResult = "switched" | "unchanged" | "unknown-message" | "no-such-sibling";

/**
 * The forks and checkpoints of one thread's selected path. Immutable values inside: every change
 * replaces the arrays, so a snapshot taken earlier never changes under its reader.
 *
 * @example
 * const branches = new PathBranches();
 * branches.fork(client, { after: "u1", siblingIds: ["a1"] }); // before the run's input is applied
 */
export class PathBranches {
  private forks: readonly Fork[] = [];
  private checkpoints: readonly Checkpoint[] = [];

  /** A tree read back from a snapshot. */
  static from(tree: BranchTree | undefined): PathBranches {
    const branches = new PathBranches();
    if (tree !== undefined) {
      branches.forks = tree.forks;
      branches.checkpoints = tree.checkpoints;
    }
    return branches;
  }

  /** Whether the thread has a fork or a checkpoint (a snapshot leaves `branches` out otherwise). */
  get empty(): boolean {
    return this.forks.length === 0 && this.checkpoints.length === 0;
  }

  /**
   * The marker of a run that would start a sibling after `after` on `client`'s path, or `undefined`
   * when the path ends there (nothing to branch from: the run simply continues it). `after` must be
   * on the path (or `null`).
   */
  markerFor(client: ClientState<unknown>, after: string | null): ForkMarker | undefined {
    const at = positionAfter(client, after);
    if (at === undefined || at >= client.messages.length) return undefined;
    const existing = this.forks.find((fork) => fork.at === at);
    const siblingIds = existing === undefined ? [client.messages.at(at).id] : siblingIdsOf(existing, client.messages.at(at).id);
    return { after, siblingIds };
  }

  /**
   * Starts a sibling: freezes the path past the fork point (with its state, interrupts, client
   * calls, forks and checkpoints) into the group, cuts the path there, and sets the state the
   * new sibling starts from (`stateBefore`, with the head the run's `input` messages give: the
   * first of them the kept path does not hold, none being an answer). Call before the run's
   * RUN_STARTED is applied (which cuts the same messages again, a no-op, and appends its input).
   * A marker whose `after` is not on the path, or ends it, changes nothing.
   */
  fork(client: ClientState<unknown>, marker: ForkMarker, pendingToolCallIds: readonly string[], input: readonly Message[] = []): void {
    const at = positionAfter(client, marker.after);
    if (at === undefined || at >= client.messages.length) return;
    const head = headOf(client, at, input);
    const saved = this.freeze(client, at, pendingToolCallIds);
    const existing = this.forks.find((fork) => fork.at === at);
    const group: Fork =
      existing === undefined
        ? { after: marker.after, at, selected: 1, branches: [saved, null] }
        : {
            ...existing,
            selected: existing.branches.length,
            branches: [...existing.branches.map((branch, i) => (i === existing.selected ? saved : branch)), null],
          };
    const state = this.stateAt(client, at, head);
    client.messages.truncate(at);
    client.setRawState(state);
    client.interrupts = [];
    this.forks = [...this.forks.filter((fork) => fork.at < at), group];
    // A checkpoint at `at` is a run of the frozen sibling (a resume of its answer, or the run of the
    // user message it starts with): it went with it. The new sibling's run checkpoints its own.
    this.checkpoints = this.checkpoints.filter((checkpoint) => checkpoint.at < at);
  }

  /** Notes the state a run starts from (at RUN_STARTED, once any fork is made and before its input is applied). */
  checkpoint(client: ClientState<unknown>): void {
    const last = this.checkpoints[this.checkpoints.length - 1];
    const state = client.rawState ?? null;
    if (sameJson(last === undefined ? NO_STATE : last.state, state)) return;
    const at = client.messages.length;
    this.checkpoints = [...this.checkpoints.filter((checkpoint) => checkpoint.at < at), { at, state }];
  }

  /**
   * The state a sibling made after `after` starts from: the state at the start of the run that
   * added the user message the group answers (a regenerate, `head` `answer`, the default) or
   * replaces (an edit, `head` `user`), so neither sees what the later runs did to the state. `{}`
   * before any checkpoint.
   */
  stateAfter(client: ClientState<unknown>, after: string | null, head: SiblingHead = "answer"): unknown {
    const at = positionAfter(client, after);
    return at === undefined ? (client.rawState ?? null) : this.stateAt(client, at, head);
  }

  /**
   * Shows sibling `index` of the group that `messageId` (a message of the path) belongs to, with
   * that sibling's own selected path, state, interrupts and client calls; `pending` is the path's
   * pending client calls now, frozen with it. Returns what it did and, when switched, the shown
   * sibling's pending client calls.
   */
  select(client: ClientState<unknown>, messageId: string, index: number, pending: readonly string[]): { result: SelectResult; pending?: readonly string[] } {
    const position = client.messages.indexOf(messageId);
    if (position < 0) return { result: "unknown-message" };
    const after = groupAfter(client.messages, position);
    const at = after === null ? 0 : client.messages.indexOf(after) + 1;
    const group = this.forks.find((fork) => fork.at === at);
    if (group === undefined) return { result: index === 0 ? "unchanged" : "no-such-sibling" };
    if (!Number.isInteger(index) || index < 0 || index >= group.branches.length) return { result: "no-such-sibling" };
    if (index === group.selected) return { result: "unchanged" };
    const chosen = group.branches[index];
    if (chosen === null) return { result: "unchanged" };
    const saved = this.freeze(client, at, pending);
    client.messages.truncate(at);
    for (const message of chosen.messages) client.messages.append(message);
    client.setRawState(chosen.state);
    client.interrupts = chosen.interrupts;
    const switched: Fork = {
      ...group,
      selected: index,
      branches: group.branches.map((branch, i) => (i === index ? null : i === group.selected ? saved : branch)),
    };
    this.forks = [...this.forks.filter((fork) => fork.at < at), switched, ...chosen.forks];
    this.checkpoints = [...this.checkpoints.filter((checkpoint) => checkpoint.at < at), ...chosen.checkpoints];
    return { result: "switched", pending: chosen.pendingToolCallIds ?? [] };
  }

  /** The groups of the path as the wire shows them (`BranchGroup`), in path order. */
  groups(client: ClientState<unknown>): readonly BranchGroup[] {
    return this.forks.map((fork) => ({
      after: fork.after,
      selected: fork.selected,
      siblingIds: siblingIdsOf(fork, fork.at < client.messages.length ? client.messages.at(fork.at).id : ""),
    }));
  }

  /** The tree as a snapshot carries it. */
  tree(client: ClientState<unknown>): BranchTree {
    return { forks: this.forks, checkpoints: this.checkpoints, groups: this.groups(client) };
  }

  private freeze(client: ClientState<unknown>, at: number, pending: readonly string[]): SavedBranch {
    const messages: Message[] = [];
    for (let index = at; index < client.messages.length; index++) messages.push(client.messages.at(index));
    return {
      messages,
      state: client.rawState ?? null,
      interrupts: client.interrupts,
      ...(pending.length === 0 ? {} : { pendingToolCallIds: pending }),
      forks: this.forks.filter((fork) => fork.at > at),
      checkpoints: this.checkpoints.filter((checkpoint) => checkpoint.at >= at),
    };
  }

  private stateAt(client: ClientState<unknown>, at: number, head: SiblingHead): unknown {
    return stateBefore(this.checkpoints, client.messages, at, head);
  }
}

/** The path position right after `after` (`0` for `null`), or `undefined` when the path does not hold it. */
function positionAfter(client: ClientState<unknown>, after: string | null): number | undefined {
  if (after === null) return 0;
  const index = client.messages.indexOf(after);
  return index < 0 ? undefined : index + 1;
}

/** What the sibling a run starts at `at` begins with: the first of its input messages the kept path does not hold (none: its answer). */
function headOf(client: ClientState<unknown>, at: number, input: readonly Message[]): SiblingHead {
  for (const message of input) {
    const index = client.messages.indexOf(message.id);
    if (index < 0 || index >= at) return message.role === "user" ? "user" : "answer";
  }
  return "answer";
}

/** The first message ids of a group's siblings, the shown one's being `shownId`. */
function siblingIdsOf(fork: Fork, shownId: string): string[] {
  return fork.branches.map((branch) => (branch === null ? shownId : (branch.messages[0]?.id ?? "")));
}

/** The state before any run set one: what a fold starts from (the official client's `{}`). */
const NO_STATE: unknown = Object.freeze({});

/** Whether two JSON values are the same (by reference first: the reducer keeps an unchanged state's identity); `null` and `{}` are both "no state". */
function sameJson(a: unknown, b: unknown): boolean {
  return a === b || (isEmptyState(a) && isEmptyState(b)) || JSON.stringify(a) === JSON.stringify(b);
}

function isEmptyState(value: unknown): boolean {
  return value === null || value === undefined || (typeof value === "object" && !Array.isArray(value) && Object.keys(value).length === 0);
}
