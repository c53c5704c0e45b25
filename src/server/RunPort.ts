/**
 * The port a run context lends its handles (docs/server.md#run-and-context): the run's core seen from one context's
 * scope. Handles depend on the `RunPort` interface only, never on `RunContext`, so the context
 * imports its handles and nothing imports back; `ScopedRunPort` is the one implementation, which
 * the context uses for its own writes and state too.
 */
import { withSubagentRunId } from "../protocol/build";
import { SUBAGENT_EVENT_TYPES, UNATTRIBUTABLE_EVENT_TYPES, type AttributableEvent, type Event } from "../protocol/events";
import { ProtocolError } from "../operators/ProtocolError";
import type { IdSource } from "./ids";
import type { Closable, RunCore, Scope } from "./RunCore";

/**
 * What a handle needs of the context that opened it: the writers (attributed to the context's
 * subagent), the run's id source, the shared state, and the run's set of open spans.
 *
 * @example
 * class MessageHandle<S> extends SpanHandle<S> {
 *   end(): void { this.port.send(ev.textMessageEnd(this.id)); this.ended(); }
 * }
 */
export interface RunPort<S> {
  /**
   * Sends an event a typed writer built (no egress check), attributed to the context's subagent
   * when it is attributable and untagged; throws a `ProtocolError` and sends nothing when it
   * breaks an ordering rule, and for RUN_STARTED / RUN_FINISHED / RUN_ERROR (docs/rules.md#S1).
   */
  send(event: Event): void;
  /** `send` after the egress check (docs/rules.md#S10), for an event whose content comes from outside the typed writers. */
  emit(event: Event): void;
  /** The run's id source. */
  readonly newId: IdSource;
  /** The state as of the last publish. */
  readonly state: S;
  /** The state being edited; assigning it replaces the draft without publishing. */
  stateMut: S;
  /** Sends what changed since the last publish, attributed to the context's subagent. */
  publishState(): void;
  /** Records `span`, opened through this port, as one the driver closes if the agent does not; returns it. */
  track<H extends Closable>(span: H): H;
  /** Records that `span` ended: the driver no longer closes it. */
  readonly release: (span: Closable) => void;
}

/**
 * The `RunPort` of one context: its core, its scope (where its spans are tracked) and the
 * subagent its events are attributed to (`undefined` for the parent agent).
 *
 * @example
 * const port = new ScopedRunPort(core, { parent: undefined }, undefined);
 * port.send(ev.stepStarted("research"));
 */
export class ScopedRunPort<S> implements RunPort<S> {
  readonly newId: IdSource;

  constructor(
    private readonly core: RunCore<S>,
    private readonly scope: Scope,
    private readonly subagentRunId: string | undefined,
  ) {
    this.newId = core.newId;
  }

  send(event: Event): void {
    if (event.type === "RUN_STARTED" || event.type === "RUN_FINISHED" || event.type === "RUN_ERROR") {
      throw new ProtocolError(
        "run-lifecycle",
        "S1",
        event,
        `expected an event inside the run, but got ${event.type}: the driver sends RUN_STARTED and the one terminal event; resolve with an outcome or throw instead`,
      );
    }
    const tagged =
      this.subagentRunId !== undefined && isAttributable(event) && event.subagentRunId === undefined ? withSubagentRunId(event, this.subagentRunId) : event;
    this.core.write(tagged);
  }

  emit(event: Event): void {
    this.core.check(event);
    this.send(event);
  }

  get state(): S {
    return this.core.published;
  }

  get stateMut(): S {
    return this.core.working;
  }

  set stateMut(value: S) {
    this.core.working = value;
  }

  publishState(): void {
    this.core.publishState(this.subagentRunId);
  }

  track<H extends Closable>(span: H): H {
    this.core.track(span, this.scope);
    return span;
  }

  readonly release = (span: Closable): void => this.core.untrack(span);
}

function isAttributable(event: Event): event is AttributableEvent {
  return !UNATTRIBUTABLE_EVENT_TYPES.has(event.type) && !SUBAGENT_EVENT_TYPES.has(event.type);
}
