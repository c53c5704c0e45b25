/** Starting a stored run whose history the store owns (docs/threads.md#the-anchor-rule): one read, the rules, then `beginRun` at the cursor read. */
import type { RunTrace } from "../../protocol/runTraceMeta";
import { ev } from "../../protocol/build";
import type { RunAgentInput } from "../../protocol/input";
import { randomIds } from "../ids";
import type { RunWriter, StoreScope, ThreadRead, ThreadStore } from "../store/ThreadStore";
import { errorResponse } from "../http/errorResponse";
import { storeFailure } from "../http/streamResponse";
import type { HistoryMode } from "./HistoryMode";
import { refusalStatus } from "./HistoryRefusal";
import { reconcileHistory } from "./reconcileHistory";

/**
 * A begun run and the input it runs with (the effective input when the store owns the history).
 *
 * @example
 * const { writer, input } = begun;
 */
export interface BegunRun {
  readonly writer: RunWriter;
  readonly input: RunAgentInput;
}

/**
 * How `beginReconciledRun` begins: who owns the history, as whom, the headers of a refusal; the
 * thread as the caller read it already (`read`: the read's answer, `undefined` inside for a new
 * thread), so that it is not read twice; and `passQueue` for a post that answers what the thread
 * waits on (docs/queue.md#policies: it starts ahead of the thread's queue).
 *
 * @example
 * const options: BeginReconciledOptions = { history: "server", scope: { owner }, headers: {}, passQueue: true };
 */
export interface BeginReconciledOptions {
  readonly history: HistoryMode;
  readonly scope: StoreScope;
  readonly headers: Readonly<Record<string, string>>;
  readonly read?: { readonly read: ThreadRead | undefined };
  readonly passQueue?: boolean;
  /** The run's trace, for the logged RUN_STARTED (`BeginOptions.runTrace`, docs/observability.md#traces). */
  readonly runTrace?: RunTrace | undefined;
}

/**
 * Begins the run of `posted` on `store`, or answers why not. With `history: "server"` the thread
 * is read once (`store.read(threadId, undefined, scope)`, unless `read` holds that answer), the post is reconciled with it
 * (`reconcileHistory`: 409 `history-conflict` or 422 `history-forged`, nothing recorded, the
 * agent never called), and `beginRun` gets the effective input with `expectCursor` set to the
 * cursor read (a run that moved the thread meanwhile: 409 `history-conflict`). A starting state
 * that edits the stored one is logged as a STATE_SNAPSHOT right after the run's RUN_STARTED, so a
 * reload shows it (docs/threads.md#state). With `history: "client"` the post is begun as it is.
 * Store failures answer as `storeFailure` does.
 *
 * @example
 * const begun = await beginReconciledRun(store, input, { history: "server", scope: {}, headers: {} });
 * if (begun instanceof Response) return begun;
 */
export async function beginReconciledRun(store: ThreadStore, posted: RunAgentInput, options: BeginReconciledOptions): Promise<BegunRun | Response> {
  const { scope, headers } = options;
  const passQueue = options.passQueue === true ? { passQueue: true } : {};
  const traced = options.runTrace === undefined ? {} : { runTrace: options.runTrace };
  try {
    if (options.history === "client") return { writer: await store.beginRun(posted, { ...scope, ...passQueue, ...traced }), input: posted };
    const read = options.read === undefined ? await store.read(posted.threadId, undefined, scope) : options.read.read;
    if (read !== undefined && read.kind !== "snapshot") {
      return errorResponse(
        500,
        { error: "internal", message: `expected the store to read thread ${JSON.stringify(posted.threadId)} as a snapshot, but it answered ${read.kind}` },
        headers,
      );
    }
    const verdict = reconcileHistory(read?.snapshot, posted, randomIds);
    if ("error" in verdict) return errorResponse(refusalStatus(verdict), verdict, headers);
    const fork = verdict.forkAfter === undefined ? {} : { forkAfter: verdict.forkAfter };
    const path = verdict.expectPath === undefined ? {} : { expectPath: verdict.expectPath };
    const writer = await store.beginRun(verdict.input, { ...scope, expectCursor: verdict.expectCursor, ...fork, ...path, ...passQueue, ...traced });
    // Logged before the run's own events (recordRun appends after this resolves). Should it fail, the
    // store is failing: the answer says so, and the begun run ends ABANDONED when its lease runs out.
    if (verdict.recordState) await writer.append([ev.stateSnapshot(verdict.input.state)]);
    return { writer, input: verdict.input };
  } catch (error) {
    return storeFailure(error, headers);
  }
}
