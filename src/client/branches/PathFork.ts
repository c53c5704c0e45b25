/** A Session's own fork of its path (docs/threads.md#edit-and-regenerate): the cut shown at once, the new sibling's group, and the way back when the server refuses the run. */
import type { Message } from "../../protocol/messages";
import type { Interrupt } from "../../protocol/outcomes";
import type { ClientState } from "../../thread/reducers/ClientState";
import type { BranchGroup } from "../../protocol/branchMeta";
import type { BranchGroups } from "./BranchGroups";
import type { ForkPlan } from "./forkPlan";

/**
 * One edit or regenerate applied to a session's state. `cut()` keeps the path up to the fork point,
 * drops the interrupts (they belonged to the branch left behind: nothing is pending at a fork) and
 * appends the edit's message; `branched()` (with a server that owns the history) shows the new
 * sibling in its group before the run's fork marker confirms it; `restore()` puts everything back
 * as it was, when the server proved it recorded nothing.
 *
 * @example
 * const fork = new PathFork(store, groups, editPlan(store.messages.snapshot(), "u2", "Paris instead", "u2e") as ForkPlan);
 * fork.cut();
 */
export class PathFork {
  private readonly before: { readonly messages: readonly Message[]; readonly groups: readonly BranchGroup[]; readonly interrupts: readonly Interrupt[] };

  constructor(
    private readonly store: ClientState<unknown>,
    private readonly groups: BranchGroups,
    readonly plan: ForkPlan,
  ) {
    this.before = { messages: store.messages.snapshot(), groups: groups.raw, interrupts: store.interrupts };
  }

  /** Cuts the path after the fork point and appends the edit's message (if any). */
  cut(): void {
    const { messages } = this.store;
    messages.truncate(this.plan.keep);
    if (this.plan.sent !== undefined) messages.append(this.plan.sent);
    this.store.interrupts = [];
  }

  /** Whether the session held interrupts the cut dropped. */
  get droppedInterrupts(): boolean {
    return this.before.interrupts.length > 0;
  }

  /** The new sibling joins its group (the siblings the replaced head had, or the head alone), selected; whether anything was cut to make one. */
  branched(): boolean {
    const { head, forkAfter } = this.plan;
    if (head === undefined) return false;
    const { siblingIds } = this.groups.info(this.before.messages, head);
    this.groups.fork({ after: forkAfter, siblingIds }, this.before.messages);
    return true;
  }

  /** Puts the path, the groups and the interrupts back; the messages, or `undefined` (nothing changed) when the path moved on since the cut. */
  restore(): readonly Message[] | undefined {
    const { messages } = this.store;
    const { keep, sent } = this.plan;
    const last = messages.length === 0 ? undefined : messages.at(messages.length - 1);
    if (messages.length !== keep + (sent === undefined ? 0 : 1) || (sent !== undefined && last !== sent)) return undefined;
    messages.reset(this.before.messages);
    this.groups.replace(this.before.groups);
    this.store.interrupts = this.before.interrupts;
    return messages.snapshot();
  }
}
