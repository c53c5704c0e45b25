/** The time a store reads and the timers it sets, injectable so that lease tests need no sleeps (docs/durability.md). */

/**
 * What a store and `recordRun` need of time: the current time in milliseconds, and one-shot
 * timers. Tests pass a manual clock whose `advance(ms)` fires due timers synchronously.
 *
 * @example
 * const store = memoryStore({ clock: systemClock, lease: 30_000 });
 */
export interface StoreClock {
  /** Milliseconds since an arbitrary origin; never goes backwards. */
  now(): number;
  /** Calls `task` once, `ms` milliseconds from now; the returned function cancels it (calling it later does nothing). */
  setTimer(ms: number, task: () => void): () => void;
}

/**
 * The real clock: `Date.now()` and `setTimeout`. Its timers do not keep a Node process alive
 * (`unref`): a lease timer is bookkeeping, never a reason to stay up.
 *
 * @example
 * const cancel = systemClock.setTimer(1000, () => console.log("a second later"));
 */
export const systemClock: StoreClock = {
  now: () => Date.now(),
  setTimer(ms, task) {
    const handle = setTimeout(task, ms);
    // Node's Timeout has unref; browsers and edge runtimes return a number, which has none.
    if (typeof handle === "object" && typeof handle.unref === "function") handle.unref();
    return () => clearTimeout(handle);
  },
};
