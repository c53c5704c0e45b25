/** The client's two checking stages in one subscriber: normalizeChunks then verifyEvents, both in report mode. */
import type { OperatorFunction } from "rxjs";
import type { Event } from "../protocol/events";
import { operate, SourceObserver } from "../rx/operate";
import { ChunkNormalizer } from "./normalizeChunks";
import { Diagnostic, type InBandReport } from "./ProtocolError";
import { initialNormalizerState } from "./normalize/normalizeStep";
import { initialVerifierState, verifyEvent } from "./verify/verifyStep";

/**
 * Exactly `normalizeChunks({ mode: "report", newId })` followed by `verifyEvents({ mode: "report", threadId })`,
 * with one subscriber instead of the two operators' chain of subscribers: the same items in the same
 * order (each normalized event verified, a rejected one replaced by a `Diagnostic`; in-band reports
 * from upstream, such as the decoder's `DecodeWarning`s, passed on untouched), the same fresh state per subscription, completion, errors and
 * unsubscription passed straight through. The client `Session` uses it because this plumbing is a
 * measurable share of the per-event cost on the hot path (issue #5); the public operators are unchanged.
 * Not re-exported from the package root.
 *
 * @example
 * transport.run(input).pipe(normalizeAndVerify({ newId }), applyEvents({ state }));
 */
export function normalizeAndVerify(options: { readonly newId?: () => string; readonly threadId?: string } = {}): OperatorFunction<Event | InBandReport, Event | InBandReport> {
  const { newId, threadId } = options;
  return operate<Event | InBandReport, Event | InBandReport>((source, subscriber) => {
    const verifier = initialVerifierState(threadId === undefined ? {} : { threadId });
    const verify = (event: Event): void => {
      let error: ReturnType<typeof verifyEvent>;
      try {
        error = verifyEvent(verifier, event); // updates the verifier state in place when it accepts
      } catch (thrown) {
        // verifyEvents runs the step inside `map`, which turns a throw into a stream error: so does this.
        subscriber.error(thrown);
        return;
      }
      subscriber.next(error === undefined ? event : new Diagnostic(error));
    };
    const normalizer = initialNormalizerState(newId === undefined ? {} : { newId });
    // The SourceObserver closes with the output (an error, completion, unsubscription), and a throw while normalizing errors it.
    source.subscribe(new SourceObserver(subscriber, new ChunkNormalizer(subscriber, true, normalizer, verify)));
  });
}
