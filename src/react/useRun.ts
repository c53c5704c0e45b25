import { useMemo, useSyncExternalStore } from "react";
import { RunController, type RunSnapshot, type RunSource } from "../client/view/RunController";

/**
 * What `useRun` returns: the run lifecycle plus the three ways to drive it.
 *
 * @example
 * const { status, send }: RunHandle = useRun(session);
 */
export interface RunHandle extends RunSnapshot {
  /** Sends a user message and starts a run (detaching from an active one first). */
  readonly send: RunController["send"];
  /** Answers the pending interrupts and starts the resuming run. */
  readonly resume: RunController["resume"];
  /** Edits a user message (a sibling with new content) and runs from there (docs/client.md#branches). */
  readonly edit: RunController["edit"];
  /** Another answer to the user message at or before a message (the last one without it). */
  readonly regenerate: RunController["regenerate"];
  /** Joins the thread on the server: its history, and a run in progress (a page calls it on load). */
  readonly connect: () => void;
  /** Cancels the active run: on the server when it keeps threads (the run ends `cancelled`), else by aborting the request. */
  readonly stop: () => void;
  /** Lets go of the active run (a server that keeps it goes on; one that does not aborts it). */
  readonly detach: () => void;
}

/**
 * The session's run lifecycle: `status` (`idle`, `running`, `interrupted`, `failed`), the last
 * `error`, how the last run `end`ed, `stopping` and `reconnecting`, and `send`, `resume`, `edit`,
 * `regenerate`, `connect`, `stop`, `detach`. Every component that calls it on the same session sees the same run.
 *
 * @example
 * const { status, send, stop, connect } = useRun(session);
 * useEffect(connect, [connect]); // after a reload: the history, and the live rest of a run in progress
 * return status === "running" ? <button onClick={stop}>Stop</button> : <button onClick={() => send(text)}>Send</button>;
 */
export function useRun(session: RunSource): RunHandle {
  const controller = RunController.of(session);
  const snapshot = useSyncExternalStore(controller.subscribe, controller.getSnapshot, controller.getSnapshot);
  return useMemo(
    () => ({
      ...snapshot,
      send: controller.send,
      resume: controller.resume,
      edit: controller.edit,
      regenerate: controller.regenerate,
      connect: controller.connect,
      stop: controller.stop,
      detach: controller.detach,
    }),
    [snapshot, controller],
  );
}
