/** The run driver (docs/seeds.md#seed-002): RUN_STARTED, the agent, exactly one terminal event, all through one verified chain. */
import * as E from "../protocol/either";
import { Observable } from "rxjs";
import type { Event } from "../protocol/events";
import type { RunAgentInput } from "../protocol/input";
import type { Agent } from "./Agent";
import { AgentError, SERIALIZATION_ERROR_CODE } from "./AgentError";
import { decodeState, defaultState } from "./decodeState";
import { describeThrown } from "./describeThrown";
import { randomIds } from "./ids";
import { RunCore, type RunCoreOptions } from "./RunCore";
import { RunDriver } from "./RunDriver";
import type { RunAgentOptions } from "./RunAgentOptions";
import { UnansweredToolCalls } from "./UnansweredToolCalls";
import { Telemetry } from "../telemetry/Telemetry";
import { RunSpans } from "./tracing/RunSpans";

export type { RunAgentOptions } from "./RunAgentOptions";

/**
 * Runs `agent` on `input` as a cold `Observable<Event>`; nothing happens until subscription, and
 * the driver has no executor of its own (the agent runs on the subscriber's event loop).
 *
 * On subscription:
 * 1. emits RUN_STARTED with `protocolVersion: "1.0"` (always first, so every answer names its
 *    thread and run);
 * 2. decodes `input.state` (absent, `null`, `{}` → the spec's default); a state that does not
 *    match, nests deeper than `maxJsonDepth` or cannot be copied emits RUN_ERROR
 *    `{ code: "SERIALIZATION" }` naming the bad path, and the agent is never called;
 * 3. calls `agent.run(ctx)`;
 * 4. when it resolves, closes what it left open (innermost first) and emits RUN_FINISHED with the
 *    outcome (success, or the interrupts); when it throws or rejects, emits RUN_ERROR with the
 *    error's message and code (`AgentError.code`; `"PROTOCOL"` for an uncaught `ProtocolError` or
 *    an outcome a client would refuse; `"AGENT_ERROR"` for anything else), then completes. Either
 *    terminal event carries the token usage the agent reported with `ctx.reportUsage()`, when it
 *    reported any.
 *
 * Whatever the agent resolves or rejects with (a BigInt, a cycle, a throwing getter, a revoked
 * proxy), exactly one terminal event follows: formatting it never throws. Every event, the
 * driver's own included, goes through the egress check, the chunk normalizer, the strict verifier
 * and the state encoding. Unsubscribing aborts `ctx.signal`; from then on nothing is emitted,
 * every write throws the abort reason, and whatever the agent's promise does is swallowed. Two
 * ways to end a run from outside, made apart on purpose: `signal` (the consumer is gone: the
 * Observable errors, nothing more is sent) and `stop` (the run is cancelled: it ends with
 * RUN_FINISHED `cancelled`, like any other end, so a log of it is complete).
 *
 * With a tracer (`options.telemetry`, by default the registered one) the run is traced
 * (docs/observability.md#traces): an `invoke_agent` span with its steps, tool calls and subagents,
 * the agent called with it active, and its trace in RUN_STARTED's `metadata`. With none, nothing
 * of it is done.
 *
 * @example
 * run(greeter, runAgentInput("thread-1", "run-1")).subscribe((event) => console.log(event.type));
 * // RUN_STARTED, TEXT_MESSAGE_START, TEXT_MESSAGE_CONTENT, TEXT_MESSAGE_END, RUN_FINISHED
 */
export function run<S>(agent: Agent<S>, input: RunAgentInput, options: RunAgentOptions = {}): Observable<Event> {
  return new Observable<Event>((subscriber) => {
    const unanswered = new UnansweredToolCalls(input.tools);
    const trace = driverTrace(agent.name, input, options);
    const spans = trace?.spans;
    // Chosen once per run: with no span recording nothing traces per event.
    const output =
      spans === undefined
        ? (event: Event): void => {
            unanswered.observe(event);
            subscriber.next(event);
          }
        : (event: Event): void => {
            unanswered.observe(event);
            subscriber.next(spans.observe(event));
          };
    const setup = startCore(agent, input, options, output);
    if (setup instanceof Error) {
      spans?.streamEnded("error", setup.name);
      subscriber.error(setup);
      return;
    }
    const driver = new RunDriver(setup.core, input, options, subscriber, unanswered, trace?.enter);
    driver.start(agent, setup.problem);
    return () => {
      driver.teardown();
      spans?.streamEnded("cancelled"); // nothing after a terminal event; a run the consumer left ends cancelled
    };
  });
}

/** A run's tracing: its spans (when it records them itself) and how the agent is called in its context. */
interface DriverTrace {
  readonly spans: RunSpans | undefined;
  readonly enter: <R>(call: () => R) => R;
}

/**
 * The run's tracing (docs/observability.md#traces), or `undefined` when there is nothing to trace
 * and no context to run the agent in. A run already traced by the context it is subscribed in
 * (`createHandler` traces its runs from their events, and subscribes them in the run span's
 * context) starts no second span: the agent just runs in that context.
 */
function driverTrace(agentName: string | undefined, input: RunAgentInput, options: RunAgentOptions): DriverTrace | undefined {
  const telemetry = new Telemetry(options.telemetry);
  const parent = options.traceContext ?? telemetry.active();
  if (RunSpans.tracedIn(parent, input.runId)) return { spans: undefined, enter: (call) => telemetry.with(parent, call) };
  const spans = RunSpans.start(telemetry, input, parent, agentName);
  const context = spans?.context ?? options.traceContext;
  return context === undefined ? undefined : { spans, enter: (call) => telemetry.with(context, call) };
}

/** A run's core, and the error that must end the run right after RUN_STARTED, if any. */
interface Started<S> {
  readonly core: RunCore<S>;
  readonly problem: AgentError | undefined;
}

/**
 * Makes the run's core with its starting state. A state that is too deep, does not decode or
 * cannot be copied starts the core from the spec's default and becomes the run's `problem`. When
 * even the default cannot be copied the agent's definition is broken: that error is returned, for
 * the Observable to error with.
 */
function startCore<S>(agent: Agent<S>, input: RunAgentInput, options: RunAgentOptions, output: (event: Event) => void): Started<S> | Error {
  const coreOptions: RunCoreOptions = {
    newId: options.ids ?? randomIds,
    ready: options.ready,
    maxJsonDepth: options.maxJsonDepth,
    setThreadTitle: options.setThreadTitle,
    incoming: options.incoming,
    withdrawn: options.withdrawn,
  };
  const decoded = decodeState(agent.state, input.state, { maxJsonDepth: options.maxJsonDepth });
  let problem: AgentError;
  if (E.isRight(decoded)) {
    try {
      return { core: new RunCore<S>(agent.state, input, output, decoded.right, coreOptions), problem: undefined };
    } catch (cause) {
      // It decoded but cannot be copied: an in-process caller's function or class instance, a codec that throws.
      problem = new AgentError(`state could not be copied: ${describeThrown(cause, false).message}`, SERIALIZATION_ERROR_CODE, { cause });
    }
  } else {
    problem = decoded.left;
  }
  try {
    return { core: new RunCore<S>(agent.state, input, output, defaultState(agent.state), coreOptions), problem };
  } catch (error) {
    return error instanceof Error ? error : new Error(describeThrown(error, false).message);
  }
}
