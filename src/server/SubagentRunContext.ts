/** The context of one subagent invocation (docs/server.md#run-and-context, docs/rules.md#subagents): the implementation of `SubagentContext`. */
import { EMPTY, type Observable } from "rxjs";
import { ev } from "../protocol/build";
import type { UserMessage } from "../protocol/messages";
import type { SubagentFinishedOutcome } from "../protocol/outcomes";
import { RunContext, type SubagentContext, type SubagentFactory } from "./RunContext";
import type { IncomingOffer } from "./IncomingOffer";
import type { Closable, RunCore, Scope } from "./RunCore";

/**
 * A `RunContext` attributed to one subagent invocation, which ends it with `finish` or `fail`
 * (see `SubagentContext` for the contract). Its own `subagent()` nests further invocations the
 * same way.
 *
 * @example
 * const researcher = ctx.subagent("researcher"); // a SubagentRunContext
 * researcher.say("Found three papers.");
 * researcher.finish({ papers: 3 });
 */
export class SubagentRunContext<S = unknown> extends RunContext<S> implements SubagentContext<S> {
  #open = true;

  /** Not for applications: made by `ctx.subagent()`, which has already sent SUBAGENT_STARTED. */
  constructor(
    core: RunCore<S>,
    scope: Scope,
    /** The invocation id (`subagentRunId`). */
    readonly id: string,
    /** The subagent's name. */
    readonly name: string,
    private readonly releaseFromParent: (span: Closable) => void,
  ) {
    super(core, scope, id, makeSubagent);
  }

  /** Completes at once: steers go to the run's own agent, which decides what its subagents hear (docs/queue.md#steer). */
  override get incoming$(): Observable<UserMessage> {
    return EMPTY;
  }

  /** Completes at once, as `incoming$` does. */
  override get offers$(): Observable<IncomingOffer> {
    return EMPTY;
  }

  /** Whether neither `finish` nor `fail` has been sent yet. */
  get isOpen(): boolean {
    return this.#open;
  }

  /**
   * Ends the subagent (SUBAGENT_FINISHED) with an optional result and outcome: success by
   * default, or `outcome.suspended(interruptIds)` when it waits on interrupts (docs/rules.md#I10).
   *
   * @example
   * sub.finish(undefined, outcome.suspended([pending.id]));
   */
  finish(result?: unknown, outcome?: SubagentFinishedOutcome): void {
    this.core.closeOpen(this.scope);
    const finished = ev.subagentFinished(this.id, { result, outcome });
    this.core.check(finished); // the result is the agent's own value
    this.core.write(finished);
    this.closed();
  }

  /**
   * Ends the subagent with an error (SUBAGENT_ERROR). The run itself goes on.
   *
   * @example
   * sub.fail("the search index is down", "UPSTREAM_UNAVAILABLE");
   */
  fail(message: string, code?: string): void {
    this.core.closeOpen(this.scope);
    this.core.write(ev.subagentError(this.id, message, { code }));
    this.closed();
  }

  /** What the driver does with a subagent left open: finish it, suspended on the run's interrupts that name it. */
  close(): void {
    if (!this.#open) return;
    const mine = this.core.pendingInterrupts.filter((pending) => pending.subagentRunId === this.id).map((pending) => pending.id);
    this.finish(undefined, mine.length > 0 ? { type: "suspended", interruptIds: mine } : undefined);
  }

  private closed(): void {
    this.#open = false;
    this.releaseFromParent(this);
  }
}

/**
 * The `SubagentFactory` every context is made with: a `SubagentRunContext`.
 *
 * @example
 * const ctx = new RunContext(core, { parent: undefined }, undefined, makeSubagent);
 */
export const makeSubagent: SubagentFactory = (core, scope, id, name, release) => new SubagentRunContext(core, scope, id, name, release);

/**
 * The top-level context of a run on `core`: the parent agent's, in the root scope.
 *
 * @example
 * const ctx = rootContext(core);
 * await agent.run(ctx);
 */
export function rootContext<S>(core: RunCore<S>): RunContext<S> {
  return new RunContext<S>(core, { parent: undefined }, undefined, makeSubagent);
}
