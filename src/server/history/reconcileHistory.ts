/** A posted RunAgentInput read against the stored thread (docs/threads.md#the-anchor-rule): the run's effective input, or why it is refused. */
import type { RunAgentInput } from "../../protocol/input";
import type { PathMark } from "../store/ThreadStore";
import type { ThreadSnapshot } from "../../thread/ThreadSnapshot";
import { checkNewMessages } from "./checkNewMessages";
import { closeDangling } from "./closeDangling";
import type { HistoryRefusal } from "./HistoryRefusal";
import { matchAnchor } from "./matchAnchor";
import { findFork, type ForkPlan } from "./findFork";
import { isJsonRecord, jsonEqual } from "../../patch/json";
import { pathOf } from "../../thread/branches/groupAfter";
import { stateBefore } from "../../thread/branches/stateBefore";
import { startingState } from "./startingState";
import { unansweredCalls } from "./unansweredCalls";

/**
 * What a run starts from once its post is accepted: `input` is the effective input (the stored
 * path, the closing results of calls a cancelled or failed run left open, then the post's new
 * messages; the starting state), `expectCursor` the cursor `beginRun` must still find (`null`
 * for a new thread), and `recordState` whether the starting state is an edit to log.
 *
 * @example
 * if (verdict.kind === "accepted") await store.beginRun(verdict.input, { expectCursor: verdict.expectCursor });
 */
export interface AcceptedHistory {
  readonly kind: "accepted";
  readonly input: RunAgentInput;
  readonly expectCursor: string | null;
  /** The path the post was read against (`BeginOptions.expectPath`); absent for a new thread. */
  readonly expectPath?: PathMark;
  readonly recordState: boolean;
  /** Set when the run starts a new sibling after this message (`null`: the thread's start): `BeginOptions.forkAfter`. */
  readonly forkAfter?: string | null;
}

/**
 * Reads `input` against `stored` (the thread's snapshot as `read` gave it, `undefined` for a new
 * thread). Activity messages of the post are left out (clients never post them: docs/rules.md#A21).
 * On an existing thread, the post meets the path at its anchor (`matchAnchor`: a `history-conflict`
 * when it leaves the path or changes a stored message), and what follows the anchor must be what a
 * request may add (`checkNewMessages`: a `history-forged` otherwise). The calls pending for the
 * client are the snapshot's `pendingToolCallIds` or, when it has none or its last run was
 * cancelled or failed, the path's calls without a result. The effective input holds the stored
 * path (activity messages left out: the agent never sees them), not the posted copies; so nothing
 * a client writes into a message it repeats reaches the agent. Pure: `newId` mints the ids of the
 * closing results.
 *
 * @example
 * const verdict = reconcileHistory(read?.snapshot, input, randomIds);
 * if ("error" in verdict) return refuse(verdict);
 */
export function reconcileHistory(stored: ThreadSnapshot | undefined, input: RunAgentInput, newId: () => string): AcceptedHistory | HistoryRefusal {
  const posted = input.messages.filter((message) => message.role !== "activity");
  if (stored === undefined) {
    const refused = checkNewMessages(posted, { pending: new Set(), newThread: true });
    if (refused !== undefined) return refused;
    const { state, record } = startingState(input.state, undefined, false);
    return { kind: "accepted", input: { ...input, messages: posted, ...stateMember(state) }, expectCursor: null, recordState: record };
  }

  const fork = findFork(stored.messages, posted, input);
  if (fork !== undefined) return "error" in fork ? fork : acceptFork(stored, input, fork);

  const anchored = matchAnchor(stored.messages, posted);
  if ("error" in anchored) return anchored;
  const { status } = stored.run;
  const unanswered = unansweredCalls(stored.messages);
  const leftOpen = status === "cancelled" || status === "failed";
  const pending = new Set(leftOpen ? unanswered : (stored.pendingToolCallIds ?? unanswered));
  const refused = checkNewMessages(anchored.after, { pending, newThread: false });
  if (refused !== undefined) return refused;

  const answered = new Set(anchored.after.flatMap((message) => (message.role === "tool" ? [message.toolCallId] : [])));
  const closing = closeDangling(unanswered, answered, status, newId);
  const path = stored.messages.filter((message) => message.role !== "activity");
  const { state, record } = startingState(input.state, stored.state, true);
  return {
    kind: "accepted",
    input: { ...input, messages: [...path, ...closing, ...anchored.after], ...stateMember(state) },
    expectCursor: stored.cursor,
    expectPath: pathMarkOf(stored.messages),
    recordState: record,
  };
}

/**
 * A post that starts a sibling (docs/threads.md#edit-and-regenerate): the effective input is the path
 * up to the fork, then the post's new messages (user messages only: nothing is pending for the
 * client at a fork). The state is the fork point's (`stateBefore`), unless the post carries an
 * edit of its own: a posted state equal to the thread's current one is the client's copy of the
 * branch it leaves, not an edit. The starting state is logged when it differs from the current one.
 * A `resume` is left out: the new sibling has no pending interrupts (those stay with the branch the
 * post leaves), so its agent must not read the cancel the official client sends before it may post
 * at all as an answer to anything.
 */
function acceptFork(stored: ThreadSnapshot, input: RunAgentInput, fork: ForkPlan): AcceptedHistory | HistoryRefusal {
  const refused = checkNewMessages(fork.added, { pending: new Set(), newThread: false });
  if (refused !== undefined) return refused;
  const head = fork.added[0]?.role === "user" ? "user" : "answer";
  const forkState = stateBefore(stored.branches?.checkpoints ?? [], pathOf(stored.messages), fork.at, head);
  const posted = jsonEqual(input.state ?? null, stored.state ?? null) ? undefined : input.state;
  const { state } = startingState(posted, forkState, true);
  const path = stored.messages.slice(0, fork.at).filter((message) => message.role !== "activity");
  const { resume: _left, state: _posted, ...rest } = input;
  return {
    kind: "accepted",
    input: { ...rest, messages: [...path, ...fork.added], ...stateMember(state) },
    expectCursor: stored.cursor,
    expectPath: pathMarkOf(stored.messages),
    recordState: !sameState(state, stored.state),
    forkAfter: fork.after,
  };
}

/** Whether two states are the same, `null`, `undefined` and `{}` all being "no state" (a fork of a thread without state logs none). */
function sameState(a: unknown, b: unknown): boolean {
  const none = (value: unknown) => value === undefined || value === null || (isJsonRecord(value) && Object.keys(value).length === 0);
  return (none(a) && none(b)) || jsonEqual(a ?? null, b ?? null);
}

/** Where `messages` ends. */
function pathMarkOf(messages: ThreadSnapshot["messages"]): PathMark {
  return { count: messages.length, lastId: messages.length === 0 ? null : messages[messages.length - 1].id };
}

/** The input's `state` member: absent for no state (the codec reads `null` as absent too). */
function stateMember(state: unknown): { readonly state?: unknown } {
  return state === undefined || state === null ? {} : { state };
}
