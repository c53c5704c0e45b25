/** The ordering verifier as an RxJS operator (docs/rules.md#order, docs/rules.md#violations). */
import { defer, map, type Observable, type OperatorFunction } from "rxjs";
import type { Event } from "../protocol/events";
import { Diagnostic, isInBandReport, type InBandReport, type VerificationMode } from "./ProtocolError";
import { verifyEvent } from "./verify/verifyStep";
import { initialVerifierState, type VerifierExpectations } from "./verify/VerifierState";

/** Options of `verifyEvents()`. */
export interface VerifyEventsOptions {
  /** `strict` (the default) errors the stream at the first violation; `report` emits a Diagnostic instead and goes on. */
  readonly mode?: VerificationMode | undefined;
  /**
   * The thread the consumer sent (RunAgentInput.threadId). Every RUN_STARTED and RUN_FINISHED of
   * the stream must name it (docs/rules.md#R7a); without it, the first RUN_STARTED's thread is the stream's.
   */
  readonly threadId?: string | undefined;
}

/**
 * Checks every event against the ordering rules of docs/rules.md#order (docs/rules.md#R1 to docs/rules.md#R45, docs/rules.md#R7a) and passes the valid ones
 * on unchanged, in order. Each subscription verifies with its own fresh state; completion and
 * unsubscription pass straight through to the source.
 *
 * - **strict** (the default; the server's mode): the first violation errors the stream with its
 *   `ProtocolError` (`code`, `rule`, `event`), and the source is unsubscribed. Events before it
 *   were already delivered.
 * - **report** (the client `Session` uses this mode, docs/seeds.md#seed-001): the offending event is not passed on;
 *   a `Diagnostic` carrying the `ProtocolError` is emitted in its place and the stream goes on,
 *   verifying the next event against the state from before the rejected one. In-band reports
 *   arriving from upstream (the chunk normalizer's `Diagnostic`s, the decoder's `DecodeWarning`s)
 *   pass through untouched.
 *
 * Work per event is O(1) (O(size of the event) for MESSAGES_SNAPSHOT and RUN_STARTED.input).
 *
 * @example
 * // strict:  source  -a-b-c-|   a = RUN_STARTED, b = TEXT_MESSAGE_CONTENT(m9), c = RUN_FINISHED
 * //          output  -a-#       # = ProtocolError { code: "text-message", rule: "R15" }
 * events$.pipe(verifyEvents());
 *
 * // report:  source  -a-b-c-|
 * //          output  -a-d-c-|   d = Diagnostic(ProtocolError docs/rules.md#R15); c is checked as if b never came
 * events$.pipe(verifyEvents({ mode: "report" }));
 */
export function verifyEvents(options?: { readonly mode?: "strict" | undefined; readonly threadId?: string | undefined }): OperatorFunction<Event, Event>;
export function verifyEvents(options: {
  readonly mode: "report";
  readonly threadId?: string | undefined;
}): OperatorFunction<Event | InBandReport, Event | InBandReport>;
export function verifyEvents(options?: VerifyEventsOptions): OperatorFunction<Event, Event> | OperatorFunction<Event | InBandReport, Event | InBandReport>;
export function verifyEvents(options: VerifyEventsOptions = {}): OperatorFunction<Event, Event> | OperatorFunction<Event | InBandReport, Event | InBandReport> {
  const expect = options.threadId === undefined ? {} : { threadId: options.threadId };
  if (options.mode === "report") return (source: Observable<Event | InBandReport>) => reportViolations(source, expect);
  return (source: Observable<Event>) => failOnViolation(source, expect);
}

function failOnViolation(source: Observable<Event>, expect: VerifierExpectations): Observable<Event> {
  return defer(() => {
    const state = initialVerifierState(expect);
    return source.pipe(
      map((event) => {
        const error = verifyEvent(state, event); // updates `state` in place when it accepts
        // Throwing inside `map` errors the output and unsubscribes the source, even a synchronous one.
        if (error !== undefined) throw error;
        return event;
      }),
    );
  });
}

function reportViolations(source: Observable<Event | InBandReport>, expect: VerifierExpectations): Observable<Event | InBandReport> {
  return defer(() => {
    const state = initialVerifierState(expect);
    return source.pipe(
      map((item): Event | InBandReport => {
        if (isInBandReport(item)) return item;
        const error = verifyEvent(state, item); // updates `state` in place when it accepts
        return error === undefined ? item : new Diagnostic(error);
      }),
    );
  });
}
