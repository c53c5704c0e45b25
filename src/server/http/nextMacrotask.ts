/** A wait of one event-loop turn, so that I/O and timers run in between (docs/http.md, "Fairness"). */

/**
 * Resolves in a later macrotask: `setImmediate` where there is one (after the loop's I/O), else
 * `setTimeout(…, 0)`.
 *
 * @example
 * await nextMacrotask(); // whatever the current turn still had to do has run
 */
export function nextMacrotask(): Promise<void> {
  return new Promise(defer);
}

/**
 * Calls `callback` in a later macrotask: `setImmediate` where there is one (after the loop's I/O), else `setTimeout(…, 0)`.
 *
 * @example
 * defer(() => reader.wake());
 */
export function defer(callback: () => void): void {
  if (typeof setImmediate === "function") setImmediate(callback);
  else setTimeout(callback, 0);
}
