/** The client's two checking stages in one subscriber: normalizeChunks then verifyEvents, both in report mode. */
import { Observable, Subscription, type Observer, type OperatorFunction, type Subscriber } from "rxjs";
import * as E from "fp-ts/Either";
import type { Event } from "../protocol/events";
import { Diagnostic, isDiagnostic } from "./ProtocolError";
import { initialNormalizerState, normalizeStep, passesThrough, type NormalizerState } from "./normalize/normalizeStep";
import { initialVerifierState, verifyEvent, type VerifierState } from "./verify/verifyStep";

/**
 * Exactly `normalizeChunks({ mode: "report", newId })` followed by `verifyEvents({ mode: "report" })`,
 * with one subscriber instead of the two operators' chain of subscribers: the same items in the same
 * order (each normalized event verified, a rejected one replaced by a `Diagnostic`; diagnostics from
 * upstream passed on untouched), the same fresh state per subscription, completion, errors and
 * unsubscription passed straight through. The client `Session` uses it because this plumbing is a
 * measurable share of the per-event cost on the hot path (issue #5); the public operators are unchanged.
 * Not re-exported from the package root.
 *
 * @example
 * transport.run(input).pipe(normalizeAndVerify({ newId }), applyEvents({ state }));
 */
export function normalizeAndVerify(options: { readonly newId?: () => string } = {}): OperatorFunction<Event | Diagnostic, Event | Diagnostic> {
  const newId = options.newId;
  return (source) =>
    new Observable<Event | Diagnostic>((subscriber) => {
      const upstream = new Checker(subscriber, initialNormalizerState(newId === undefined ? {} : { newId }), initialVerifierState());
      // Whatever closes the output (an error, completion, unsubscription) closes `upstream` too.
      subscriber.add(upstream);
      source.subscribe(upstream);
    });
}

/** The per-subscription observer of the source; a Subscription too, so a synchronous source sees it close (as in normalizeChunks). */
class Checker extends Subscription implements Observer<Event | Diagnostic> {
  constructor(
    private readonly destination: Subscriber<Event | Diagnostic>,
    private readonly normalizer: NormalizerState,
    private readonly verifier: VerifierState,
  ) {
    super();
  }

  next(item: Event | Diagnostic): void {
    if (this.closed) return;
    if (isDiagnostic(item)) {
      this.destination.next(item);
      return;
    }
    if (passesThrough(this.normalizer, item)) {
      this.verify(item);
      return;
    }
    const result = normalizeStep(this.normalizer, item); // updates the normalizer state in place when it accepts
    if (E.isLeft(result)) {
      this.destination.next(new Diagnostic(result.left));
      return;
    }
    for (const event of result.right.events) this.verify(event);
  }

  error(error: unknown): void {
    this.destination.error(error);
  }

  complete(): void {
    this.destination.complete();
  }

  private verify(event: Event): void {
    let error: ReturnType<typeof verifyEvent>;
    try {
      error = verifyEvent(this.verifier, event); // updates the verifier state in place when it accepts
    } catch (thrown) {
      // verifyEvents runs the step inside `map`, which turns a throw into a stream error: so does this.
      this.destination.error(thrown);
      return;
    }
    this.destination.next(error === undefined ? event : new Diagnostic(error));
  }
}
