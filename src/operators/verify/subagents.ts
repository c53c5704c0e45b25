/**
 * The subagent lifecycle (docs/rules.md#subagents, docs/rules.md#R30 to docs/rules.md#R34): an invocation id starts once per run, names an
 * announced parent if any, and ends once. Attribution itself needs no announcement (docs/rules.md#R35, docs/rules.md#R36).
 */
import type { EventOf } from "../../protocol/events";
import type { ProtocolError } from "../ProtocolError";
import { fail, listOpen } from "./report";
import type { RunScope } from "./VerifierState";

/**
 * SUBAGENT_STARTED: refused for an active id (docs/rules.md#R30), an id that already ended in this run (docs/rules.md#R31),
 * or a parentSubagentRunId that names no subagent started in this run (docs/rules.md#R32).
 *
 * @example
 * subagentStarted(run, ev.subagentStarted("s1", "researcher")); // undefined, s1 active
 */
export function subagentStarted(run: RunScope, event: EventOf<"SUBAGENT_STARTED">): ProtocolError | undefined {
  const { subagentRunId: id, parentSubagentRunId: parent } = event;
  if (run.activeSubagents.has(id)) {
    return fail(
      "subagent",
      "R30",
      event,
      `SUBAGENT_STARTED for "${id}", but subagent "${id}" is already active; expected SUBAGENT_FINISHED or SUBAGENT_ERROR first`,
    );
  }
  if (run.closedSubagents.has(id)) {
    return fail(
      "subagent",
      "R31",
      event,
      `SUBAGENT_STARTED for "${id}", but subagent "${id}" already ended in this run; an id names one invocation, so expected a new id`,
    );
  }
  if (parent !== undefined && !run.activeSubagents.has(parent) && !run.closedSubagents.has(parent)) {
    return fail(
      "subagent",
      "R32",
      event,
      `SUBAGENT_STARTED "${id}" names parentSubagentRunId "${parent}", but no subagent "${parent}" was started in this run`,
    );
  }
  run.activeSubagents.add(id);
  return undefined;
}

/**
 * SUBAGENT_FINISHED and SUBAGENT_ERROR: must end an active subagent (docs/rules.md#R33); it is then closed for
 * the rest of the run.
 *
 * @example
 * subagentEnded(run, ev.subagentFinished("s1")); // ProtocolError docs/rules.md#R33 when s1 was never started
 */
export function subagentEnded(run: RunScope, event: EventOf<"SUBAGENT_FINISHED" | "SUBAGENT_ERROR">): ProtocolError | undefined {
  const { subagentRunId: id } = event;
  if (!run.activeSubagents.has(id)) {
    const why = run.closedSubagents.has(id) ? `subagent "${id}" already ended` : `no subagent "${id}" was started`;
    return fail("subagent", "R33", event, `${event.type} for "${id}", but ${why} (${listOpen(run.activeSubagents, "active")})`);
  }
  run.activeSubagents.delete(id);
  run.closedSubagents.add(id);
  return undefined;
}
