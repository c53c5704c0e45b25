import type { Session } from "../client/Session";
import { sessionTicks } from "../client/view/sessionTicks";
import { useObserved } from "./useObserved";

/**
 * The shared state, typed by the session's StateSpec (`undefined` while it does not decode),
 * re-rendering after it changes (at most once per frame). Deltas apply with structural sharing, so untouched subtrees keep
 * identity and can be passed to memoized children as they are.
 *
 * @example
 * const board = useAgentState(session);
 * return <Board tasks={board?.tasks ?? []} />;
 */
export function useAgentState<S>(session: Session<S>): S | undefined {
  return useObserved(sessionTicks(session), () => session.state);
}
