/**
 * Sharing the event loop between the event streams of one process (docs/http.md, "Fairness").
 * A paced producer awaits `ready()` between events; while the socket takes data that promise
 * resolves as a microtask, so without a macrotask yield one run would stream to its end while
 * every other run, timer and incoming request waits. Here streams take turns: each runs for a
 * slice, then waits in a first-in-first-out line, and each event-loop turn resumes only as many
 * as fit in the turn's budget.
 */

/**
 * Options of {@link fairTurns}.
 *
 * @example
 * fairTurns({ budgetMs: 10, sliceMs: 1 });
 */
export interface FairTurnsOptions {
  /**
   * How long streams may run, all together, in one event-loop turn before the loop gets it back,
   * in ms (default 10). This is the lag the streams add to timers and incoming requests.
   */
  readonly budgetMs?: number | undefined;
  /**
   * How long one stream runs before it gives way, in ms (default 1): long enough to fill a chunk of
   * many events (few, large socket writes), short enough that many streams share a turn.
   */
  readonly sliceMs?: number | undefined;
  /** The clock, in ms (default `performance.now`). Inject one to make turns deterministic in tests. */
  readonly now?: (() => number) | undefined;
  /** Runs `callback` in a later macrotask (default `setImmediate` where there is one, else `setTimeout(…, 0)`). */
  readonly defer?: ((callback: () => void) => void) | undefined;
}

/**
 * A scheduler that the streams of one process share.
 *
 * @example
 * const turn = fairTurns().join();
 * await (turn.pause() ?? Promise.resolve());
 * turn.leave();
 */
export interface FairTurns {
  /** Registers one more stream; call `leave()` on its turn when the stream ends. */
  join(): StreamTurn;
  /** How many streams are registered now. */
  readonly streams: number;
  /** How many streams wait for their next turn now. */
  readonly waiting: number;
}

/**
 * One stream's place in a {@link FairTurns}.
 *
 * @example
 * const pause = turn.pause();
 * if (pause) await pause; // the slice (or the loop turn's budget) was used up
 */
export interface StreamTurn {
  /**
   * `undefined` while the stream may go on; once its slice or the loop turn's budget is used up, a
   * promise that resolves when its next turn comes (in a later macrotask, in line order).
   */
  pause(): Promise<void> | undefined;
  /** The stream ended; idempotent. A stream waiting in line gives its place up. */
  leave(): void;
}

/** The default budget: 10 ms of streaming per event-loop turn, shared by every open stream. */
export const DEFAULT_TURN_BUDGET_MS = 10;

/** The default slice: 1 ms of one stream's streaming before it gives way. */
export const DEFAULT_TURN_SLICE_MS = 1;

/**
 * Makes a scheduler. A stream's `pause()` lets it go on until it has run `sliceMs` since its turn
 * began or the event-loop turn has used `budgetMs`; then the stream joins the line. Each loop turn
 * resumes the first `budgetMs / sliceMs` streams of the line (in a macrotask of its own), so the
 * loop gets control back about every `budgetMs` however many streams there are, and every stream
 * gets a turn in order. A stream alone gives way once per slice, which costs it one macrotask per
 * millisecond. Measured in `npm run test:load` (500 concurrent runs).
 *
 * @example
 * const turns = fairTurns({ budgetMs: 5 });
 * toEventStream(source, { turns });
 */
export function fairTurns(options: FairTurnsOptions = {}): FairTurns {
  const budget = options.budgetMs ?? DEFAULT_TURN_BUDGET_MS;
  const slice = options.sliceMs ?? DEFAULT_TURN_SLICE_MS;
  const now = options.now ?? (() => performance.now());
  const defer = options.defer ?? defaultDefer;
  const perTurn = Math.max(1, Math.floor(budget / Math.max(slice, Number.MIN_VALUE)));
  let streams = 0;
  /** Streams waiting for their turn, first in line first. */
  let line: (() => void)[] = [];
  let pumping = false;
  /** When the current loop turn's budget started, and whether a later macrotask will start the next one. */
  let budgetStartedAt = 0;
  let budgetOpen = false;

  /** Starts the budget of this loop turn on the first check in it; a deferred callback ends it. */
  const openBudget = (time: number): void => {
    if (budgetOpen) return;
    budgetOpen = true;
    budgetStartedAt = time;
    defer(() => (budgetOpen = false));
  };
  /** One loop turn's share of the line: resumed in order, they run one after another in this macrotask's microtasks. */
  const pump = (): void => {
    pumping = false;
    budgetOpen = false;
    openBudget(now());
    const resumed = line.slice(0, perTurn);
    line = line.slice(perTurn);
    for (const resume of resumed) resume();
    if (line.length > 0) schedulePump();
  };
  const schedulePump = (): void => {
    if (pumping) return;
    pumping = true;
    defer(pump);
  };

  return {
    get streams() {
      return streams;
    },
    get waiting() {
      return line.length;
    },
    join() {
      streams++;
      /** When this stream's current slice began: at its first check after it was (re)started. */
      let sliceStartedAt: number | undefined;
      let resume: (() => void) | undefined;
      let left = false;
      return {
        pause() {
          if (left) return undefined;
          const time = now();
          openBudget(time);
          sliceStartedAt ??= time;
          if (time - sliceStartedAt < slice && time - budgetStartedAt < budget) return undefined;
          return new Promise<void>((resolve) => {
            resume = () => {
              resume = undefined;
              sliceStartedAt = undefined;
              resolve();
            };
            line.push(resume);
            schedulePump();
          });
        },
        leave() {
          if (left) return;
          left = true;
          streams--;
          if (resume !== undefined) {
            line = line.filter((waiting) => waiting !== resume);
            resume(); // a stream that ended while it waited must not hang its producer
          }
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

function defaultDefer(callback: () => void): void {
  if (typeof setImmediate === "function") setImmediate(callback);
  else setTimeout(callback, 0);
}
