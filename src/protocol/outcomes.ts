/** Interrupts, resume entries and the two outcome kinds (WIRE §4.8–§4.11). */
import * as t from "io-ts";
import { enumOf, JsonObject, list, nonEmptyArray, struct, taggedUnion } from "./codec";
import { Metadata } from "./common";

/** A pause that waits for outside input; `id` correlates it with a resume entry. */
export const Interrupt = struct(
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
export type Interrupt = t.TypeOf<typeof Interrupt>;

/** An answer to one interrupt of the previous run. */
export const ResumeEntry = struct(
  "ResumeEntry",
  { interruptId: t.string, status: enumOf("ResumeStatus", ["resolved", "cancelled"]) },
  { payload: t.unknown, metadata: Metadata },
);
export type ResumeEntry = t.TypeOf<typeof ResumeEntry>;

/** How a run that did not fail ended. Extra members are stripped, an unknown `type` is unrecognised material (1.1). */
export const RunFinishedOutcome = taggedUnion("RunFinishedOutcome", "type", {
  success: struct("success outcome", { type: t.literal("success") }, { pendingToolCallIds: t.array(t.string) }),
  interrupt: struct(
    "interrupt outcome",
    { type: t.literal("interrupt"), interrupts: nonEmptyArray(Interrupt, "interrupts (at least one)") },
    {},
  ),
  cancelled: struct("cancelled outcome", { type: t.literal("cancelled") }, {}),
});
export type RunFinishedOutcome = t.TypeOf<typeof RunFinishedOutcome>;

/** How a subagent's segment of the run ended. `interruptIds` may be absent, never `null`. */
export const SubagentFinishedOutcome = taggedUnion("SubagentFinishedOutcome", "type", {
  success: struct("subagent success outcome", { type: t.literal("success") }, {}),
  suspended: struct(
    "subagent suspended outcome",
    { type: t.literal("suspended") },
    { interruptIds: t.array(t.string) },
    { nullIsError: ["interruptIds"] },
  ),
});
export type SubagentFinishedOutcome = t.TypeOf<typeof SubagentFinishedOutcome>;
