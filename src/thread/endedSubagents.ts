/**
 * The thread's ended subagents as lifecycle events (docs/durability.md#2-the-compacted-thread-threadsnapshot):
 * what a client that joins the thread replays into its registry, so a finished subagent's group is
 * headed by its name and status after a reload, not by its invocation id.
 */
import { ev } from "../protocol/build";
import type { Event } from "../protocol/events";
import type { Subagent } from "./Update";

/**
 * For each subagent of `registry` that ended (finished or failed), its SUBAGENT_STARTED (name,
 * description, parents) and its end (SUBAGENT_FINISHED with the result, or SUBAGENT_ERROR), in
 * registry order. Left out: a running subagent, and any the live run touched (`live`: its `reopen`
 * replays their lifecycle), and a suspended one (its suspension belongs to the interrupts it waits
 * on, which the run's end carries; a resume starts it again). A parent that is not replayed before
 * its child is not named (docs/rules.md#R32 wants the parent started in the same run).
 *
 * @example
 * endedSubagentEvents([{ id: "s1", name: "researcher", status: { kind: "finished" } }]);
 * // [SUBAGENT_STARTED s1 "researcher", SUBAGENT_FINISHED s1]
 */
export function endedSubagentEvents(registry: readonly Subagent[], live: ReadonlySet<string> = new Set()): Event[] {
  const events: Event[] = [];
  const replayed = new Set<string>();
  for (const subagent of registry) {
    const { status } = subagent;
    if ((status.kind !== "finished" && status.kind !== "failed") || live.has(subagent.id)) continue;
    const parent = subagent.parentSubagentRunId;
    replayed.add(subagent.id);
    events.push(
      ev.subagentStarted(subagent.id, subagent.name, {
        description: subagent.description,
        parentSubagentRunId: parent !== undefined && replayed.has(parent) ? parent : undefined,
        parentToolCallId: subagent.parentToolCallId,
        parentMessageId: subagent.parentMessageId,
      }),
    );
    events.push(
      status.kind === "finished"
        ? ev.subagentFinished(subagent.id, status.result === undefined ? {} : { result: status.result })
        : ev.subagentError(subagent.id, status.message, { code: status.code }),
    );
  }
  return events;
}
