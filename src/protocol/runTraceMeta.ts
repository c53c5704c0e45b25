/**
 * Where a run's trace is written down in its own log (docs/observability.md#traces): the
 * `metadata` of its RUN_STARTED, under our key (`"agui-rx"`), as `{ traceId, spanId }` of the
 * run's span. AG-UI has no trace field; `metadata` is the place it leaves to implementations, so a
 * reconnect, a second instance or a UI reads the run's trace from the event that opens it.
 */
import { ownKeyOf, withOwnEntries } from "./ownKey";

/**
 * The W3C trace context of a run's span (`invoke_agent`): 32 and 16 lowercase hex digits.
 *
 * @example
 * const trace: RunTrace = { traceId: "4bf92f3577b34da6a3ce929d0e0e4736", spanId: "00f067aa0ba902b7" };
 */
export interface RunTrace {
  readonly traceId: string;
  readonly spanId: string;
}

const TRACE_ID = /^[0-9a-f]{32}$/;
const SPAN_ID = /^[0-9a-f]{16}$/;

/**
 * The run's trace a RUN_STARTED's `metadata` names, or `undefined` when it names none (or a
 * malformed one: anything but 32 and 16 lowercase hex digits).
 *
 * @example
 * runTraceOf({ "agui-rx": { traceId: "4bf92f3577b34da6a3ce929d0e0e4736", spanId: "00f067aa0ba902b7" } });
 * // { traceId: "4bf92f3577b34da6a3ce929d0e0e4736", spanId: "00f067aa0ba902b7" }
 */
export function runTraceOf(metadata: unknown): RunTrace | undefined {
  const own = ownKeyOf(metadata);
  const traceId = own?.traceId;
  const spanId = own?.spanId;
  if (typeof traceId !== "string" || typeof spanId !== "string" || !TRACE_ID.test(traceId) || !SPAN_ID.test(spanId)) return undefined;
  return { traceId, spanId };
}

/**
 * `metadata` with the run's trace added under our key, beside what is there.
 *
 * @example
 * ev.runStarted("t1", "r1", { metadata: withRunTrace(undefined, { traceId, spanId }) });
 */
export function withRunTrace(metadata: unknown, trace: RunTrace): Record<string, unknown> {
  return withOwnEntries(metadata, { traceId: trace.traceId, spanId: trace.spanId });
}

/**
 * The `metadata` member of a RUN_STARTED a store logs: `metadata` (a fork marker, or nothing) with
 * the run's trace added when there is one; no member at all when both are absent, so an untraced
 * run's RUN_STARTED stays exactly as it was.
 *
 * @example
 * ev.runStarted(threadId, runId, { protocolVersion, ...startedMetadata(undefined, options.runTrace) });
 */
export function startedMetadata(metadata: Record<string, unknown> | undefined, trace: RunTrace | undefined): { metadata?: Record<string, unknown> } {
  const traced = trace === undefined ? metadata : withRunTrace(metadata, trace);
  return traced === undefined ? {} : { metadata: traced };
}
