/** The shared-state half of a run context, lent to every handle (docs/seeds.md#seed-000: handles borrow the sink and the state). */
import type { RunPort } from "../RunPort";

/**
 * The state accessors of a run context and of every handle it opens: one implementation over the
 * context's port, so a tool call can publish state while it is open (`TOOL_CALL_START,
 * TOOL_CALL_ARGS, STATE_SNAPSHOT, TOOL_CALL_END, …`) without being able to open a second block.
 * A publish through a handle is attributed like one through the context that opened it.
 *
 * @example
 * call.stateMut.tasks.push("ship it");
 * call.publishState();
 */
export abstract class StateAccess<S> {
  /** Not for applications: a context or handle passes what its run lends it. */
  protected constructor(
    /** What the context lends: writers, ids, state, open spans. */
    protected readonly port: RunPort<S>,
  ) {}

  /** The typed state as of the last publish (the decoded input state before the first). Do not mutate it. */
  get state(): S {
    return this.port.state;
  }

  /** The typed state to edit in place; nothing is sent until `publishState()`. */
  get stateMut(): S {
    return this.port.stateMut;
  }

  /** Sends what changed since the last publish: STATE_SNAPSHOT first in a run, then STATE_DELTA when smaller, nothing when nothing changed. */
  publishState(): void {
    this.port.publishState();
  }

  /**
   * Edits the state and publishes it in one call; `edit` mutates the draft in place or returns a
   * new value.
   *
   * @example
   * ctx.updateState((doc) => { doc.step += 1; });
   */
  updateState(edit: (draft: S) => S | void): void {
    const next = edit(this.port.stateMut);
    if (next !== undefined) this.port.stateMut = next;
    this.publishState();
  }

  /** Replaces the state and publishes it. */
  setState(value: S): void {
    this.port.stateMut = value;
    this.publishState();
  }
}
