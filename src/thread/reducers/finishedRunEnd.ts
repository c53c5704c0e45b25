/** How a RUN_FINISHED ends a run, as a `done` update tells it (docs/rules.md#E2). */
import type { RunFinishedEvent } from "../../protocol/lifecycleEvents";
import type { RunEnd } from "../Update";

/**
 * The end a RUN_FINISHED gives its run: `interrupted` with copies of its outcome's interrupts,
 * `cancelled` (1.0.0's third outcome: stopped, not failed), or `success` with its `result` and the
 * client calls its outcome leaves pending (docs/wire.md#4.10), each only when present.
 *
 * @example
 * finishedRunEnd(ev.runFinished("t1", "r1")); // { kind: "success" }
 */
export function finishedRunEnd(event: RunFinishedEvent): RunEnd {
  const outcome = event.outcome;
  if (outcome?.type === "interrupt") return { kind: "interrupted", interrupts: outcome.interrupts.map((interrupt) => ({ ...interrupt })) };
  if (outcome?.type === "cancelled") return { kind: "cancelled" };
  const pendingToolCallIds = outcome?.type === "success" ? outcome.pendingToolCallIds : undefined;
  return {
    kind: "success",
    ...(event.result === undefined ? {} : { result: event.result }),
    ...(pendingToolCallIds === undefined ? {} : { pendingToolCallIds: [...pendingToolCallIds] }),
  };
}
