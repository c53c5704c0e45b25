/** The run driver (docs/seeds.md#seed-002): RUN_STARTED, the agent, exactly one terminal event, all through one verified chain. */
import * as E from "fp-ts/Either";
import { Observable } from "rxjs";
import { ev } from "../protocol/build";
import type { Event } from "../protocol/events";
import type { RunAgentInput } from "../protocol/input";
import { DEFAULT_MAX_JSON_DEPTH } from "../protocol/jsonDepth";
import { PROTOCOL_VERSION } from "../protocol/version";
import type { Agent, RunOutcome } from "./Agent";
import { AgentError, PROTOCOL_ERROR_CODE, SERIALIZATION_ERROR_CODE } from "./AgentError";
import { checkEgress } from "./checkEgress";
import { decodeState, defaultState } from "./decodeState";
import { describeMalformedOutcome, describeThrown } from "./describeThrown";
import { randomIds, type IdSource } from "./ids";
import { rootContext } from "./SubagentRunContext";
import { RunCore, type RunCoreOptions } from "./RunCore";
import { UnansweredToolCalls } from "./UnansweredToolCalls";

/**
 * Options of `run()`.
 *
 * @example
 * run(agent, input, { ids: sequentialIds("run"), exposeStack: process.env.NODE_ENV !== "production" });
 */
export interface RunOptions {
  /** Where minted ids come from; `crypto.randomUUID()` by default. Use `sequentialIds()` for deterministic tests. */
  readonly ids?: IdSource;
  /** Put the error's stack in `RUN_ERROR.metadata.stack`. Off by default: stacks can leak internals to clients. */
  readonly exposeStack?: boolean;
  /**
   * Resolves when the consumer can take more events; `ctx.ready()` awaits it. `createHandler`
   * passes the HTTP response's, so an agent that awaits `ctx.ready()` between bursts is paced by
   * the client's reading speed. Without it `ctx.ready()` resolves at once.
   */
  readonly ready?: () => Promise<void>;
  /**
   * Deepest nesting of arrays and objects accepted in `input.state` and sent in any event (default
   * 512, `DEFAULT_MAX_JSON_DEPTH`, the limit clients decode with). A deeper state ends the run with
   * RUN_ERROR `SERIALIZATION` naming the path and the limit; a deeper event is refused at the write.
   */
  readonly maxJsonDepth?: number;
  /**
   * Cancels the run from outside with a reason: aborting it aborts `ctx.signal` with the same
   * reason, and the Observable errors with it (no terminal event: whoever aborted is the consumer,
   * and it stops listening). `createHandler` passes one that aborts when the client goes away or
   * reads too slowly (`SlowConsumerError`).
   */
  readonly signal?: AbortSignal;
  /**
   * Stops the run as its own end (a `POST {url}/stop`), which is not the consumer going away:
   * aborting it closes what the agent left open (innermost first, as after a return), emits
   * RUN_FINISHED with outcome `{ type: "cancelled" }` (with the usage reported so far), completes,
   * and then aborts `ctx.signal` with the stop's reason, so the agent stops working; whatever its
   * promise does afterwards is ignored. A stop after the terminal event changes nothing.
   * `createHandler` with a store passes one that `RunWriter.stopRequested` aborts.
   */
  readonly stop?: AbortSignal;
}

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
 * @example
 * run(greeter, runAgentInput("thread-1", "run-1")).subscribe((event) => console.log(event.type));
 * // RUN_STARTED, TEXT_MESSAGE_START, TEXT_MESSAGE_CONTENT, TEXT_MESSAGE_END, RUN_FINISHED
 */
