/** One frame or event as the inspector keeps it (docs/observability.md#inspector). */
import type { Event } from "../../protocol/events";
import type { InspectorFinding } from "./InspectorFinding";

/**
 * Where an event belongs: the run it came in, the step open when it came (by name), and the
 * message or tool call it is part of. Decided when the event arrives, so that dropping older
 * events never changes it.
 *
 * @example
 * const scope: EventScope = { runId: "r1", stepName: "plan", messageId: "m1" };
 */
export interface EventScope {
  readonly runId?: string | undefined;
  readonly stepName?: string | undefined;
  readonly messageId?: string | undefined;
  readonly toolCallId?: string | undefined;
}

/**
 * The state before and after an event that changed it (STATE_SNAPSHOT, STATE_DELTA), as the
 * client's reducer built it; `stateDiffOf` gives the JSON Patch between the two.
 *
 * @example
 * const change: StateChange = { before: { count: 1 }, after: { count: 2 } };
 */
export interface StateChange {
  readonly before: unknown;
  readonly after: unknown;
}

/**
 * One received frame (or, from a transport without bytes, one event), in arrival order:
 *
 * - `seq` its position among everything the inspector received, from 0 (kept when older ones
 *   are dropped), `stream` the stream it came in (from 0), `index` its frame's position in that
 *   stream (the index `agui-rx check` reports);
 * - `at` when it arrived (ms), `bytes` its size in UTF-8 bytes, `raw` its SSE text (`rawSource`
 *   `received` as it came, `encoded` when the transport gave an event and this is its encoding);
 * - `type` and `event` when its data decoded to an event (`undefined` for a frame that did not);
 * - `findings` what the decoder, normalizer, verifier and reducer said about it, here;
 * - `scope` the run, step, message and tool call it belongs to;
 * - `state` the state before and after it, when it changed the state.
 *
 * @example
 * if (item.findings.length > 0) console.log(`#${item.index} ${item.type}: ${item.findings[0].message}`);
 */
export interface InspectedEvent {
  readonly seq: number;
  readonly stream: number;
  readonly index: number;
  readonly at: number;
  readonly bytes: number;
  readonly raw: string;
  readonly rawSource: "received" | "encoded";
  readonly type: string | undefined;
  readonly event: Event | undefined;
  readonly findings: readonly InspectorFinding[];
  readonly scope: EventScope;
  readonly state?: StateChange | undefined;
}
