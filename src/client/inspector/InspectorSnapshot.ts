/** What an `Inspector` holds at one moment (docs/observability.md#inspector). */
import type { Message } from "../../protocol/messages";
import type { InspectedEvent } from "./InspectedEvent";
import type { InspectorFinding } from "./InspectorFinding";

/**
 * A finding about a stream as a whole (a transport failure, a stream with no terminal event),
 * with the stream it is about.
 *
 * @example
 * const problem: StreamFinding = { stream: 0, at: 1700000000000, finding: { severity: "error", stage: "run-end", rule: "E8", message: "…" } };
 */
export interface StreamFinding {
  readonly stream: number;
  readonly at: number;
  readonly finding: InspectorFinding;
}

/**
 * An immutable view of an inspector: a new object after each change (so `useSyncExternalStore`
 * redraws), the same object while nothing changed.
 *
 * - `events`: the kept events, oldest first (at most `maxEvents`); `dropped` how many older ones
 *   were let go;
 * - `streamFindings`: findings about whole streams (at most `maxEvents` kept too);
 * - `errors` and `warnings`: how many findings the kept events and streams hold;
 * - `messages` and `state`: the thread as the client's reducer folds the received events (the
 *   message tree is `messageTree(messages)`);
 * - `traceId`: the trace id of the latest run that named one (RUN_STARTED `metadata`, under
 *   `"agui-rx"`), and `traceLink` it put into the link template, when there is a template;
 * - `streams`: how many streams were seen.
 *
 * @example
 * const { events, dropped, traceId } = inspector.getSnapshot();
 */
export interface InspectorSnapshot {
  readonly events: readonly InspectedEvent[];
  readonly dropped: number;
  readonly streamFindings: readonly StreamFinding[];
  readonly errors: number;
  readonly warnings: number;
  readonly messages: readonly Message[];
  readonly state: unknown;
  readonly traceId: string | undefined;
  readonly traceLink: string | undefined;
  readonly streams: number;
}
