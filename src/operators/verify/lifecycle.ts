/**
 * The run lifecycle (docs/rules.md#run, docs/rules.md#R1 to docs/rules.md#R7, docs/rules.md#R7a, and docs/rules.md#A16's duplicate check; docs/rules.md#R7a): where an event may stand
 * relative to the runs of the stream, what RUN_STARTED resets, the identity a run's two boundary
 * events share, and what RUN_FINISHED needs (its interrupt ids unique, everything closed).
 */
import type { Event, EventOf } from "../../protocol/events";
import type { ProtocolError } from "../ProtocolError";
import { read } from "./fieldSanity";
import { fail, list, quote } from "./report";
import { seedOwners } from "./snapshots";
import { listSteps } from "./steps";
import { emptyRunScope, type RunScope, type VerifierState } from "./VerifierState";

/**
 * docs/rules.md#R1 to docs/rules.md#R4: the error for an event that may not stand where the stream's phase is (the first event
 * of the stream, a second RUN_STARTED, anything after a terminal), or `undefined`. Runs before
 * every other check; changes nothing.
 *
 * @example
 * checkRunLifecycle(initialVerifierState(), ev.textMessageStart("m1")); // ProtocolError docs/rules.md#R1
 */
export function checkRunLifecycle(state: VerifierState, event: Event): ProtocolError | undefined {
  const { type } = event;
  switch (state.phase) {
    case "before":
      if (type === "RUN_STARTED" || type === "RUN_ERROR") return undefined;
      return fail("run-lifecycle", "R1", event, `expected RUN_STARTED or RUN_ERROR as the first event of the stream, but got ${type}`);
    case "running":
      if (type !== "RUN_STARTED") return undefined;
      return fail(
        "run-lifecycle",
        "R2",
        event,
        `RUN_STARTED while run ${quote(state.run.runId)} is still active; expected RUN_FINISHED or RUN_ERROR before a new run`,
      );
    case "finished":
      if (type === "RUN_STARTED" || type === "RUN_ERROR") return undefined;
      return fail(
        "run-lifecycle",
        "R3",
        event,
        `${type} after RUN_FINISHED of run ${quote(state.run.runId)}; only RUN_STARTED (a new run) or RUN_ERROR may follow`,
      );
    case "errored":
      if (type === "RUN_STARTED") return undefined;
      return fail("run-lifecycle", "R4", event, `${type} after RUN_ERROR; only RUN_STARTED (a new run) may follow`);
    default:
      state.phase satisfies never;
      return undefined;
  }
}

/**
 * RUN_STARTED (already placed by `checkRunLifecycle`): refused on another thread than the stream's
 * (docs/rules.md#R7a); a run that follows a terminal starts with a clean scope (docs/rules.md#R6), whose owners its input echo
 * seeds (docs/rules.md#R44).
 *
 * @example
 * runStarted(state, ev.runStarted("t", "r2")); // state.phase "running", state.run fresh
 */
export function runStarted(state: VerifierState, event: EventOf<"RUN_STARTED">): ProtocolError | undefined {
  const { thread } = state;
  if (thread !== undefined && event.threadId !== thread.threadId) {
    const whose = thread.source === "input" ? "the thread the client sent" : "the thread of the stream's first run";
    return fail(
      "run-lifecycle",
      "R7a",
      event,
      `RUN_STARTED of run ${quote(event.runId)} names thread ${quote(event.threadId)}, but every run of the stream carries the input's threadId ${quote(thread.threadId)} (${whose}); ` +
        `expected RUN_STARTED with threadId ${quote(thread.threadId)}`,
    );
  }
  // Before the first run the scope is still clean.
  const scope = state.phase === "before" ? state.run : emptyRunScope();
  scope.runId = event.runId;
  seedOwners(scope, event.input?.messages, "input");
  state.phase = "running";
  state.run = scope;
  state.thread ??= { threadId: event.threadId, source: "stream" };
  return undefined;
}

/**
 * RUN_FINISHED: refused when it names another run or thread than the open run's (docs/rules.md#R7a), when its
 * interrupt outcome holds two interrupts with one id (docs/rules.md#A16), and while anything of the run is still
 * open (docs/rules.md#R7, docs/rules.md#R22, docs/rules.md#R34). A refused RUN_FINISHED leaves the run open, so a stream that ends there is
 * a truncated run (docs/rules.md#E8): a run never ends on another run's terminal event.
 *
 * @example
 * runFinished(state, ev.runFinished("t", "r")); // ProtocolError docs/rules.md#R7 while a text message is open
 */
