/**
 * Why `beginRun` on Redis refuses a run before its script (docs/durability.md, "Redis";
 * docs/queue.md#redis-keys): the thread as read has a live run, a waiting queue the run neither
 * passes nor starts the head of, or another cursor than the handler expected. The begin script
 * checks the same again, atomically, and its answers are mapped to the same errors.
 */
import { StoreError } from "../server/store/StoreError";
import type { BeginOptions, Cursor } from "../server/store/ThreadStore";

/**
 * StoreError `history-moved`: the thread is not at the cursor the handler read (`null`: it expected a new thread).
 *
 * @example
 * throw historyMoved("t1", "r2", "1718000000000-4");
 */
export function historyMoved(threadId: string, runId: string, expected: Cursor | null | undefined): StoreError {
  const at = expected === null || expected === undefined ? "to be new" : `to be at cursor "${expected}"`;
  return new StoreError("history-moved", `expected thread "${threadId}" ${at} to start run "${runId}", but another run moved it since it was read`, {
    threadId,
    runId,
  });
}

/**
 * `beginRun`'s queue rule on the thread as read (its queue's length and head): `dequeue` must name
 * the head (else StoreError `queue-moved`), and without it a waiting message refuses a run that does
 * not pass the queue (`queue-pending`). Returns when the run may go on.
 *
 * @example
 * refuseQueue({ queueLength: 1, queueHead: "q1" }, "t1", "q1", { dequeue: "q1" }); // returns
 */
export function refuseQueue(
  queue: { readonly queueLength: number; readonly queueHead: string | undefined },
  threadId: string,
  runId: string,
  options: BeginOptions,
): void {
  const { dequeue, passQueue } = options;
  if (dequeue !== undefined) {
    if (queue.queueHead === dequeue) return;
    const found = queue.queueHead === undefined ? "its queue is empty" : `its head is "${queue.queueHead}"`;
    throw new StoreError(
      "queue-moved",
      `expected "${dequeue}" at the head of thread "${threadId}"'s queue to start it, but ${found}: it started elsewhere, or was cancelled`,
      {
        threadId,
        runId,
      },
    );
  }
  if (queue.queueLength === 0 || passQueue === true) return;
  throw new StoreError(
    "queue-pending",
    `expected no waiting messages on thread "${threadId}" to start run "${runId}", but ${queue.queueLength} wait (the queue goes first, docs/queue.md#policies)`,
    { threadId, runId },
  );
}

/**
 * StoreError `run-active`: run `liveRunId` of the thread is still live.
 *
 * @example
 * throw runActive("t1", "r2", "r1");
 */
export function runActive(threadId: string, runId: string, liveRunId: string): StoreError {
  return new StoreError(
    "run-active",
    `expected no live run on thread "${threadId}" to start run "${runId}", but run "${liveRunId}" is still live (one run per thread at a time)`,
    { threadId, runId: liveRunId },
  );
}
