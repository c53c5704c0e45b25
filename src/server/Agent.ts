/** The one extension point of the server: an agent is a typed state plus one async method (docs/seeds.md#seed-002). */
import type { Interrupt, RunFinishedOutcome } from "../protocol/outcomes";
import type { StateSpec } from "../protocol/stateSpec";
import type { RunContext } from "./RunContext";

/**
 * A run that completed; `result` goes to `RUN_FINISHED.result`.
 *
 * @example
 * const done: SuccessOutcome = { type: "success", result: { answer: 42 } };
 */
export type SuccessOutcome = Extract<RunFinishedOutcome, { type: "success" }> & { readonly result?: unknown };

/**
 * A run that pauses for outside input; the interrupts go to `RUN_FINISHED.outcome` (docs/rules.md#I1, docs/rules.md#I14).
 *
 * @example
 * const paused: InterruptOutcome = interrupted(interrupt({ reason: "input_required" }));
 */
export type InterruptOutcome = Extract<RunFinishedOutcome, { type: "interrupt" }>;

/**
 * How an agent's run ended when it did not fail: the wire outcome of RUN_FINISHED (success or
 * interrupt), plus the optional success `result`. Failure is a thrown error, never an outcome.
 *
 * @example
 * async run(ctx): Promise<RunOutcome> {
 *   return ctx.isResume ? success() : interrupted(ctx.interrupt({ reason: "confirmation" }));
 * }
 */
export type RunOutcome = SuccessOutcome | InterruptOutcome;

/**
 * An agent: an optional typed shared state and one method. `run` borrows the context, writes
 * through it, and resolves with the outcome (`undefined` means success); `run` (the driver) emits
 * RUN_STARTED before and exactly one RUN_FINISHED or RUN_ERROR after it. There is no dependency on
 * any model SDK: call whatever client you use inside `run` and write what comes out.
 *
 * Several agents behind one endpoint are simply an array or a map of `Agent<S>` values: there is
 * no boxing to do in TypeScript.
 *
 * @example
 * const greeter: Agent = {
 *   async run(ctx) {
 *     ctx.say("Hello from TypeScript.");
 *     return success();
 *   },
 * };
 */
export interface Agent<S = unknown> {
  /** The agent's name, for its run spans (`invoke_agent {name}`, `gen_ai.agent.name`; docs/observability.md#traces). */
  readonly name?: string | undefined;
  /** The shared state's codec and default; absent for a stateless agent (its state is the raw input value). */
  readonly state?: StateSpec<S> | undefined;
  /**
   * A promise of the outcome (write it `async run(ctx)`). Typed `PromiseLike` so that a `run` that is
   * not `async` is told "Property 'then' is missing in type 'SuccessOutcome'", not a list of
   * Promise's members (test/types/errorMessages.test.ts pins it).
   */
  run(ctx: RunContext<S>): PromiseLike<RunOutcome | void>;
}

/**
 * The success outcome, with an optional `result` for `RUN_FINISHED.result`.
 *
 * @example
 * return success({ answer: 42 });
 */
export function success(result?: unknown): SuccessOutcome {
  return result === undefined ? { type: "success" } : { type: "success", result };
}

/**
 * The interrupt outcome: the run ends with RUN_FINISHED carrying these pending interrupts; the
 * next run on the thread reads the answers through `ctx.resume` / `ctx.resumeFor(id)`.
 *
 * @example
 * return interrupted(interrupt({ reason: "confirmation", message: "Send the email?" }));
 */
export function interrupted(first: Interrupt, ...rest: Interrupt[]): InterruptOutcome {
  return { type: "interrupt", interrupts: [first, ...rest] };
}
