/** A stored run's appends, counted for its span (docs/observability.md#store-work). */
import { AppendTally, STORE_APPENDS_EVENT } from "../store/AppendTally";
import type { Telemetry } from "../../telemetry/Telemetry";
import type { RunSpans } from "./RunSpans";

/** The tally `recordRun` feeds, and the report that puts it on the run's span. */
export interface AppendCount {
  /** What `recordRun` counts into; `undefined` when the run is not traced (nothing is counted). */
  readonly tally: AppendTally | undefined;
  /** The recording ended: the counts go on the run's span as one event `agui_rx.store.appends`, and the span may end. Once. */
  readonly report: () => void;
}

const UNTRACED: AppendCount = { tally: undefined, report: () => undefined };

/**
 * The append count of a stored run traced by `spans`: a tally, and the run's span held open until
 * `report` puts the tally on it (one span event, however many batches), so that the counts land
 * even when the run's terminal event was sent before its last append resolved. Nothing (no
 * tally, nothing held) when the run is not traced; a tracer that throws loses the event, never
 * the run.
 *
 * @example
 * const appends = countAppends(context.telemetry, spans);
 * events.pipe(recordRun(writer, { tally: appends.tally })).subscribe({ complete: appends.report, error: appends.report });
 */
export function countAppends(telemetry: Telemetry, spans: RunSpans | undefined): AppendCount {
  if (spans === undefined) return UNTRACED;
  const tally = new AppendTally();
  const release = spans.hold();
  let reported = false;
  return {
    tally,
    report: () => {
      if (reported) return;
      reported = true;
      try {
        telemetry.spanOf(spans.context)?.addEvent(STORE_APPENDS_EVENT, tally.attributes());
      } catch {
        // a tracer that throws never breaks a run
      }
      release();
    },
  };
}
