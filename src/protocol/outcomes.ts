/**
 * Interrupts, resume entries and the two outcome kinds (docs/wire.md#4.8 to docs/wire.md#4.11). As in `events.ts`, each
 * type is `t.TypeOf` of its codec with a named interface as its face (the module-private
 * `<Name>Codec` is the codec as built; the codec exported as `<Name>` decodes the interface).
 */
import * as t from "io-ts";
import { enumOf, JsonObject, nonEmptyArray, struct, taggedUnion } from "./codec";
import type { NamedStructCodec, NamedUnionCodec } from "./namedCodec";
import { Metadata } from "./common";

const InterruptCodec = /* @__PURE__ */ struct(
  "Interrupt",
  { id: t.string, reason: t.string },
  {
    message: t.string,
    toolCallId: t.string,
    responseSchema: JsonObject,
    expiresAt: t.string,
    metadata: Metadata,
    subagentRunId: t.string,
  },
);
/**
 * A pause that waits for outside input; `id` correlates it with a resume entry.
 *
 * @example
 * const interrupt: Interrupt = { id: "i1", reason: "confirmation", message: "Delete the board?" };
 */
export interface Interrupt extends t.TypeOf<typeof InterruptCodec> {}
export const Interrupt: NamedStructCodec<Interrupt> = InterruptCodec;

const ResumeEntryCodec = /* @__PURE__ */ struct(
  "ResumeEntry",
  { interruptId: t.string, status: enumOf("ResumeStatus", ["resolved", "cancelled"]) },
  { payload: t.unknown, metadata: Metadata },
);
/**
 * An answer to one interrupt of the previous run.
 *
 * @example
 * const entry: ResumeEntry = { interruptId: "i1", status: "resolved", payload: { approved: true } };
 */
export interface ResumeEntry extends t.TypeOf<typeof ResumeEntryCodec> {}
export const ResumeEntry: NamedStructCodec<ResumeEntry> = ResumeEntryCodec;

// ─── RUN_FINISHED.outcome (docs/wire.md#4.10) ───

const RunSuccessOutcomeCodec = /* @__PURE__ */ struct("success outcome", { type: t.literal("success") }, { pendingToolCallIds: t.array(t.string) });
/**
 * The run succeeded (the same as an absent outcome); `pendingToolCallIds` are frontend tool calls left to answer.
 *
 * @example
 * const success: RunSuccessOutcome = { type: "success" };
 */
export interface RunSuccessOutcome extends t.TypeOf<typeof RunSuccessOutcomeCodec> {}
export const RunSuccessOutcome: NamedStructCodec<RunSuccessOutcome> = RunSuccessOutcomeCodec;

const RunInterruptOutcomeCodec = /* @__PURE__ */ struct(
  "interrupt outcome",
  { type: t.literal("interrupt"), interrupts: nonEmptyArray(Interrupt, "interrupts (at least one)") },
  {},
);
/**
 * The run paused on at least one interrupt; the client resumes with a new run carrying `resume`.
 *
 * @example
 * const paused: RunInterruptOutcome = { type: "interrupt", interrupts: [{ id: "i1", reason: "confirmation" }] };
 */
export interface RunInterruptOutcome extends t.TypeOf<typeof RunInterruptOutcomeCodec> {}
export const RunInterruptOutcome: NamedStructCodec<RunInterruptOutcome> = RunInterruptOutcomeCodec;

const RunCancelledOutcomeCodec = /* @__PURE__ */ struct("cancelled outcome", { type: t.literal("cancelled") }, {});
/**
 * The run was stopped by its runner without failing (1.0.0 only).
 *
 * @example
 * const stopped: RunCancelledOutcome = { type: "cancelled" };
 */
export interface RunCancelledOutcome extends t.TypeOf<typeof RunCancelledOutcomeCodec> {}
export const RunCancelledOutcome: NamedStructCodec<RunCancelledOutcome> = RunCancelledOutcomeCodec;

/**
 * How a run that did not fail ended, discriminated by `type`. Extra members are stripped, an
 * unknown `type` is unrecognised material (1.1).
 *
 * @example
 * const ended: RunFinishedOutcome = { type: "success" };
 */
export type RunFinishedOutcome = RunSuccessOutcome | RunInterruptOutcome | RunCancelledOutcome;
const RunFinishedOutcomeCodec = /* @__PURE__ */ taggedUnion("RunFinishedOutcome", "type", {
  success: RunSuccessOutcome,
  interrupt: RunInterruptOutcome,
  cancelled: RunCancelledOutcome,
});
export const RunFinishedOutcome: NamedUnionCodec<RunFinishedOutcome> = RunFinishedOutcomeCodec;

// ─── SUBAGENT_FINISHED.outcome (docs/wire.md#4.11) ───

const SubagentSuccessOutcomeCodec = /* @__PURE__ */ struct("subagent success outcome", { type: t.literal("success") }, {});
/**
 * The subagent's segment succeeded (the same as an absent outcome).
 *
 * @example
 * const success: SubagentSuccessOutcome = { type: "success" };
 */
export interface SubagentSuccessOutcome extends t.TypeOf<typeof SubagentSuccessOutcomeCodec> {}
export const SubagentSuccessOutcome: NamedStructCodec<SubagentSuccessOutcome> = SubagentSuccessOutcomeCodec;

const SubagentSuspendedOutcomeCodec = /* @__PURE__ */ struct(
  "subagent suspended outcome",
  { type: t.literal("suspended") },
  { interruptIds: t.array(t.string) },
  { nullIsError: ["interruptIds"] },
);
/**
 * The subagent waits on outside input; `interruptIds` (never `null`) are the run's interrupts it owns.
 *
 * @example
 * const suspended: SubagentSuspendedOutcome = { type: "suspended", interruptIds: ["i1"] };
 */
export interface SubagentSuspendedOutcome extends t.TypeOf<typeof SubagentSuspendedOutcomeCodec> {}
export const SubagentSuspendedOutcome: NamedStructCodec<SubagentSuspendedOutcome> = SubagentSuspendedOutcomeCodec;

/**
 * How a subagent's segment of the run ended, discriminated by `type`. `interruptIds` may be absent, never `null`.
 *
 * @example
 * const ended: SubagentFinishedOutcome = { type: "suspended", interruptIds: ["i1"] };
 */
export type SubagentFinishedOutcome = SubagentSuccessOutcome | SubagentSuspendedOutcome;
const SubagentFinishedOutcomeCodec = /* @__PURE__ */ taggedUnion("SubagentFinishedOutcome", "type", {
  success: SubagentSuccessOutcome,
  suspended: SubagentSuspendedOutcome,
});
export const SubagentFinishedOutcome: NamedUnionCodec<SubagentFinishedOutcome> = SubagentFinishedOutcomeCodec;
