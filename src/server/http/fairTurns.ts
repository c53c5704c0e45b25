/**
 * Sharing the event loop between the event streams of one process (docs/http.md, "Fairness").
 * A paced producer awaits `ready()` between events; while the socket takes data that promise
 * resolves as a microtask, so without a macrotask yield one run would stream to its end while
 * every other run, timer and incoming request waits. Here each stream gets a time slice and,
 * once it is used up, its next `ready()` resolves in a later macrotask instead.
 */

/**
 * Options of {@link fairTurns}.
 *
 * @example
 * fairTurns({ budgetMs: 10 });
 */
export interface FairTurnsOptions {
  /**
   * How long the streams may run, all together, before the event loop gets a turn, in ms (default
   * 10). Each stream's slice is this budget divided by the number of streams open.
   */
  readonly budgetMs?: number;
  /** The clock, in ms (default `performance.now`). Inject one to make slicing deterministic in tests. */
  readonly now?: () => number;
  /** Runs `resume` in a later macrotask (default `setImmediate` where there is one, else `setTimeout(…, 0)`). */
  readonly defer?: (resume: () => void) => void;
}

/**
 * A scheduler that the streams of one process share.
 *
 * @example
 * const turns = fairTurns();
 * const turn = turns.join();
 * await (turn.pause() ?? Promise.resolve());
 * turn.leave();
 */
export interface FairTurns {
  /** Registers one more stream; call `leave()` on its turn when the stream ends. */
  join(): StreamTurn;
  /** How many streams are registered now. */
  readonly streams: number;
}

/**
 * One stream's place in a {@link FairTurns}.
 *
 * @example
 * const pause = turn.pause();
 * if (pause) await pause; // the slice was used up: resumed in a later macrotask
 */
export interface StreamTurn {
  /**
   * `undefined` while the stream's slice lasts; once it is used up, a promise that resolves in a
   * later macrotask and starts the next slice.
   */
  pause(): Promise<void> | undefined;
  /** The stream ended; idempotent. */
  leave(): void;
}

/** The default budget: 10 ms of streaming per event-loop turn, shared by every open stream. */
export const DEFAULT_TURN_BUDGET_MS = 10;

/**
 * Makes a scheduler: each stream may run for `budgetMs / streams` since it last resumed before
 * its next `pause()` yields to the event loop. So with 500 streams open each gets 20 µs per turn
 * and one pass over all of them takes about the budget, however many there are; a stream alone
 * yields once every 10 ms, which costs it next to nothing. Measured in `npm run test:load`.
 *
 * @example
 * const turns = fairTurns({ budgetMs: 5 });
 * toEventStream(source, { turns });
 */
export function fairTurns(options: FairTurnsOptions = {}): FairTurns {
  const budget = options.budgetMs ?? DEFAULT_TURN_BUDGET_MS;
  const now = options.now ?? (() => performance.now());
  const defer = options.defer ?? defaultDefer;
  let streams = 0;
  return {
    get streams() {
      return streams;
    },
    join() {
      streams++;
      let sliceStartedAt = now();
      let left = false;
      return {
        pause() {
          if (now() - sliceStartedAt < budget / Math.max(1, streams)) return undefined;
          return new Promise<void>((resolve) =>
            defer(() => {
              sliceStartedAt = now();
              resolve();
            }),
          );
        },
        leave() {
          if (left) return;
          left = true;
          streams--;
        },
      };
    },
  };
}

/**
 * The scheduler every `createHandler` and `toEventStream` uses unless given another: one per
 * process (module instance), because the event loop is one per process.
 *
 * @example
 * sharedTurns.streams; // how many responses are streaming now
 */
export const sharedTurns: FairTurns = fairTurns();

function defaultDefer(resume: () => void): void {
  if (typeof setImmediate === "function") setImmediate(resume);
  else setTimeout(resume, 0);
}
