/** The handler's options resolved once, shared by its routes. */
import type { Observable } from "rxjs";
import type { AgentCapabilities } from "../../protocol/capabilities";
import type { Event } from "../../protocol/events";
import type { UserMessage } from "../../protocol/messages";
import type { RunAgentInput } from "../../protocol/input";
import type { DebugOption } from "../../operators/logEvents";
import type { ThreadStore } from "../store/ThreadStore";
import type { StoreClock } from "../store/StoreClock";
import type { HistoryMode } from "../history/HistoryMode";
import type { FairTurns } from "./fairTurns";
import type { Authorize, HandlerOptions, Identify, RunFunction } from "./HandlerOptions";
import type { BodyLimits } from "./readJsonRequest";
import type { TailLimits } from "./tailLimits";
import type { Ready } from "./toEventStream";
import type { Telemetry } from "../../telemetry/Telemetry";
import type { ServerMetrics } from "../telemetry/ServerMetrics";

/**
 * Everything a route needs, with the defaults filled in.
 *
 * @example
 * const caller = await admit(context, request, { action: "connect", threadId });
 */
export interface HandlerContext {
  readonly limits: BodyLimits;
  /** What every event stream of the handler is given (`toEventStream`'s options): spread into each route's. */
  readonly stream: {
    readonly highWaterMark: number;
    readonly maxBufferedBytes: number;
    readonly turns: FairTurns | undefined;
    /** The heartbeat interval in ms, `undefined` for none (`HandlerOptions.heartbeatMs`, resolved). */
    readonly heartbeatMs: number | undefined;
    /** The handler's clock: the heartbeat's timer (and the idle-write timeout's, where a route sets one). */
    readonly clock: StoreClock;
    /** The handler's stream metrics (`ServerMetrics.stream`): frames sent, readers cut. */
    readonly metrics: ServerMetrics["stream"];
  };
  /** What bounds the store-backed responses: shared frames, their budget, the idle-write timeout. */
  readonly tails: TailLimits;
  /** Extra headers on every answer. */
  readonly headers: Readonly<Record<string, string>>;
  /** The source's default run function (an Agent through the driver, or the run function itself). */
  readonly runDefault: RunFunction;
  /** The `Agent` source's name (`Agent.name`), for its run spans; `undefined` for a run function or a nameless agent. */
  readonly agentName: string | undefined;
  /** For an `Agent` source, its driver with the stop option (a stored run's stop ends it RUN_FINISHED cancelled); `undefined` for a run function. */
  readonly driver:
    | ((
        input: RunAgentInput,
        pace: {
          readonly ready: Ready;
          readonly stop: AbortSignal;
          readonly setThreadTitle: (title: string) => Promise<void>;
          /** The steers taken from the thread's queue for this run (docs/queue.md#steer), handed to the agent as `ctx.incoming$`. */
          readonly incoming?: Observable<UserMessage>;
          /** The ids of those steers cancelled before the agent took them (`RunAgentOptions.withdrawn`). */
          readonly withdrawn?: Observable<string>;
        },
      ) => Observable<Event>)
    | undefined;
  readonly store: ThreadStore | undefined;
  readonly identify: Identify | undefined;
  /** Who owns a stored thread's history (docs/threads.md#the-anchor-rule). */
  readonly history: HistoryMode;
  readonly authorize: Authorize | undefined;
  /** The largest `limit` of a page (`HandlerOptions.maxPageSize`). */
  readonly maxPageSize: number;
  readonly route: HandlerOptions["route"];
  readonly debug: DebugOption | undefined;
  readonly capabilities: AgentCapabilities;
  readonly onRunError: (error: unknown, run: { readonly threadId: string; readonly runId: string }) => void;
  /** The queue's bounds and pace (docs/queue.md): `HandlerOptions.maxQueuedMessages` and `queueRecheckMs`, resolved. */
  readonly queue: { readonly maxMessages: number; readonly recheckMs: number };
  /** Where spans and metrics go (`HandlerOptions.telemetry`, resolved; docs/observability.md#setup). */
  readonly telemetry: Telemetry;
  /** The handler's metrics (docs/observability.md#metrics), recorded through `telemetry`'s meter. */
  readonly metrics: ServerMetrics;
}
