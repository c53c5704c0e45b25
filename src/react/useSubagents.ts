import type { Subagent } from "../thread/Update";
import type { Session } from "../client/Session";
import { sessionTicks } from "../client/view/sessionTicks";
import { useObserved } from "./useObserved";

/**
 * The subagent registry (every invocation announced so far, across runs), to title the groups
 * that messages carrying `subagentRunId` are shown in.
 *
 * @example
 * const subagents = useSubagents(session);
 * const name = (id: string) => subagents.find((s) => s.id === id)?.name ?? id;
 */
export function useSubagents<S>(session: Session<S>): readonly Subagent[] {
  return useObserved(sessionTicks(session), () => session.subagents);
}