export function runFinished(state: VerifierState, event: EventOf<"RUN_FINISHED">): ProtocolError | undefined {
  const identity = checkRunIdentity(state, event);
  if (identity) return identity;
  const duplicate = duplicateInterruptId(event);
  if (duplicate !== undefined) {
    return fail(
      "run-lifecycle",
      "A16",
      event,
      `RUN_FINISHED's interrupt outcome holds two interrupts carrying the id ${quote(duplicate)}; expected interrupt ids unique within an outcome ` +
        `(a resume entry answers an interrupt by its id, so one answer would cover both)`,
    );
  }
  const open = openAtRunEnd(state.run);
  if (open) return fail("run-lifecycle", "R7", event, `RUN_FINISHED while ${open}`);
  state.phase = "finished";
  return undefined;
}

/**
 * RUN_ERROR ends the run whatever is open (docs/rules.md#R34: nothing must be closed before it).
 *
 * @example
 * runError(state); // state.phase "errored"
 */
export function runError(state: VerifierState): ProtocolError | undefined {
  state.phase = "errored";
  return undefined;
}

/**
 * docs/rules.md#R7a (docs/rules.md#R7a): a run's RUN_STARTED and RUN_FINISHED carry one identity: the stream's thread (the input's
 * threadId) and the same runId. RUN_ERROR carries no identity on the wire (1.0.0 and the draft
 * specification alike), so it has nothing to compare.
 */
function checkRunIdentity(state: VerifierState, event: EventOf<"RUN_FINISHED">): ProtocolError | undefined {
  const runId = state.run.runId;
  const threadId = state.thread?.threadId;
  if (event.threadId !== threadId) {
    return fail(
      "run-lifecycle",
      "R7a",
      event,
      `RUN_FINISHED names thread ${quote(event.threadId)}, but run ${quote(runId)} is on thread ${quote(threadId)}: a run's RUN_STARTED and RUN_FINISHED carry the input's threadId; ` +
        `expected RUN_FINISHED with threadId ${quote(threadId)} (not applied: the run has not ended)`,
    );
  }
  if (event.runId !== runId) {
    return fail(
      "run-lifecycle",
      "R7a",
      event,
      `RUN_FINISHED names run ${quote(event.runId)}, but the open run is ${quote(runId)}: a run's RUN_STARTED and RUN_FINISHED must agree on their runId; ` +
        `expected RUN_FINISHED with runId ${quote(runId)} (not applied: the run has not ended)`,
    );
  }
  return undefined;
}

/** docs/rules.md#A16 (docs/rules.md#A16): the first id that two interrupts of an interrupt outcome share, or `undefined`. Ids are read as `unknown`: in-process producers may break the types. */
function duplicateInterruptId(event: EventOf<"RUN_FINISHED">): unknown {
  const outcome = event.outcome;
  if (outcome?.type !== "interrupt" || !Array.isArray(outcome.interrupts) || outcome.interrupts.length < 2) return undefined;
  const seen = new Set<unknown>();
  for (const interrupt of outcome.interrupts) {
    const id: unknown = read(interrupt, "id");
    if (seen.has(id)) return id;
    seen.add(id);
  }
  return undefined;
}

/**
 * docs/rules.md#R7, docs/rules.md#R22: the first category still open at RUN_FINISHED, in the order steps, text messages,
 * reasoning messages, reasoning spans, tool calls, subagents (1.0.0's order), with its items;
 * `undefined` when all are closed. O(1) when nothing is open.
 */
function openAtRunEnd(run: RunScope): string | undefined {
  if (run.activeStepCount > 0) return `steps are still active: ${listSteps(run)}; expected STEP_FINISHED for each first`;
  if (run.openTextMessages.size > 0)
    return `text messages are still open: ${list(run.openTextMessages, run.openTextMessages.size)}; expected TEXT_MESSAGE_END for each first`;
  if (run.openReasoningMessages.size > 0) {
    return `reasoning messages are still open: ${list(run.openReasoningMessages, run.openReasoningMessages.size)}; expected REASONING_MESSAGE_END for each first`;
  }
  if (run.openReasoningSpans.size > 0) {
    return `reasoning spans are still open: ${list(run.openReasoningSpans.keys(), run.openReasoningSpans.size)}; expected REASONING_END for each first`;
  }
  if (run.openToolCalls.size > 0) return `tool calls are still open: ${list(run.openToolCalls, run.openToolCalls.size)}; expected TOOL_CALL_END for each first`;
  if (run.activeSubagents.size > 0) {
    return `subagents are still active: ${list(run.activeSubagents, run.activeSubagents.size)}; expected SUBAGENT_FINISHED or SUBAGENT_ERROR for each first`;
  }
  return undefined;
}
