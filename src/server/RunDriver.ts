/** One subscription of `run()` as a phase machine (docs/seeds.md#seed-002): running, writing its terminal, ended; exactly one terminal event (docs/rules.md#S1). */
import type { Subscriber } from "rxjs";
import { ev } from "../protocol/build";
import type { Event } from "../protocol/events";
import type { RunAgentInput } from "../protocol/input";
import { DEFAULT_MAX_JSON_DEPTH } from "../protocol/jsonDepth";
import { PROTOCOL_VERSION } from "../protocol/version";
import type { Agent, RunOutcome } from "./Agent";
import { AgentError, PROTOCOL_ERROR_CODE } from "./AgentError";
import { checkEgress } from "./checkEgress";
import { describeMalformedOutcome, describeThrown } from "./describeThrown";
import type { RunCore } from "./RunCore";
import type { RunAgentOptions } from "./RunAgentOptions";
import { rootContext } from "./SubagentRunContext";
import type { UnansweredToolCalls } from "./UnansweredToolCalls";

/**
 * Where a run stands, for its driver:
 * - `running`: from RUN_STARTED on, the agent works; unsubscribing cancels it (aborts `ctx.signal`);
 * - `terminating`: the terminal event is being written, so a consumer that lets go on seeing it
 *   (recordRun does) is not cancelling;
 * - `ended`: the Observable ended or is ending (its terminal written, the consumer gone, a stop,
 *   a broken write): nothing the agent's promise does afterwards is written.
 */
export type DriverPhase = { readonly kind: "running" } | { readonly kind: "terminating" } | { readonly kind: "ended" };

const RUNNING: DriverPhase = { kind: "running" };
const TERMINATING: DriverPhase = { kind: "terminating" };
const ENDED: DriverPhase = { kind: "ended" };

/**
 * Drives one subscription of `run()`: writes RUN_STARTED, calls the agent, and ends the run once,
 * whichever comes first of the agent's promise (`finish`/`fail`), a stop (`stopped`), the
 * consumer's signal (`cancel`) or unsubscription (`teardown`).
 *
 * @example
 * const driver = new RunDriver(core, input, options, subscriber, unanswered);
 * driver.start(agent, problem);
 * return () => driver.teardown();
 */
export class RunDriver<S> {
  private phase: DriverPhase = RUNNING;

  constructor(
    private readonly core: RunCore<S>,
    private readonly input: RunAgentInput,
    private readonly options: RunAgentOptions,
    private readonly subscriber: Subscriber<Event>,
    private readonly unanswered: UnansweredToolCalls,
    /** Calls the agent inside the run's trace context (docs/observability.md#traces), when there is one. */
    private readonly enter?: (<R>(call: () => R) => R) | undefined,
  ) {}

  /** Writes RUN_STARTED, then ends at once for a `problem` or a signal already aborted, else calls the agent. */
  start(agent: Agent<S>, problem: AgentError | undefined): void {
    const { core, input, options } = this;
    try {
      core.write(ev.runStarted(input.threadId, input.runId, { parentRunId: input.parentRunId, protocolVersion: PROTOCOL_VERSION }));
    } catch (error) {
      this.phase = ENDED;
      this.subscriber.error(error);
      return;
    }
    if (problem !== undefined) return this.fail(problem);
    if (options.signal?.aborted) return this.cancel();
    if (options.stop?.aborted) return this.stopped();
    options.signal?.addEventListener("abort", this.cancel, { once: true });
    options.stop?.addEventListener("abort", this.stopped, { once: true });

    const ctx = rootContext(core);
    core.incoming.start();
    let running: Promise<RunOutcome | void>;
    try {
      // Inside the run span's context, so that spans started by the agent (the AI SDK's model calls, the application's own) are its children.
      running = Promise.resolve(this.enter === undefined ? agent.run(ctx) : this.enter(() => agent.run(ctx)));
    } catch (error) {
      running = Promise.reject(error);
    }
    running.then(this.finish, this.fail);
  }

