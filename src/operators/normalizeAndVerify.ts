/** The client's two checking stages in one subscriber and one step (`checkedStep`, report mode): normalizeChunks then verifyEvents, both in report mode. */
import type { OperatorFunction } from "rxjs";
import type { Event } from "../protocol/events";
import { operate, SourceObserver } from "../rx/operate";
import { checkedStep, initialCheckedState, type CheckedSink } from "./checkedStep";
import { ChunkNormalizer } from "./normalizeChunks";
import { Diagnostic, type InBandReport } from "./ProtocolError";

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
export function normalizeAndVerify(
  options: { readonly newId?: () => string; readonly threadId?: string } = {},
): OperatorFunction<Event | InBandReport, Event | InBandReport> {
  const { newId, threadId } = options;
  return operate<Event | InBandReport, Event | InBandReport>((source, subscriber) => {
    const state = initialCheckedState({ mode: "report", newId, threadId });
    const sink: CheckedSink = { sent: (event) => subscriber.next(event), refused: (error) => subscriber.next(new Diagnostic(error)) };
    // The SourceObserver closes with the output (an error, completion, unsubscription), and a throw in the step (the user's newId) errors it.
    source.subscribe(new SourceObserver(subscriber, new ChunkNormalizer(subscriber, (event) => checkedStep(state, event, sink))));
  });
}
