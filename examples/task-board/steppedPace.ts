/** A pace for `count to <n>` that its caller steps: how tests keep a run live exactly as long as they need, without sleeping. */
import type { Pace } from "./counting";

/** The pace and its controls. */
export interface SteppedPace {
  /** Give it to the agent (`createTaskBoardAgent({ countPace })`). */
  readonly pace: Pace;
  /** Resolves once a step stands waiting (at once when one waits now). */
  waiting(): Promise<void>;
  /** Lets every waiting step go, and every later one until `hold()`. */
  release(): void;
  /** Makes the steps after this wait again (the state it starts in). */
  hold(): void;
}

/**
 * A pace whose steps wait until released. A step of a run that is cancelled meanwhile rejects with
 * the run's abort reason, so a stopped or interrupted run ends even while the pace holds.
 *
 * @example
 * const steps = steppedPace();
 * const agent = createTaskBoardAgent({ countPace: steps.pace });
 * // start "count to 3", then:
 * await steps.waiting(); // the run is live, at its first number
 * steps.release(); // it counts to the end
 */
export function steppedPace(): SteppedPace {
  let released = false;
  const waiters = new Set<() => void>();
  let onWaiting: (() => void)[] = [];
  const pace: Pace = (signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal.aborted) {
        reject(signal.reason);
        return;
      }
      if (released) {
        resolve();
        return;
      }
      const go = () => {
        waiters.delete(go);
        signal.removeEventListener("abort", cancelled);
        resolve();
      };
      const cancelled = () => {
        waiters.delete(go);
        reject(signal.reason);
      };
      waiters.add(go);
      signal.addEventListener("abort", cancelled, { once: true });
      const notify = onWaiting;
      onWaiting = [];
      for (const resolveWaiting of notify) resolveWaiting();
    });
  return {
    pace,
    waiting: () => (waiters.size > 0 ? Promise.resolve() : new Promise<void>((resolve) => onWaiting.push(resolve))),
    release() {
      released = true;
      for (const go of [...waiters]) go();
    },
    hold() {
      released = false;
    },
  };
}
