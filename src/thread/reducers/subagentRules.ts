/** The session's subagent registry (docs/seeds.md#seed-001, docs/rules.md#A18, docs/rules.md#I12, docs/rules.md#I13): lifecycle only, across runs. */
import type { EventOf } from "../../protocol/events";
import type { Subagent, SubagentUpdate } from "../Update";

/** What the rules need of the registry's holder (a ClientState). */
export interface SubagentRegistry {
  readonly subagents: ReadonlyMap<string, Subagent>;
  putSubagent(entry: Subagent): void;
}

/**
 * Moves the registry for one SUBAGENT_STARTED / FINISHED / ERROR event and returns the update:
 * a new id (or a reused finished/failed one, docs/rules.md#I13) is `started`; a suspended id is `resumed` (docs/rules.md#I12,
 * same entry); FINISHED is `finished {result}` or, with a suspended outcome, `suspended`; ERROR is
 * `failed`. FINISHED or ERROR for an id never announced changes nothing.
 *
 * @example
 * applySubagentEvent(state, ev.subagentStarted("sub-1", "researcher")); // { kind: "subagent", change: "started", … }
 */
export function applySubagentEvent(
  state: SubagentRegistry,
  event: EventOf<"SUBAGENT_STARTED" | "SUBAGENT_FINISHED" | "SUBAGENT_ERROR">,
): SubagentUpdate | undefined {
  const existing = state.subagents.get(event.subagentRunId);
  switch (event.type) {
    case "SUBAGENT_STARTED": {
      const entry: Subagent = {
        id: event.subagentRunId,
        name: event.name,
        ...(event.description === undefined ? {} : { description: event.description }),
        ...(event.parentSubagentRunId === undefined ? {} : { parentSubagentRunId: event.parentSubagentRunId }),
        ...(event.parentToolCallId === undefined ? {} : { parentToolCallId: event.parentToolCallId }),
        ...(event.parentMessageId === undefined ? {} : { parentMessageId: event.parentMessageId }),
        status: { kind: "running" },
      };
      state.putSubagent(entry);
      return { kind: "subagent", change: existing?.status.kind === "suspended" ? "resumed" : "started", subagent: entry };
    }
    case "SUBAGENT_FINISHED": {
      if (existing === undefined) return undefined;
      const entry: Subagent =
        event.outcome?.type === "suspended"
          ? {
              ...existing,
              status: event.outcome.interruptIds === undefined ? { kind: "suspended" } : { kind: "suspended", interruptIds: event.outcome.interruptIds },
            }
          : { ...existing, status: event.result === undefined ? { kind: "finished" } : { kind: "finished", result: event.result } };
      state.putSubagent(entry);
      return { kind: "subagent", change: entry.status.kind === "suspended" ? "suspended" : "finished", subagent: entry };
    }
    case "SUBAGENT_ERROR": {
      if (existing === undefined) return undefined;
      const entry: Subagent = {
        ...existing,
        status: event.code === undefined ? { kind: "failed", message: event.message } : { kind: "failed", message: event.message, code: event.code },
      };
      state.putSubagent(entry);
      return { kind: "subagent", change: "failed", subagent: entry };
    }
  }
}
