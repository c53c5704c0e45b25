/** The thread store's one error class (docs/durability.md#stores-and-routes): a closed code, context in an options object, the cause kept. */
import { Brand } from "../../protocol/Brand";
import { causeOption, copyDefined } from "../../protocol/errorDetails";

/**
 * Why a store operation was refused. Closed: the HTTP layer maps each to one answer.
 *
 * - `run-active`: `beginRun` on a thread whose run is still live (one run per thread at a time) → 409;
 * - `run-ended`: `append` on a run that is over (its terminal was logged, or it was ended `ABANDONED`);
 * - `invalid-append`: the batch breaks the log's shape (an event after the terminal, a second
 *   RUN_STARTED, a chunk or THINKING_* event that `normalizeChunks()` should have expanded, an
 *   event that is not JSON); nothing of the batch is logged;
 * - `run-too-large`: the run would pass the store's bound for one run (`memoryStore`'s
 *   `maxRunBytes`), or the store has no room it may free for it. From `append`, nothing of the
 *   batch is logged and the store ends the run with one `RUN_ERROR` code `RUN_TOO_LARGE` (stop the
 *   agent); from `beginRun` (the input's new messages alone are too large) nothing is logged → 413;
 * - `capacity`: a new thread does not fit and every thread has a live run → 503;
 * - `evicted`: a tail's thread or cursor left the store while it was followed (reconnect: the
 *   snapshot path answers it);
 * - `unavailable`: the backend failed (a Redis store's connection); the cause says how;
 * - `history-moved`: `beginRun` with an `expectCursor` the thread has moved past (another run
 *   changed it since the handler read it) → 409 `history-conflict`;
 * - `deleted`: `beginRun` on a thread deleted less than a lease ago (its tombstone) → 409;
 * - `queue-pending`: `beginRun` of a plain run on a thread whose queue is not empty (the queue goes
 *   first, docs/queue.md) → 409;
 * - `queue-moved`: `beginRun` with `dequeue` naming an entry that is no longer the queue's head
 *   (another instance started it, or it was cancelled) → the caller lets it be.
 *
 * @example
 * const status = error.code === "run-active" ? 409 : error.code === "capacity" ? 503 : 500;
 */
export type StoreErrorCode =
  | "run-active"
  | "run-ended"
  | "invalid-append"
  | "run-too-large"
  | "capacity"
  | "evicted"
  | "unavailable"
  | "history-moved"
  | "deleted"
  | "queue-pending"
  | "queue-moved";

/**
 * The context a StoreError carries.
 *
 * @example
 * new StoreError("run-ended", "expected run r1 to be live, but it is over", { threadId: "t1", runId: "r1" });
 */
export interface StoreErrorDetails {
  readonly threadId?: string | undefined;
  readonly runId?: string | undefined;
  /** The error underneath (a backend failure, a JSON error). */
  readonly cause?: unknown;
}

/** The cross-copy brand (docs/packaging.md); its key is the one earlier versions put on each instance. */
const STORE_ERROR = new Brand<StoreError>("agui-rx.StoreError");

/**
 * A refused store operation: `code` says which refusal, the message what was expected and what
 * arrived, `threadId`/`runId` where. Recognised across copies of the package by `StoreError.isInstance`.
 *
 * @example
 * try { await store.beginRun(input); }
 * catch (error) { if (StoreError.isInstance(error) && error.code === "run-active") return conflict(); throw error; }
 */
export class StoreError extends Error {
  override readonly name = "StoreError";
  readonly threadId?: string;
  readonly runId?: string;
  static {
    STORE_ERROR.mark(this);
  }

  constructor(
    readonly code: StoreErrorCode,
    message: string,
    details: StoreErrorDetails = {},
  ) {
    super(message, causeOption(details));
    copyDefined(this, details, ["threadId", "runId"]);
  }

  /** True for a StoreError from this or any other copy of the package (ESM and CJS side by side). */
  static isInstance(value: unknown): value is StoreError {
    return STORE_ERROR.is(value);
  }
}
