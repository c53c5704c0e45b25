/** The run driver (seed 002): RUN_STARTED, the agent, exactly one terminal event, all through one verified chain. */
import * as E from "fp-ts/Either";
import { Observable } from "rxjs";
import { ev } from "../protocol/build";
import type { Event } from "../protocol/events";
import type { RunAgentInput } from "../protocol/input";
import { ProtocolError } from "../operators/ProtocolError";
import type { Agent, RunOutcome } from "./Agent";
import { AgentError, DEFAULT_ERROR_CODE, PROTOCOL_ERROR_CODE } from "./AgentError";
import { decodeState, defaultState } from "./decodeState";
import { randomIds, type IdSource } from "./ids";
import { RunContext } from "./RunContext";
import { RunCore } from "./RunCore";
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
}

/**
 * Runs `agent` on `input` as a cold `Observable<Event>`; nothing happens until subscription, and
 * the driver has no executor of its own (the agent runs on the subscriber's event loop).
 *
 * On subscription:
 * 1. emits RUN_STARTED (always first, so every answer names its thread and run);
 * 2. decodes `input.state` (absent, `null`, `{}` → the spec's default); a mismatch emits
 *    RUN_ERROR `{ code: "SERIALIZATION" }` naming the bad path, and the agent is never called;
 * 3. calls `agent.run(ctx)`;
 * 4. when it resolves, closes what it left open (innermost first) and emits RUN_FINISHED with the
 *    outcome (success, or the interrupts); when it throws or rejects, emits RUN_ERROR with the
 *    error's message and code (`AgentError.code`; `"PROTOCOL"` for an uncaught `ProtocolError`;
 *    `"AGENT_ERROR"` for anything else), then completes. Either terminal event carries the token
 *    usage the agent reported with `ctx.reportUsage()`, when it reported any.
 *
 * Every event, the driver's own included, goes through the chunk normalizer, the strict verifier
 * and the state encoding. Unsubscribing aborts `ctx.signal`; from then on nothing is emitted,
 * every write throws the abort reason, and whatever the agent's promise does is swallowed.
 *
 * @example
 * run(greeter, runAgentInput("thread-1", "run-1")).subscribe((event) => console.log(event.type));
 * // RUN_STARTED, TEXT_MESSAGE_START, TEXT_MESSAGE_CONTENT, TEXT_MESSAGE_END, RUN_FINISHED
 */
export function run<S>(agent: Agent<S>, input: RunAgentInput, options: RunOptions = {}): Observable<Event> {
  return new Observable<Event>((subscriber) => {
    const decoded = decodeState(agent.state, input.state);
    const initial = E.isRight(decoded) ? decoded.right : defaultState(agent.state);
    const unanswered = new UnansweredToolCalls(input.tools);
    const send = (event: Event): void => {
      unanswered.observe(event);
      subscriber.next(event);
    };
    const core = new RunCore<S>(agent.state, input, options.ids ?? randomIds, send, initial, options.ready);
    let ended = false;
    // Unsubscribing before the terminal event cancels the agent; after it, the run is simply over.
    const teardown = (): void => {
      if (!ended) core.controller.abort();
    };

    const fail = (error: unknown): void => {
      if (core.controller.signal.aborted) return;
      try {
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
      if (core.controller.signal.aborted) return;
      const malformed = describeMalformed(outcome);
      if (malformed !== undefined) {
        fail(new AgentError(malformed));
        return;
      }
      try {
        core.pendingInterrupts = outcome?.type === "interrupt" ? outcome.interrupts : [];
        core.closeOpen();
        core.write(core.withUsage(runFinished(input, outcome ?? { type: "success" }, unanswered.ids())));
      } catch (error) {
        fail(error);
        return;
      }
      ended = true;
      subscriber.complete();
    };

    try {
      core.write(ev.runStarted(input.threadId, input.runId, { parentRunId: input.parentRunId }));
    } catch (error) {
      ended = true;
      subscriber.error(error);
      return teardown;
    }
    if (E.isLeft(decoded)) {
      fail(decoded.left);
      return teardown;
    }

    const ctx = new RunContext<S>(core, { parent: undefined }, undefined);
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

/** Why a resolved value is not a `RunOutcome` (plain JavaScript callers can return anything), or `undefined`. */
function describeMalformed(outcome: unknown): string | undefined {
  if (outcome === undefined) return undefined;
  if (typeof outcome === "object" && outcome !== null && "type" in outcome) {
    if (outcome.type === "success") return undefined;
    if (outcome.type === "interrupt" && "interrupts" in outcome && Array.isArray(outcome.interrupts) && outcome.interrupts.length > 0) {
      return undefined;
    }
  }
  const text = JSON.stringify(outcome) ?? String(outcome);
  return `expected the agent to resolve with undefined, a success outcome or an interrupt outcome with at least one interrupt, but it resolved with ${text.length > 120 ? `${text.slice(0, 117)}...` : text}`;
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
  const code =
    error instanceof AgentError ? error.code : error instanceof ProtocolError ? PROTOCOL_ERROR_CODE : DEFAULT_ERROR_CODE;
  const message = error instanceof Error ? error.message : String(error);
  const stack = options.exposeStack && error instanceof Error ? error.stack : undefined;
  return ev.runError(message === "" ? "the agent failed without a message" : message, {
    code,
    metadata: stack === undefined ? undefined : { stack },
  });
}
