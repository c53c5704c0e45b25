/**
 * The sibling groups along a Session's path (docs/threads.md#the-tree): what the connect prelude's
 * MESSAGES_SNAPSHOT named, changed live by a run's fork marker, and read per message as a
 * `BranchInfo` (docs/client.md#branches).
 */
import { branchGroupsOf, forkMarkerOf, type BranchGroup, type ForkMarker } from "../../protocol/branchMeta";
import type { Event } from "../../protocol/events";
import type { Message } from "../../protocol/messages";
import { groupAfter, pathOf } from "../../thread/branches/groupAfter";

/**
 * Where one message of the path stands among its siblings: `siblingIds` are the first message
 * ids of its group's siblings in the order they were made, `index` the one on the path, `count`
 * how many there are. A message without siblings is `{ index: 0, count: 1, siblingIds: [head] }`
 * (`head`: the first message of its group on the path, e.g. the answer's first message for a
 * message inside an answer).
 *
 * @example
 * const { index, count } = session.branches("u2"); // "2 / 3" beside the edited question
 */
export interface BranchInfo {
  readonly index: number;
  readonly count: number;
  readonly siblingIds: readonly string[];
}

/**
 * Whether two readings of a message's siblings say the same: what a view compares before it
 * re-renders a switcher (React's `useBranches`, Angular's `agent.branches`).
 *
 * @example
 * sameBranchInfo({ index: 0, count: 2, siblingIds: ["a1", "a2"] }, session.branches("a1")); // true while nothing moved
 */
export function sameBranchInfo(a: BranchInfo, b: BranchInfo): boolean {
  return a.index === b.index && a.count === b.count && a.siblingIds.length === b.siblingIds.length && a.siblingIds.every((id, at) => id === b.siblingIds[at]);
}

const NO_GROUPS: readonly BranchGroup[] = Object.freeze([]);

/**
 * A Session's branch groups. `replace` takes a prelude's groups, `fork` applies a fork marker (or
 * the session's own cut before its marker arrives), `groups(path)` reads them with the selected
 * sibling's id filled in from the path where the server did not know it yet (`""`), and
 * `info(path, id)` answers one message. The same array comes back until something changed (for
 * `useSyncExternalStore` and `distinctUntilChanged`).
 *
 * @example
 * const groups = new BranchGroups();
 * groups.replace(branchGroupsOf(snapshot.metadata) ?? []);
 * groups.info(session.messages, "u2"); // { index: 1, count: 2, siblingIds: ["u2", "u2e"] }
 */
export class BranchGroups {
  private held: readonly BranchGroup[] = NO_GROUPS;
  private filled: { readonly from: readonly BranchGroup[]; readonly key: string; readonly groups: readonly BranchGroup[] } | undefined;

  /** The groups as held (a selected id may still be `""`); what `restore` takes back. */
  get raw(): readonly BranchGroup[] {
    return this.held;
  }

  /** Replaces every group (a prelude's, or a saved `raw`); whether anything changed. */
  replace(groups: readonly BranchGroup[]): boolean {
    if (groups === this.held || (groups.length === 0 && this.held.length === 0)) return false;
    this.held = groups.length === 0 ? NO_GROUPS : groups;
    return true;
  }

  /**
   * What `event` (before the reducer applies it to `path`) says of the groups: a MESSAGES_SNAPSHOT
   * carrying groups replaces them (one without replaces them with none when it is a join's
   * prelude, `joining`: the path has no siblings; an agent's own snapshot in a run leaves them),
   * a RUN_STARTED's fork marker forks them. Whether they changed.
   */
  hear(event: Event, path: readonly Message[], joining: boolean): boolean {
    if (event.type === "MESSAGES_SNAPSHOT") {
      const groups = branchGroupsOf(event.metadata);
      return groups !== undefined || joining ? this.replace(groups ?? NO_GROUPS) : false;
    }
    if (event.type !== "RUN_STARTED") return false;
    const marker = forkMarkerOf(event.metadata);
    if (marker === undefined) return false;
    this.fork(marker, path);
    return true;
  }

  /**
   * A new sibling after `marker.after` on `path` (the path before its cut): the groups after the
   * cut point go (they belonged to the cut path), and the group after `after` becomes the marker's
   * siblings plus the new one, selected, its id `""` until its first message arrives.
   */
  fork(marker: ForkMarker, path: readonly Message[]): void {
    const at = marker.after === null ? -1 : path.findIndex((message) => message.id === marker.after);
    const position = new Map(path.map((message, index) => [message.id, index]));
    const kept = this.held.filter((group) => {
      if (group.after === marker.after) return false; // replaced below
      if (marker.after === null) return false; // the whole path is cut
      if (group.after === null) return true;
      const index = position.get(group.after);
      // not held: older than the window the session holds, so before a cut point inside it
      if (index === undefined) return true;
      return at >= 0 && index < at;
    });
    const siblingIds = [...marker.siblingIds, ""];
    this.held = [...kept, { after: marker.after, selected: siblingIds.length - 1, siblingIds }];
  }

  /** The groups with each `""` selected id filled from `path` (the message right after the group's `after`). */
  groups(path: readonly Message[]): readonly BranchGroup[] {
    const held = this.held;
    if (!held.some((group) => group.siblingIds[group.selected] === "")) return held;
    const heads = held.map((group) => (group.siblingIds[group.selected] === "" ? headAfter(path, group.after) : ""));
    const key = heads.join("\u0000");
    if (this.filled?.from === held && this.filled.key === key) return this.filled.groups;
    const groups = held.map((group, index) => {
      const head = heads[index];
      if (head === "") return group;
      const siblingIds = group.siblingIds.map((id, at) => (at === group.selected ? head : id));
      return { ...group, siblingIds };
    });
    this.filled = { from: held, key, groups };
    return groups;
  }

  /**
   * Where the message `messageId` of `path` stands among its siblings (`groupAfter`); a message
   * not on the path (one a switch just took away) is alone: `{ index: 0, count: 1, siblingIds: [messageId] }`.
   */
  info(path: readonly Message[], messageId: string): BranchInfo {
    const position = path.findIndex((message) => message.id === messageId);
    if (position < 0) return { index: 0, count: 1, siblingIds: [messageId] };
    const after = groupAfter(pathOf(path), position);
    const group = this.groups(path).find((candidate) => candidate.after === after);
    if (group !== undefined) return { index: group.selected, count: group.siblingIds.length, siblingIds: group.siblingIds };
    const head = headAfter(path, after);
    return { index: 0, count: 1, siblingIds: [head === "" ? messageId : head] };
  }
}

/** The id of the message right after `after` on `path` (`null`: the first), or `""` when there is none yet. */
function headAfter(path: readonly Message[], after: string | null): string {
  const at = after === null ? 0 : path.findIndex((message) => message.id === after) + 1;
  return at > 0 || after === null ? (path[at]?.id ?? "") : "";
}
