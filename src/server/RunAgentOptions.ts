/** The options of `run()` (docs/seeds.md#seed-002): ids, stacks, pacing, JSON depth, and the two ways to end a run from outside. */
import type { Observable } from "rxjs";
import type { UserMessage } from "../protocol/messages";
import type { IdSource } from "./ids";
import type { OtelContext } from "../telemetry/OtelApi";
import type { TelemetryOptions } from "../telemetry/TelemetryOptions";

/**
 * Options of `run()`.
 *
 * @example
 * run(agent, input, { ids: sequentialIds("run"), exposeStack: process.env.NODE_ENV !== "production" });
 */
export interface RunAgentOptions {
  /** Where minted ids come from; `crypto.randomUUID()` by default. Use `sequentialIds()` for deterministic tests. */
  readonly ids?: IdSource | undefined;
  /** Put the error's stack in `RUN_ERROR.metadata.stack`. Off by default: stacks can leak internals to clients. */
  readonly exposeStack?: boolean | undefined;
  /**
   * Resolves when the consumer can take more events; `ctx.ready()` awaits it. `createHandler`
   * passes the HTTP response's, so an agent that awaits `ctx.ready()` between bursts is paced by
   * the client's reading speed. Without it `ctx.ready()` resolves at once.
   */
  readonly ready?: (() => Promise<void>) | undefined;
  /**
   * Deepest nesting of arrays and objects accepted in `input.state` and sent in any event (default
   * 512, `DEFAULT_MAX_JSON_DEPTH`, the limit clients decode with). A deeper state ends the run with
   * RUN_ERROR `SERIALIZATION` naming the path and the limit; a deeper event is refused at the write.
   */
  readonly maxJsonDepth?: number | undefined;
  /**
   * Cancels the run from outside with a reason: aborting it aborts `ctx.signal` with the same
   * reason, and the Observable errors with it (no terminal event: whoever aborted is the consumer,
   * and it stops listening). `createHandler` passes one that aborts when the client goes away or
   * reads too slowly (`SlowConsumerError`).
   */
  readonly signal?: AbortSignal | undefined;
  /**
   * Stops the run as its own end (a `POST {url}/stop`), which is not the consumer going away:
   * aborting it closes what the agent left open (innermost first, as after a return), emits
   * RUN_FINISHED with outcome `{ type: "cancelled" }` (with the usage reported so far), completes,
   * and then aborts `ctx.signal` with the stop's reason, so the agent stops working; whatever its
   * promise does afterwards is ignored. A stop after the terminal event changes nothing.
   * `createHandler` with a store passes one that `RunWriter.stopRequested` aborts.
   */
  readonly stop?: AbortSignal | undefined;
  /**
   * Where `ctx.setThreadTitle(title)` sends the title (docs/threads.md#the-thread-list).
   * `createHandler` with a store passes the run's `RunWriter.setTitle`; without one the title goes
   * nowhere and `ctx.setThreadTitle` resolves at once.
   */
  readonly setThreadTitle?: ((title: string) => Promise<void>) | undefined;
  /**
   * The messages steered into this run (docs/queue.md#steer), each once, as they arrive: the agent
   * takes them from `ctx.incoming$` (or `ctx.offers$`), and each is recorded in the run's events
   * when taken. Subscribed when the agent is called, unsubscribed when the run ends; what arrives
   * before the agent subscribes waits for it. A message whose content is not text only is skipped.
   * `createHandler` with a store passes the run's `RunWriter.steers` (their user messages); without
   * it `ctx.incoming$` completes at once.
   */
  readonly incoming?: Observable<UserMessage> | undefined;
  /**
   * The ids of messages sent through `incoming` that no longer wait for this run: their sender
   * cancelled them (docs/queue.md#steer). One the agent has not taken is dropped: never offered
   * again, never recorded; one already taken stays taken. `createHandler` with a store passes the
   * thread's cancellations (`ThreadStore.queueChanges`).
   */
  readonly withdrawn?: Observable<string> | undefined;
  /**
   * Where the run's spans go (docs/observability.md#traces): by default the globally registered
   * OpenTelemetry tracer, read when the run is subscribed (no SDK registered: no spans, and the
   * run does no per-event work for them); `{ tracer }` to pass one, `tracer: false` for none,
   * `recordContent` to put message text, tool arguments and state on spans. `createHandler` traces
   * its runs itself, from its own `telemetry`.
   */
  readonly telemetry?: TelemetryOptions | undefined;
  /**
   * The context the run's span (`invoke_agent`) is started in, its parent (default: the active
   * context when the run is subscribed). The agent's `run` is called with the run span's context
   * active, so that spans it starts (the AI SDK's, the application's) are the run's children.
   */
  readonly traceContext?: OtelContext | undefined;
}
