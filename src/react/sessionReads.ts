/** The read-only session hooks: each reads one of the Session's cached snapshots and re-renders after it changes. */
import type { Session } from "../client/Session";
import { sessionTicks } from "../client/view/sessionTicks";
import { useObserved } from "./useObserved";

/** The Session snapshots a hook of this file reads; each is cached until the session changes. */
type SessionSnapshot = "messages" | "state" | "interrupts" | "subagents";

/**
 * The one body of every hook below: a hook that reads `session[key]` during render and re-reads
 * it after the session changes (at most once per frame, see `useSession`'s `frame`).
 *
 * @example
 * const useMessages = sessionReadHook("messages");
 */
function sessionReadHook<K extends SessionSnapshot>(key: K): <S>(session: Session<S>) => Session<S>[K] {
  return function useSessionRead<S>(session: Session<S>): Session<S>[K] {
    return useObserved(sessionTicks(session), () => session[key]);
  };
}

/**
 * The session's messages, re-rendering after they change (at most once per frame, see `useSession`'s `frame`). The array is a new object only after a
 * change, and a message that did not change keeps its identity, so `React.memo` rows re-render
 * only for the message that moved.
 *
 * @example
 * const messages = useMessages(session);
 * return <ul>{messages.map((m) => <Row key={m.id} message={m} />)}</ul>;
 */
export const useMessages = sessionReadHook("messages");

/**
 * The shared state, typed by the session's StateSpec (`undefined` while it does not decode),
 * re-rendering after it changes (at most once per frame). Deltas apply with structural sharing, so untouched subtrees keep
 * identity and can be passed to memoized children as they are.
 *
 * @example
 * const board = useAgentState(session);
 * return <Board tasks={board?.tasks ?? []} />;
 */
export const useAgentState = sessionReadHook("state");

/**
 * The interrupts the agent is waiting on (empty unless the last run ended `interrupted`), to show
 * approval prompts and answer them with `useRun(session).resume(...)`.
 *
 * @example
 * const [pending] = useInterrupts(session);
 * if (pending) return <Confirm text={pending.message} onYes={() => resume([{ interruptId: pending.id, status: "resolved" }])} />;
 */
export const useInterrupts = sessionReadHook("interrupts");

/**
 * The subagent registry (every invocation announced so far, across runs), to title the groups
 * that messages carrying `subagentRunId` are shown in.
 *
 * @example
 * const subagents = useSubagents(session);
 * const name = (id: string) => subagents.find((s) => s.id === id)?.name ?? id;
 */
export const useSubagents = sessionReadHook("subagents");
