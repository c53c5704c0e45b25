import { useMemo, useSyncExternalStore } from "react";
import { NEVER } from "rxjs";
import type { QueuedMessage } from "../protocol/queueMeta";
import { RunController, type RunSnapshot, type SessionLike } from "../client/view/RunController";
import { sessionTicks, type ChangeSource } from "../client/view/sessionTicks";
import { useObserved } from "./useObserved";

/** Nothing waits (a source without a queue). */
const NO_QUEUE: readonly QueuedMessage[] = Object.freeze([]);

/**
 * What `useRun` returns: the run lifecycle plus the three ways to drive it.
 *
 * @example
 * const { status, send }: RunHandle = useRun(session);
 */
export interface RunHandle extends RunSnapshot {
  /**
   * Sends a user message and starts a run (detaching from an active one first); with `{ whileRunning }`
   * other than `refuse` (docs/queue.md#in-the-client) the active run goes on and the message waits in `queued`.
   */
  readonly send: RunController["send"];
  /** The thread's waiting messages, this tab's and others' (`Session.queued`), re-read after each change of the session. */
  readonly queued: readonly QueuedMessage[];
  /** Cancels a waiting message (`Session.cancelQueued`): `cancelled`, `started`, `taken` or `unknown`. */
  readonly cancelQueued: RunController["cancelQueued"];
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
 * `regenerate`, `connect`, `stop`, `detach`; the thread's `queued` messages and `cancelQueued`
 * (docs/queue.md#in-the-client). Every component that calls it on the same session sees the same run.
 *
 * @example
 * const { status, send, stop, connect } = useRun(session);
 * useEffect(connect, [connect]); // after a reload: the history, and the live rest of a run in progress
 * return status === "running" ? <button onClick={stop}>Stop</button> : <button onClick={() => send(text)}>Send</button>;
 */
export function useRun(session: SessionLike): RunHandle {
  const controller = RunController.of(session);
  const snapshot = useSyncExternalStore(controller.subscribe, controller.getSnapshot, controller.getSnapshot);
  // the session's own tick stream (one per session, shared with the other hooks), when it tells its changes
  const changes = useMemo(() => (hasChanges(session) ? sessionTicks(session) : NEVER), [session]);
  const queued = useObserved(changes, () => session.queued ?? NO_QUEUE);
  return useMemo(
    () => ({
      ...snapshot,
      queued,
      cancelQueued: controller.cancelQueued,
      send: controller.send,
      resume: controller.resume,
      edit: controller.edit,
      regenerate: controller.regenerate,
      connect: controller.connect,
      stop: controller.stop,
      detach: controller.detach,
    }),
    [snapshot, queued, controller],
  );
}

/** Whether a run source tells its changes (a Session does): then `queued` is re-read after each. */
function hasChanges(session: SessionLike): session is SessionLike & ChangeSource {
  return typeof session.subscribe === "function";
}
