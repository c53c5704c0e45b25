/**
 * A synchronous delivery batch: the values a source pushes in one go (the events of one SSE read)
 * can be told apart from values that arrive later, so that a stage far downstream may hold back
 * work that only the last value of the batch needs (the client's reducer publishes the state once
 * per batch of STATE_DELTAs instead of once per delta, docs/client.md#state-batches).
 */

/** The callbacks of each open batch, innermost last. */
const open: (() => void)[][] = [];

/**
 * Runs `deliver` (which pushes values synchronously down a pipeline) as one batch: callbacks that
 * stages register with `atBatchEnd` while it runs are called, in order, right after it returns or
 * throws. Batches nest; each runs its own callbacks at its own end.
 *
 * @example
 * runInBatch(() => reader.feed(chunk)); // every event of the chunk, then the batch's callbacks
 */
export function runInBatch<T>(deliver: () => T): T {
  const callbacks: (() => void)[] = [];
  open.push(callbacks);
  try {
    return deliver();
  } finally {
    try {
      // The batch stays open while its callbacks run: one that emits, and so makes a stage further
      // down register its own, has that one run here too, in order.
      for (let i = 0; i < callbacks.length; i++) callbacks[i]();
    } finally {
      open.pop();
    }
  }
}

/**
 * Registers `callback` to run at the end of the innermost open batch and returns `true`; returns
 * `false` (registering nothing) when no batch is open, so the caller does now what it would have
 * done at the batch's end. A callback registered while the batch's callbacks run joins them.
 *
 * @example
 * if (!atBatchEnd(flush)) flush();
 */
export function atBatchEnd(callback: () => void): boolean {
  const callbacks = open[open.length - 1];
  if (callbacks === undefined) return false;
  callbacks.push(callback);
  return true;
}
