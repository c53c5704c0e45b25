/** The StoreErrors a run's writer (RedisRunWriter.ts) refuses with when Redis's log is not what the run expects (docs/durability.md §8). */
import { StoreError } from "../server/store/StoreError";

/**
 * The run is over (its terminal was logged, or it was ended ABANDONED): `run-ended`.
 *
 * @example
 * runEnded("t1", "r1", true).message; // 'expected run "r1" of thread "t1" to be live, but it is over (it was ended ABANDONED: its lease ran out)'
 */
export function runEnded(threadId: string, runId: string, abandoned: boolean, deleted = false): StoreError {
  const how = deleted ? " (its thread was deleted)" : abandoned ? " (it was ended ABANDONED: its lease ran out)" : "";
  return new StoreError("run-ended", `expected run "${runId}" of thread "${threadId}" to be live, but it is over${how}`, { threadId, runId });
}

/**
 * Where a batch was and where the log was, when the append script answered `misplaced`.
 *
 * @example
 * const where: MisplacedBatch = { threadId: "t1", runId: "r1", firstSeq: 5, count: 3, next: 7 };
 */
export interface MisplacedBatch {
  readonly threadId: string;
  readonly runId: string;
  /** The sequence number the batch said its first event gets. */
  readonly firstSeq: number;
  readonly count: number;
  /** The sequence number the thread's log is at (its next event's). */
  readonly next: number;
}

/**
 * The batch overlaps what is logged without being the last batch sent again, or leaves a gap:
 * `invalid-append` (nothing of it was logged).
 *
 * @example
 * misplacedBatch({ threadId: "t1", runId: "r1", firstSeq: 5, count: 3, next: 7 }).code; // "invalid-append"
 */
export function misplacedBatch(batch: MisplacedBatch): StoreError {
  const { threadId, runId, firstSeq, count, next } = batch;
  const why = firstSeq < next ? "it overlaps what is logged and is not the last batch logged sent again" : "it would leave a gap";
  return new StoreError(
    "invalid-append",
    `expected the batch of ${count} event(s) of run "${runId}" to start where thread "${threadId}"'s log ends, at sequence number ${next}, but it starts at ${firstSeq}: ${why}`,
    { threadId, runId },
  );
}
