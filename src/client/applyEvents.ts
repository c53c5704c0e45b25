/** The apply stage as an RxJS operator: events (and in-band reports) in, the Update stream of one run out. */
import type { OperatorFunction } from "rxjs";
import type { Event } from "../protocol/events";
import { isDiagnostic, type InBandReport } from "../operators/ProtocolError";
import { operate, SourceObserver } from "../rx/operate";
import { atBatchEnd } from "../rx/runInBatch";
import { isDecodeWarning } from "../wire/DecodeWarning";
import { ClientError } from "../thread/ClientError";
import { applyEvent } from "../thread/reducers/applyEvent";
import { failedUpdates } from "./failedExchange";
import { ClientState } from "../thread/reducers/ClientState";
import type { Update } from "../thread/Update";

/**
 * @internal Options of `applyEvents()`: the public entry offers `applyEvents()` alone, whose every
 * subscription applies to a fresh untyped state (docs/architecture.md § Public surface). The
 * published types leave this out (`stripInternal`), with the overload that takes it.
 *
 * @example
 * events$.pipe(applyEvents({ state })); // state: a ClientState, as the Session keeps one
 */
export interface ApplyEventsOptions<S> {
  /** @internal The state to apply to (a Session passes its own, so runs accumulate); a fresh untyped one by default. */
  readonly state?: ClientState<S> | undefined;
}

/**
 * Applies one run's events to a client state and emits the Update stream with the run-end contract
 * of docs/seeds.md#seed-001 / docs/rules.md#run-end, whatever the source does:
 *
 * - every event yields its updates (`applyEvent`, docs/rules.md#apply, docs/rules.md#A23); a `Diagnostic` (report mode)
 *   becomes an `error` update of kind `protocol` at its position, a `DecodeWarning` (material the
 *   decoder stripped) one of kind `warning`, and the run goes on (docs/rules.md#E4);
 * - the run ends at its first terminal event (docs/rules.md#E9): RUN_FINISHED → `done` success or interrupted,
 *   RUN_ERROR → `error` (kind `run`) then `done` failed; the source is then unsubscribed;
 * - the source completing before a terminal event (a truncated stream, docs/rules.md#E8) → `error` of kind
 *   `decode` then `done` failed; the source erroring (bad bytes, HTTP, network: anything) → an
 *   `error` (`ClientError.from`) then `done` failed;
 * - exactly one `done`, always last; the output never errors; what was applied stays applied (docs/rules.md#E6).
 *
 * STATE_DELTAs that arrive in one delivery batch (docs/client.md#state-batches; `runInBatch`: the events of one SSE read, as
 * `decodeSse` delivers them) are applied as one: each container of the state is copied once per
 * batch, not once per delta, and the batch's consecutive deltas yield one `state` update, the
 * last, emitted before anything else is (every other update, a diagnostic included, keeps its
 * position, with the state as it stood there) and at the batch's end. A delta that fails leaves the
 * state as the one before it left it. Events delivered one at a time (no batch) yield one `state`
 * update per delta.
 *
 * Per-event cost is `applyEvent`'s (proportional to the event). Each subscription applies to the
 * given state (or a fresh one), so subscribe once per run.
 *
 * @example
 * transport.run(input).pipe(
 *   normalizeChunks({ mode: "report" }),
 *   verifyEvents({ mode: "report" }),
 *   applyEvents(),
 * ).subscribe((update) => console.log(update.kind));
 */
export function applyEvents(): OperatorFunction<Event | InBandReport, Update<unknown>>;
/** @internal The Session's own: applies to its state, so runs accumulate. */
export function applyEvents<S>(options: ApplyEventsOptions<S> & { readonly state: ClientState<S> }): OperatorFunction<Event | InBandReport, Update<S>>;
export function applyEvents<S>(options: ApplyEventsOptions<S> = {}): OperatorFunction<Event | InBandReport, Update<S> | Update<unknown>> {
  return operate<Event | InBandReport, Update<S> | Update<unknown>>((source, subscriber) => {
    const state: ClientState<S> | ClientState<unknown> = options.state ?? ClientState.untyped();
    let ended = false;
    const fail = (error: ClientError): void => {
      ended = true;
      for (const update of failedUpdates<S>(error)) subscriber.next(update);
      subscriber.complete();
    };
    // The source is unsubscribed as soon as the run has ended (docs/rules.md#E9): the SourceObserver closes with the
    // output, so a synchronous source that is still emitting sees it and stops.
    const stop = (): void => {
      ended = true;
      upstream.unsubscribe();
    };
    // The batch's `state` update, held back until something else is emitted or the batch ends.
    let held: Update<S> | Update<unknown> | undefined;
    let flushAtEnd = false;
    const flush = (): void => {
      state.unpublished = undefined; // published: from now on shared, copied before any change
      const update = held;
      held = undefined;
      if (update !== undefined && !subscriber.closed) subscriber.next(update);
    };
    const endOfBatch = (): void => {
      flushAtEnd = false;
      if (!ended) flush();
    };
    const upstream = new SourceObserver<Event | InBandReport>(subscriber, {
      next(item) {
        if (ended) return;
        if (isDiagnostic(item)) {
          flush();
          const cause = item.error;
          subscriber.next({ kind: "error", error: new ClientError("protocol", cause.message, { cause, code: cause.rule, event: cause.event }) });
          return;
        }
        if (isDecodeWarning(item)) {
          flush();
          subscriber.next({ kind: "error", error: ClientError.fromWarning(item) });
          return;
        }
        // A STATE_DELTA inside a delivery batch joins the batch's unpublished state; anything else publishes it first.
        const batched = item.type === "STATE_DELTA" && (flushAtEnd || (flushAtEnd = atBatchEnd(endOfBatch)));
        if (batched) state.unpublished ??= new Set();
        else flush();
        let updates: readonly (Update<S> | Update<unknown>)[];
        try {
          updates = applyEvent<unknown>(state, item);
        } catch (thrown) {
          flush();
          // a bug, not a wire problem; still reported through the contract rather than as a stream error
          fail(
            new ClientError("decode", `applying ${item.type} failed: ${thrown instanceof Error ? thrown.message : String(thrown)}`, {
              cause: thrown,
              event: item,
            }),
          );
          stop();
          return;
        }
        for (let i = 0; i < updates.length; i++) {
          const update = updates[i];
          if (batched && update.kind === "state") {
            held = update;
            continue;
          }
          flush();
          subscriber.next(update);
          if (update.kind === "done") {
            subscriber.complete();
            stop();
            return;
          }
        }
      },
      error(error: unknown) {
        flush();
        if (!ended) fail(ClientError.from(error));
      },
      complete() {
        flush();
        if (!ended) {
          fail(new ClientError("decode", "the stream ended before the run's RUN_FINISHED or RUN_ERROR: it was truncated", { code: "truncated" }));
        }
      },
    });
    source.subscribe(upstream);
  });
}
