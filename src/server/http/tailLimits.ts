/** What bounds a store's tails in one process (docs/http.md, "Readers that never read"): the shared frames, their budget, the idle-write timeout. */
import type { StoreClock } from "../store/StoreClock";
import { errorResponse } from "./errorResponse";
import { fairTurns, type FairTurns } from "./fairTurns";
import type { TailFrames } from "./TailFrames";
import type { EventStreamOptions } from "./toEventStream";

/**
 * A handler's tail limits, resolved from its options.
 *
 * @example
 * const limits: TailLimits = { frames: sharedTailFrames, maxBytes: DEFAULT_MAX_TAIL_BYTES, idleWriteTimeoutMs: 30_000, clock: systemClock };
 */
export interface TailLimits {
  readonly frames: TailFrames;
  readonly maxBytes: number;
  /** `undefined`: no idle-write timeout. */
  readonly idleWriteTimeoutMs: number | undefined;
  readonly clock: StoreClock;
}

/**
 * The turns the writes of a process's `/connect` tails take (0.5 ms of each event-loop turn,
 * 0.25 ms per tail): the bytes a tail's socket accepts cost the kernel about as much as the run
 * that made them, so 500 tails writing as fast as their sockets take would leave a run and its own
 * client a fraction of the process. Measured in `test/load/unreadTails.load.test.ts` (with frames
 * handed on uncopied): with 2 ms the honest client took 1.9× its time alone, with 1 ms 1.5–1.7×,
 * with 0.5 ms 1.37–1.41×. Tails still get their share: a reader that reads is never starved.
 */
const tailWriteTurns: FairTurns = fairTurns({ budgetMs: 0.5, sliceMs: 0.25 });

/** How long a refused tail is told to wait (`Retry-After`, seconds): about what readers need to drain, or an idle one to be cut. */
const RETRY_AFTER_SECONDS = "5";

/**
 * The stream options of a store-backed response (a run's own or a `/connect` tail): frames shared
 * through the pool, the idle-write timeout on the handler's clock, and gathered writes (many
 * tails of one run then cost a socket write per 64 KiB each, not one per event).
 *
 * @example
 * toEventStream(frames$, { ...context.stream, ...tailStreamOptions(context.tails), signal: request.signal });
 */
export function tailStreamOptions(limits: TailLimits): Pick<EventStreamOptions, "frames" | "idleWriteTimeoutMs" | "clock" | "gatherWrites"> {
  return { frames: limits.frames, idleWriteTimeoutMs: limits.idleWriteTimeoutMs, clock: limits.clock, gatherWrites: true };
}

/**
 * The stream options of a `/connect` tail: those of every store-backed response, its writes take
 * turns with the other tails' (a bounded part of each event-loop turn), and its frames go out
 * uncopied.
 *
 * @example
 * toEventStream(frames$, { ...context.stream, ...connectStreamOptions(context.tails), signal: request.signal });
 */
export function connectStreamOptions(
  limits: TailLimits,
): Pick<EventStreamOptions, "frames" | "idleWriteTimeoutMs" | "clock" | "gatherWrites" | "writeTurns" | "uncopiedFrames"> {
  return { ...tailStreamOptions(limits), writeTurns: tailWriteTurns, uncopiedFrames: true };
}

/**
 * `undefined` while the frames queued to the process's tails are within `maxBytes`, else the
 * answer for a new tail: 503 `capacity` with `Retry-After`. Only `/connect` asks: a run's own
 * response is never refused by the budget (its frames count, as they are shared with its tails).
 *
 * @example
 * const refused = refuseOverBudget(context.tails, context.headers);
 * if (refused) return refused;
 */
export function refuseOverBudget(limits: TailLimits, headers: Readonly<Record<string, string>>): Response | undefined {
  const queued = limits.frames.queuedBytes;
  if (queued <= limits.maxBytes) return undefined;
  const message = `expected room for another tail, but ${queued} bytes of events already wait for this server's readers, more than its budget of ${limits.maxBytes} (maxTailBytes); retry later`;
  return errorResponse(503, { error: "capacity", message }, { ...headers, "Retry-After": RETRY_AFTER_SECONDS });
}
