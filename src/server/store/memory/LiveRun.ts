/** A memory store thread's live run (docs/durability.md §1, §6): its lease, its stop request and who watches them, and its bytes. */
import type { Observable } from "rxjs";
import type { QueuedRun } from "../QueuedRun";
import { watchStop, type StopWatcher } from "../watchStop";

/**
 * The live run: its lease, its stop request, who watches for either, and its bytes.
 *
 * @example
 * const live: LiveRun = { runId: "r1", loggedBytes: 0, foldBytes: 0, limit: 1024, deadline: 30_000, cancelTimer: () => undefined, stopRequested: false, watchers: new Set(), steerWatchers: new Set() };
 */
export interface LiveRun {
  readonly runId: string;
  /** The JSON text length of its events as logged (they stay in the log while it is live). */
  loggedBytes: number;
  /**
   * What its events may have added to the thread's compacted state, counted as they are appended:
   * each event's JSON text length again (its input's new messages for the RUN_STARTED). Replaced
   * by the compacted state's measured size when the run ends.
   */
  foldBytes: number;
  /** The most `loggedBytes + foldBytes` may reach: `maxRunBytes`, or less when the thread's compacted state leaves less room. */
  readonly limit: number;
  /** The lease runs out at this clock time unless an append or a renewal moves it. */
  deadline: number;
  cancelTimer: () => void;
  stopRequested: boolean;
  /** Called with `true` on a stop request, `false` when the run ends. */
  readonly watchers: Set<StopWatcher>;
  /** Called with each steer stored for this run while it is live (`RunWriter.steers`, see liveSteers.ts). */
  readonly steerWatchers: Set<(entry: QueuedRun) => void>;
}

/**
 * `RunWriter.stopRequested` for `live`: emits once on a stop request (also one made before
 * subscribing) and completes; completes without emitting when the run ends first.
 *
 * @example
 * const stopRequested = stopRequests(live, () => thread.live === live);
 */
export function stopRequests(live: LiveRun, isLive: () => boolean): Observable<void> {
  return watchStop(() => live.stopRequested, isLive, live.watchers);
}
