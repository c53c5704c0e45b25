/**
 * How many batches of events the process's run recorders have handed to their stores and not yet
 * seen answered (docs/observability.md#metrics: `agui_rx.server.store.pending_appends`). Every
 * store's writes go through `recordRun`, whose recorder has at most one batch at its store at a
 * time, so this is also the number of runs waiting on their store right now; a store that keeps up
 * shows 0 or a few, one that falls behind (a slow Redis) shows its live runs.
 */

/** The count, kept by `RunRecorder`: one per batch while its append is pending. */
let pending = 0;

/**
 * The batches appended and not yet answered, across every store of this process. Read-only: a
 * gauge reads it when metrics are collected.
 *
 * @example
 * meter.createObservableGauge("agui_rx.server.store.pending_appends").addCallback((result) => result.observe(pendingAppendBatches()));
 */
export function pendingAppendBatches(): number {
  return pending;
}

/**
 * Counts one batch sent to a store until `appended` settles (either way); returns `appended` as
 * it is, so the caller's handling of it is unchanged.
 *
 * @example
 * appended = trackAppend(writer.append(batch));
 */
export function trackAppend<T>(appended: Promise<T>): Promise<T> {
  pending++;
  const settled = (): void => {
    pending--;
  };
  appended.then(settled, settled);
  return appended;
}
