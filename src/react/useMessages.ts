import type { Message } from "../protocol/messages";
import type { Session } from "../client/Session";
import { sessionTicks } from "../client/view/sessionTicks";
import { useObserved } from "./useObserved";

/**
 * The session's messages, re-rendering after they change (at most once per frame, see `useSession`'s `frame`). The array is a new object only after a
 * change, and a message that did not change keeps its identity, so `React.memo` rows re-render
 * only for the message that moved.
 *
 * @example
 * const messages = useMessages(session);
 * return <ul>{messages.map((m) => <Row key={m.id} message={m} />)}</ul>;
 */
export function useMessages<S>(session: Session<S>): readonly Message[] {
  return useObserved(sessionTicks(session), () => session.messages);
}
