import { useMemo, useSyncExternalStore } from "react";
import { RunController, type RunSnapshot, type RunSource } from "./RunController";

/**
 * What `useRun` returns: the run lifecycle plus the three ways to drive it.
 *
 * @example
 * const { status, send }: RunHandle = useRun(session);
 */
export interface RunHandle extends RunSnapshot {
  /** Sends a user message and starts a run (stopping an active one first). */
  readonly send: RunController["send"];
  /** Answers the pending interrupts and starts the resuming run. */
  readonly resume: RunController["resume"];
  /** Unsubscribes from the active run, which aborts the request and the server's run. */
  readonly stop: () => void;
}

/**
 * The session's run lifecycle: `status` (`idle`, `running`, `interrupted`, `failed`), the last
 * `error`, how the last run `end`ed, and `send`, `resume`, `stop`. Every component that calls it
 * on the same session sees the same run.
 *
 * @example
 * const { status, send, stop } = useRun(session);
 * return status === "running" ? <button onClick={stop}>Stop</button> : <button onClick={() => send(text)}>Send</button>;
 */
export function useRun(session: RunSource): RunHandle {
  const controller = RunController.of(session);
  const snapshot = useSyncExternalStore(controller.subscribe, controller.getSnapshot, controller.getSnapshot);
  return useMemo(
    () => ({ ...snapshot, send: controller.send, resume: controller.resume, stop: controller.stop }),
    [snapshot, controller],
  );
}
