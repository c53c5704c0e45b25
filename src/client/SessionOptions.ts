/** What a Session is built with, and what one run may override (docs/client.md#session-and-updates). */
import type { Context, Tool } from "../protocol/input";
import type { StateSpec } from "../protocol/stateSpec";
import type { WhileRunning } from "../protocol/queueMeta";
import type { DebugOption } from "../operators/logEvents";
import type { Hydration } from "./hydrate";
import type { ClientTool } from "./tools/clientTool";
import type { SessionTelemetry } from "./SessionTelemetry";

/**
 * What a session is built with. Tools, context and forwardedProps are the defaults for every run;
 * `messages`, `rawState` and `interrupts` (`Hydration`) what it starts from.
 */
export interface SessionOptions<S> extends Hydration {
  readonly threadId: string;
  /** Types the state: `state` is decoded with it, and a value that does not decode is a `state` error. */
  readonly state?: StateSpec<S> | undefined;
  /**
   * The tools offered to the agent: plain wire `Tool`s (the application answers their calls) and
   * `ClientTool`s, which the session executes itself before it starts the follow-up run
   * (docs/tools.md). Names must be unique (a `ClientToolError` otherwise, thrown here).
   */
  readonly tools?: readonly (Tool | ClientTool)[] | undefined;
  /** How many follow-up runs one `send`/`resume` may start for client tool calls; 5 by default (docs/tools.md § the loop). */
  readonly maxToolRoundtrips?: number | undefined;
  readonly context?: readonly Context[] | undefined;
  readonly forwardedProps?: unknown;
  /** Mints run ids and the ids of sent user messages; `crypto.randomUUID()` by default. */
  readonly newId?: (() => string) | undefined;
  /** The time used by the resume pre-flight (docs/rules.md#I5); `Date.now` by default. */
  readonly now?: (() => number) | undefined;
  /** Logs every event each run receives, before it is checked (`logEvents`, label `agui-rx client`). */
  readonly debug?: DebugOption | undefined;
  /**
   * How many messages `connect()` joins with (the thread's last ones; all without it) and
   * `loadOlder()` reads per page (50 without it) (docs/threads.md#in-the-client).
   */
  readonly historyLimit?: number | undefined;
  /**
   * Where the session's runs are traced (docs/observability.md#client): `clientTelemetry()` of
   * `agui-rx/client/telemetry`, which records a span per run as the user saw it (through the
   * registered OpenTelemetry SDK by default) and has the HTTP transport carry its `traceparent`.
   * Without it nothing is recorded and no event pays for it.
   */
  readonly telemetry?: SessionTelemetry | undefined;
}

/**
 * How `Session.connect` joins: with `limit`, only the thread's last `limit` messages (the
 * session's `historyLimit` without it; the whole thread without either).
 *
 * @example
 * session.connect({ limit: 50 });
 */
export interface ConnectOptions {
  readonly limit?: number | undefined;
}

/**
 * Per-run overrides of the session's tools, context and forwardedProps (for every run of the exchange).
 *
 * @example
 * session.send("Plan my week", { tools: [calendarTool], maxToolRoundtrips: 2 });
 */
export interface RunOptions {
  readonly tools?: readonly (Tool | ClientTool)[] | undefined;
  readonly maxToolRoundtrips?: number | undefined;
  readonly context?: readonly Context[] | undefined;
  readonly forwardedProps?: unknown;
  /** The first run's id; a new one by default (follow-up runs always get new ones). */
  readonly runId?: string | undefined;
  /**
   * What `send` asks for while a run is live (docs/queue.md#policies): `refuse` (the default: a
   * plain post, refused while this session runs and answered 409 while the thread does), `queue`,
   * `steer` or `interrupt` (the message waits in `session.queued` and its updates say how, see
   * docs/client.md#sending-while-the-agent-works). Only `send` takes a policy: an edit, a regenerate
   * or a resume with another one is refused (`config`). Follow-up runs of the tool loop are always
   * plain posts.
   */
  readonly whileRunning?: WhileRunning | undefined;
}