export function run<S>(agent: Agent<S>, input: RunAgentInput, options: RunOptions = {}): Observable<Event> {
  return new Observable<Event>((subscriber) => {
    const unanswered = new UnansweredToolCalls(input.tools);
    const setup = startCore(agent, input, options, (event) => {
      unanswered.observe(event);
      subscriber.next(event);
    });
    if (setup instanceof Error) {
      subscriber.error(setup);
      return;
    }
    const { core, problem } = setup;
    const external = options.signal;
    const stop = options.stop;
    let ended = false;
    /** The terminal event is being written: a consumer that lets go on seeing it (recordRun does) is not cancelling. */
    let terminating = false;
    // Unsubscribing before the terminal event cancels the agent; after it, the run is simply over.
    const teardown = (): void => {
      external?.removeEventListener("abort", cancel);
      stop?.removeEventListener("abort", stopped);
      if (!ended && !terminating) core.controller.abort();
    };
    function cancel(): void {
      if (ended) return;
      ended = true;
      core.controller.abort(external?.reason);
      subscriber.error(core.controller.signal.reason);
    }
    /** A stop: the run's own end. Everything is written before `ctx.signal` aborts (writes throw after it). */
    function stopped(): void {
      if (ended || core.controller.signal.aborted) return;
      ended = true;
      try {
        core.pendingInterrupts = [];
        core.closeOpen();
        core.write(core.withUsage(ev.runFinished(input.threadId, input.runId, { outcome: { type: "cancelled" } })));
      } catch (error) {
        // Closing what was open was refused (a driver bug): the run still ends, failed, with the reason.
        try {
          core.write(core.withUsage(runError(error, options)));
        } catch (broken) {
          core.controller.abort(stop?.reason);
          subscriber.error(broken);
          return;
        }
      }
      core.controller.abort(stop?.reason);
      subscriber.complete();
    }

    // `fail` and `finish` are the agent promise's handlers: neither may throw, whatever the agent
    // handed them (docs/rules.md#S1: exactly one terminal event), so every read of a foreign value is guarded.
    const fail = (error: unknown): void => {
      if (ended || core.controller.signal.aborted) return;
      try {
        terminating = true;
        core.write(core.withUsage(runError(error, options)));
      } catch (broken) {
        ended = true;
        subscriber.error(broken); // only if the stream already ended: a driver bug, surfaced loudly
        return;
      }
      ended = true;
      subscriber.complete();
    };

    const finish = (outcome: RunOutcome | void): void => {
      if (ended || core.controller.signal.aborted) return;
      const malformed = describeMalformedOutcome(outcome);
      if (malformed !== undefined) {
        fail(new AgentError(malformed));
        return;
      }
      try {
        const last = core.withUsage(runFinished(input, outcome ?? { type: "success" }, unanswered.ids()));
        // Checked before anything is closed, so a refused outcome leaves no synthesized END behind.
        const refused = checkEgress(last, options.maxJsonDepth ?? DEFAULT_MAX_JSON_DEPTH);
        if (refused !== undefined) {
          fail(new AgentError(`the agent resolved with an outcome a client would refuse: ${refused.message}`, PROTOCOL_ERROR_CODE));
          return;
        }
        core.pendingInterrupts = outcome?.type === "interrupt" ? outcome.interrupts : [];
        core.closeOpen();
        terminating = true;
        core.write(last);
      } catch (error) {
        terminating = false;
        fail(error);
        return;
      }
      ended = true;
      subscriber.complete();
    };

    try {
      core.write(ev.runStarted(input.threadId, input.runId, { parentRunId: input.parentRunId, protocolVersion: PROTOCOL_VERSION }));
    } catch (error) {
      ended = true;
      subscriber.error(error);
      return teardown;
    }
    if (problem !== undefined) {
      fail(problem);
      return teardown;
    }
    if (external?.aborted) {
      cancel();
      return teardown;
    }
    if (stop?.aborted) {
      stopped();
      return teardown;
    }
    external?.addEventListener("abort", cancel, { once: true });
    stop?.addEventListener("abort", stopped, { once: true });

    const ctx = rootContext(core);
    let running: Promise<RunOutcome | void>;
    try {
      running = Promise.resolve(agent.run(ctx));
    } catch (error) {
      running = Promise.reject(error);
    }
    running.then(finish, fail);
    return teardown;
  });
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
function startCore<S>(agent: Agent<S>, input: RunAgentInput, options: RunOptions, output: (event: Event) => void): Started<S> | Error {
  const coreOptions: RunCoreOptions = { newId: options.ids ?? randomIds, ready: options.ready, maxJsonDepth: options.maxJsonDepth };
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

/**
 * The terminal RUN_FINISHED. A success outcome carries `pendingToolCallIds`: the agent's own list
 * when it gave one (`agui-rx/ai` does; an agent knows best which calls it waits for), otherwise
 * the client tool calls the run left without a result, when there are any.
 */
function runFinished(input: RunAgentInput, outcome: RunOutcome, unanswered: string[]): Event {
  if (outcome.type === "interrupt") {
    return ev.runFinished(input.threadId, input.runId, { outcome: { type: "interrupt", interrupts: outcome.interrupts } });
  }
  const { result } = outcome;
  const pendingToolCallIds = outcome.pendingToolCallIds ?? (unanswered.length > 0 ? unanswered : undefined);
  const wire = pendingToolCallIds === undefined ? { type: "success" as const } : { type: "success" as const, pendingToolCallIds };
  return ev.runFinished(input.threadId, input.runId, { outcome: wire, result });
}

function runError(error: unknown, options: RunOptions): Event {
  const { message, code, stack } = describeThrown(error, options.exposeStack === true);
  return ev.runError(message, { code, metadata: stack === undefined ? undefined : { stack } });
}
