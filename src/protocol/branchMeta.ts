/**
 * The wire form of a thread's branches (docs/threads.md#branches-on-the-wire), under this library's own
 * key (`"agui-rx"`) in places AG-UI leaves to implementations: the `metadata` of RUN_STARTED and of a
 * connect prelude's MESSAGES_SNAPSHOT, and a run input's `forwardedProps`. A client that does not
 * know the key sees an ordinary linear thread.
 */
import * as t from "io-ts";
import { struct } from "./codec";
import type { NamedStructCodec } from "./namedCodec";
import { CAPABILITIES_KEY } from "./historyCapability";
import { ownKeyOf, ownListOf, withOwnEntries } from "./ownKey";

/** A message id on the selected path, or `null` for the thread's start (a group of first messages). */
const ParentId = /* @__PURE__ */ t.union([t.string, t.null]);

const BranchGroupCodec = /* @__PURE__ */ struct("BranchGroup", { after: ParentId, selected: t.number, siblingIds: t.readonlyArray(t.string) }, {});
/**
 * The siblings that follow one message of the selected path (docs/threads.md#the-tree): `after` is
 * that message's id (`null`: the thread's first messages), `siblingIds` the id of each sibling's
 * first message in the order they were made, and `selected` the index of the one on the path. An
 * edited user message's group follows the message before it; an answer's group follows its user
 * message. `siblingIds[selected]` is `""` while a run that just made the sibling has not sent its
 * first message yet.
 *
 * @example
 * const group: BranchGroup = { after: "u1", selected: 1, siblingIds: ["a1", "a1b"] };
 */
export interface BranchGroup extends t.TypeOf<typeof BranchGroupCodec> {}
export const BranchGroup: NamedStructCodec<BranchGroup> = BranchGroupCodec;

const ForkMarkerCodec = /* @__PURE__ */ struct("ForkMarker", { after: ParentId, siblingIds: t.readonlyArray(t.string) }, {});
/**
 * What a RUN_STARTED says when its run starts a new sibling (`metadata["agui-rx"].fork`): the path
 * is cut right after the message `after` (`null`: all of it) before the run's input is applied,
 * and the new sibling joins the group after `after`, whose earlier siblings are `siblingIds`
 * (first message ids). The run's own messages (and, from the input, an edited user message) then
 * make the new branch.
 *
 * @example
 * const marker: ForkMarker = { after: "u1", siblingIds: ["a1"] }; // a regenerate of u1's answer
 */
export interface ForkMarker extends t.TypeOf<typeof ForkMarkerCodec> {}
export const ForkMarker: NamedStructCodec<ForkMarker> = ForkMarkerCodec;

const ForkRequestCodec = /* @__PURE__ */ struct("ForkRequest", { forkAfter: ParentId }, {});
/**
 * What a client asks of a run under `forwardedProps["agui-rx"]` (docs/threads.md#edit-and-regenerate):
 * `forkAfter` names the path message the run's new messages follow as a new sibling (`null`: the
 * thread's start). An edit posts the edited user message with a new id and `forkAfter` its
 * predecessor; a regenerate posts nothing new and `forkAfter` the user message to answer again.
 *
 * @example
 * const request: ForkRequest = { forkAfter: "a1" };
 */
export interface ForkRequest extends t.TypeOf<typeof ForkRequestCodec> {}
export const ForkRequest: NamedStructCodec<ForkRequest> = ForkRequestCodec;

/**
 * The fork marker of a RUN_STARTED's `metadata`, or `undefined` when it has none (or a malformed one).
 *
 * @example
 * forkMarkerOf({ "agui-rx": { fork: { after: null, siblingIds: ["u1"] } } }); // { after: null, siblingIds: ["u1"] }
 */
export function forkMarkerOf(metadata: Readonly<Record<string, unknown>> | undefined): ForkMarker | undefined {
  const fork = ownKeyOf(metadata)?.fork;
  return ForkMarker.is(fork) ? fork : undefined;
}

/**
 * The branch groups of a MESSAGES_SNAPSHOT's `metadata` (`metadata["agui-rx"].branches`), or
 * `undefined` when it carries none; malformed groups are left out.
 *
 * @example
 * branchGroupsOf(event.metadata)?.length;
 */
export function branchGroupsOf(metadata: Readonly<Record<string, unknown>> | undefined): readonly BranchGroup[] | undefined {
  return ownListOf(metadata, "branches", (group): group is BranchGroup => BranchGroup.is(group));
}

/**
 * The fork a run input asks for (`forwardedProps["agui-rx"].forkAfter`), or `undefined` when it asks
 * for none. A malformed request is `"malformed"`, which a server refuses.
 *
 * @example
 * forkRequestOf({ "agui-rx": { forkAfter: "a1" } }); // { forkAfter: "a1" }
 */
export function forkRequestOf(forwardedProps: unknown): ForkRequest | "malformed" | undefined {
  const own = ownKeyOf(forwardedProps);
  if (own === undefined || !("forkAfter" in own)) return undefined;
  return ForkRequest.is(own) ? { forkAfter: own.forkAfter } : "malformed";
}

/**
 * `metadata` for a RUN_STARTED that makes a sibling.
 *
 * @example
 * ev.runStarted("t1", "r2", { metadata: forkMetadata({ after: "u1", siblingIds: ["a1"] }) });
 */
export function forkMetadata(marker: ForkMarker): Record<string, unknown> {
  return { [CAPABILITIES_KEY]: { fork: marker } };
}

/**
 * `metadata` for a MESSAGES_SNAPSHOT that shows a path with these branch groups.
 *
 * @example
 * ev.messagesSnapshot(messages, { metadata: branchesMetadata(groups) });
 */
export function branchesMetadata(groups: readonly BranchGroup[]): Record<string, unknown> {
  return { [CAPABILITIES_KEY]: { branches: groups } };
}

/**
 * `forwardedProps` for a run that forks after `forkAfter`, kept beside any others the caller passes.
 *
 * @example
 * forkForwardedProps("a1", { model: "x" }); // { model: "x", "agui-rx": { forkAfter: "a1" } }
 */
export function forkForwardedProps(forkAfter: string | null, forwardedProps?: unknown): Record<string, unknown> {
  return withOwnEntries(forwardedProps, { forkAfter });
}