  /** Unsubscription: before the terminal event it cancels the agent; after it (or while it is written) the run is simply over. */
  teardown(): void {
    this.core.incoming.close();
    this.options.signal?.removeEventListener("abort", this.cancel);
    this.options.stop?.removeEventListener("abort", this.stopped);
    switch (this.phase.kind) {
      case "running":
        this.core.controller.abort();
        return;
      case "terminating":
      case "ended":
        return;
      default:
        return unreachable(this.phase);
    }
  }

  /** The consumer's `signal` aborted: the agent is aborted with its reason and the Observable errors with it (no terminal event). */
  private readonly cancel = (): void => {
    if (this.phase.kind === "ended") return;
    this.phase = ENDED;
    this.core.controller.abort(this.options.signal?.reason);
    this.subscriber.error(this.core.controller.signal.reason);
  };

  /** A stop: the run's own end. Everything is written before `ctx.signal` aborts (writes throw after it). */
  private readonly stopped = (): void => {
    const { core, input, subscriber } = this;
    if (this.phase.kind === "ended" || core.controller.signal.aborted) return;
    this.phase = ENDED;
    core.incoming.close(); // nothing is taken once the run ends (docs/queue.md#steer)
    const reason: unknown = this.options.stop?.reason;
    try {
      core.pendingInterrupts = [];
      core.closeOpen();
      core.write(core.withUsage(ev.runFinished(input.threadId, input.runId, { outcome: { type: "cancelled" } })));
    } catch (error) {
      // Closing what was open was refused (a driver bug): the run still ends, failed, with the reason.
      try {
        core.write(core.withUsage(runError(error, this.options)));
      } catch (broken) {
        core.controller.abort(reason);
        subscriber.error(broken);
        return;
      }
    }
    core.controller.abort(reason);
    subscriber.complete();
  };

  // `fail` and `finish` are the agent promise's handlers: neither may throw, whatever the agent
  // handed them (docs/rules.md#S1: exactly one terminal event), so every read of a foreign value is guarded.

  /** The agent threw or rejected (or its outcome was refused): RUN_ERROR, then complete. */
  private readonly fail = (error: unknown): void => {
    if (this.phase.kind === "ended" || this.core.controller.signal.aborted) return;
    this.core.incoming.close();
    try {
      this.phase = TERMINATING;
      this.core.write(this.core.withUsage(runError(error, this.options)));
    } catch (broken) {
      this.phase = ENDED;
      this.subscriber.error(broken); // only if the stream already ended: a driver bug, surfaced loudly
      return;
    }
    this.phase = ENDED;
    this.subscriber.complete();
  };

  /** The agent resolved: close what it left open (innermost first), RUN_FINISHED with its outcome, then complete. */
  private readonly finish = (outcome: RunOutcome | void): void => {
    const { core, options } = this;
    if (this.phase.kind === "ended" || core.controller.signal.aborted) return;
    core.incoming.close();
    const malformed = describeMalformedOutcome(outcome);
    if (malformed !== undefined) return this.fail(new AgentError(malformed));
    try {
      const last = core.withUsage(runFinished(this.input, outcome ?? { type: "success" }, this.unanswered.ids()));
      // Checked before anything is closed, so a refused outcome leaves no synthesized END behind.
      const refused = checkEgress(last, options.maxJsonDepth ?? DEFAULT_MAX_JSON_DEPTH);
      if (refused !== undefined) {
        return this.fail(new AgentError(`the agent resolved with an outcome a client would refuse: ${refused.message}`, PROTOCOL_ERROR_CODE));
      }
      core.pendingInterrupts = outcome?.type === "interrupt" ? outcome.interrupts : [];
      core.closeOpen();
      this.phase = TERMINATING;
      core.write(last);
    } catch (error) {
      if (this.phase.kind === "terminating") this.phase = RUNNING; // the terminal was refused: `fail` writes one
      return this.fail(error);
    }
    this.phase = ENDED;
    this.subscriber.complete();
  };
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

function runError(error: unknown, options: RunAgentOptions): Event {
  const { message, code, stack } = describeThrown(error, options.exposeStack === true);
  return ev.runError(message, { code, metadata: stack === undefined ? undefined : { stack } });
}

function unreachable(phase: never): never {
  throw new Error(`expected a known run phase, but got ${JSON.stringify(phase)}`);
}
