/** The shared-state half of a run context, lent to every handle (seed 000: handles borrow the sink and the state). */
import type { RunContext } from "../RunContext";

/**
 * State accessors a handle delegates to the context that opened it, so a tool call can publish
 * state while it is open (`TOOL_CALL_START, TOOL_CALL_ARGS, STATE_SNAPSHOT, TOOL_CALL_END, …`)
 * without being able to open a second block. Semantics are those of `RunContext`.
 *
 * @example
 * call.stateMut.tasks.push("ship it");
 * call.publishState();
 */
export abstract class StateAccess<S> {
  protected constructor(protected readonly ctx: RunContext<S>) {}

  /** The state as of the last publish. */
  get state(): S {
    return this.ctx.state;
  }

  /** The state being edited; changes are sent by the next `publishState()`. */
  get stateMut(): S {
    return this.ctx.stateMut;
  }

  /** Sends what changed since the last publish (a snapshot, a delta, or nothing). */
  publishState(): void {
    this.ctx.publishState();
  }

  /** Edits the state (in place, or by returning a new value) and publishes it. */
  updateState(edit: (draft: S) => S | void): void {
    this.ctx.updateState(edit);
  }

  /** Replaces the state and publishes it. */
  setState(value: S): void {
    this.ctx.setState(value);
  }
}
