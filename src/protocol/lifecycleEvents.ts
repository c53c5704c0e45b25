/**
 * The lifecycle events (docs/wire.md#3.1, docs/wire.md#3.8): a run's start and end, its steps, and its subagent
 * invocations.
 *
 * Each event is three declarations (see `events.ts`): `<Name>EventCodec`, the codec as built
 * (module-private); the interface `<Name>Event`, `t.TypeOf` of it, the name an editor shows; and the
 * same codec exported under that name, typed to decode the interface (`NamedStructCodec`).
 */
import * as t from "io-ts";
import { list } from "./codec";
import type { NamedStructCodec } from "./namedCodec";
import { TokenUsage } from "./common";
import { attributed, baseFields, event } from "./eventFields";
import { RunAgentInput } from "./input";
import { RunFinishedOutcome, SubagentFinishedOutcome } from "./outcomes";

// Lifecycle (docs/wire.md#3.1)
const RunStartedEventCodec = event(
  "RUN_STARTED",
  { threadId: t.string, runId: t.string },
  {
    ...baseFields,
    parentRunId: t.string,
    input: RunAgentInput,
    protocolVersion: t.string,
  },
);
/**
 * Opens a run: the first event of a run. `input` echoes what the run received.
 *
 * @example
 * ev.runStarted("t1", "r1")
 */
export interface RunStartedEvent extends t.TypeOf<typeof RunStartedEventCodec> {}
export const RunStartedEvent: NamedStructCodec<RunStartedEvent> = RunStartedEventCodec;

const RunFinishedEventCodec = event(
  "RUN_FINISHED",
  { threadId: t.string, runId: t.string },
  {
    ...baseFields,
    result: t.unknown,
    outcome: RunFinishedOutcome,
    usage: list(TokenUsage),
  },
);
/**
 * Closes a run that did not fail; `outcome` absent means success.
 *
 * @example
 * ev.runFinished("t1", "r1", { outcome: outcome.success() })
 */
export interface RunFinishedEvent extends t.TypeOf<typeof RunFinishedEventCodec> {}
export const RunFinishedEvent: NamedStructCodec<RunFinishedEvent> = RunFinishedEventCodec;

const RunErrorEventCodec = event("RUN_ERROR", { message: t.string }, { ...baseFields, code: t.string, usage: list(TokenUsage) });
/**
 * Ends a run that failed; nothing follows it but a new RUN_STARTED.
 *
 * @example
 * ev.runError("model unavailable", { code: "UPSTREAM" })
 */
export interface RunErrorEvent extends t.TypeOf<typeof RunErrorEventCodec> {}
export const RunErrorEvent: NamedStructCodec<RunErrorEvent> = RunErrorEventCodec;

const StepStartedEventCodec = event("STEP_STARTED", { stepName: t.string }, attributed);
/**
 * Opens a named step (e.g. a graph node); its STEP_FINISHED carries the same `stepName`.
 *
 * @example
 * ev.stepStarted("plan")
 */
export interface StepStartedEvent extends t.TypeOf<typeof StepStartedEventCodec> {}
export const StepStartedEvent: NamedStructCodec<StepStartedEvent> = StepStartedEventCodec;

const StepFinishedEventCodec = event("STEP_FINISHED", { stepName: t.string }, attributed);
/**
 * Closes the named step.
 *
 * @example
 * ev.stepFinished("plan")
 */
export interface StepFinishedEvent extends t.TypeOf<typeof StepFinishedEventCodec> {}
export const StepFinishedEvent: NamedStructCodec<StepFinishedEvent> = StepFinishedEventCodec;

// Subagents (docs/wire.md#3.8): here `subagentRunId` is the invocation's identity, so it is required.
const SubagentStartedEventCodec = event(
  "SUBAGENT_STARTED",
  { subagentRunId: t.string, name: t.string },
  {
    ...baseFields,
    description: t.string,
    parentSubagentRunId: t.string,
    parentToolCallId: t.string,
    parentMessageId: t.string,
  },
);
/**
 * Announces the subagent invocation `subagentRunId`.
 *
 * @example
 * ev.subagentStarted("sub-1", "researcher")
 */
export interface SubagentStartedEvent extends t.TypeOf<typeof SubagentStartedEventCodec> {}
export const SubagentStartedEvent: NamedStructCodec<SubagentStartedEvent> = SubagentStartedEventCodec;

const SubagentFinishedEventCodec = event(
  "SUBAGENT_FINISHED",
  { subagentRunId: t.string },
  {
    ...baseFields,
    result: t.unknown,
    outcome: SubagentFinishedOutcome,
  },
);
/**
 * Ends the invocation's segment of the run; `outcome` absent means success.
 *
 * @example
 * ev.subagentFinished("sub-1", { outcome: outcome.suspended(["i1"]) })
 */
export interface SubagentFinishedEvent extends t.TypeOf<typeof SubagentFinishedEventCodec> {}
export const SubagentFinishedEvent: NamedStructCodec<SubagentFinishedEvent> = SubagentFinishedEventCodec;

const SubagentErrorEventCodec = event("SUBAGENT_ERROR", { subagentRunId: t.string, message: t.string }, { ...baseFields, code: t.string });
/**
 * The invocation failed; the run itself may go on.
 *
 * @example
 * ev.subagentError("sub-1", "tool crashed")
 */
export interface SubagentErrorEvent extends t.TypeOf<typeof SubagentErrorEventCodec> {}
export const SubagentErrorEvent: NamedStructCodec<SubagentErrorEvent> = SubagentErrorEventCodec;
