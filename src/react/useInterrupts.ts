import type { Interrupt } from "../protocol/outcomes";
import type { Session } from "../client/Session";
import { sessionTicks } from "../client/view/sessionTicks";
import { useObserved } from "./useObserved";

/**
 * The interrupts the agent is waiting on (empty unless the last run ended `interrupted`), to show
 * approval prompts and answer them with `useRun(session).resume(...)`.
 *
 * @example
 * const [pending] = useInterrupts(session);
 * if (pending) return <Confirm text={pending.message} onYes={() => resume([{ interruptId: pending.id, status: "resolved" }])} />;
 */
export function useInterrupts<S>(session: Session<S>): readonly Interrupt[] {
  return useObserved(sessionTicks(session), () => session.interrupts);
}
