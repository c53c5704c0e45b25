/** Where a waiting message stands, read from the thread as it is now (docs/queue.md#on-the-wire): the status every tab is shown. */
import type { QueuedMessage, QueuedStatus } from "../../protocol/queueMeta";
import type { ThreadSnapshot } from "../../thread/ThreadSnapshot";
import { listedQueued, type QueuedRun } from "./QueuedRun";

/**
 * Whether the thread waits on answers (docs/queue.md#policies: nothing starts on it then): its last
 * run ended with pending interrupts, or left client tool calls nobody has answered. A live run is
 * not waiting on answers (it is running).
 *
 * @example
 * if (!awaitsAnswers(read.snapshot)) await drainQueue(store, threadId, scope, context);
 */
export function awaitsAnswers(snapshot: ThreadSnapshot): boolean {
  if (snapshot.run.status === "running") return false;
  return snapshot.interrupts.length > 0 || (snapshot.pendingToolCallIds?.length ?? 0) > 0;
}

/**
 * The status of a waiting `entry` on the thread `snapshot` shows: `steering` (a steer whose target
 * is the live run), `waiting` (no run is live, and the thread waits on answers), else `queued`.
 *
 * @example
 * queueStatusOf(entry, snapshot); // "queued"
 */
export function queueStatusOf(entry: QueuedRun, snapshot: ThreadSnapshot | undefined): QueuedStatus {
  if (snapshot === undefined) return "queued";
  const live = snapshot.run.status === "running";
  if (entry.policy === "steer" && live && entry.target === snapshot.run.runId) return "steering";
  return awaitsAnswers(snapshot) ? "waiting" : "queued";
}

/**
 * The thread's queue as every tab sees it (`metadata["agui-rx"].queue`): each entry listed with
 * its status, in the order they will run.
 *
 * @example
 * const listed = listedQueue(read.queue ?? [], read.snapshot);
 */
export function listedQueue(queue: readonly QueuedRun[], snapshot: ThreadSnapshot | undefined): QueuedMessage[] {
  return queue.map((entry) => listedQueued(entry, queueStatusOf(entry, snapshot)));
}
