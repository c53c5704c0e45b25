/** A step scope: STEP_STARTED sent, STEP_FINISHED when the guard is disposed (docs/rules.md#S7). */
import { ev } from "../../protocol/build";
import type { Closable } from "../RunCore";
import type { RunPort } from "../RunPort";

/**
 * The guard of `ctx.step(name)`. Disposing it (`using`, or `end()`) sends STEP_FINISHED exactly
 * once; later calls do nothing. A step is a scope, not a stream: everything written between start
 * and end, through the context, belongs to it.
 *
 * @example
 * {
 *   using step = ctx.step("research");
 *   ctx.say("Looking it up.");
 * } // STEP_FINISHED here, also on an early return or a throw
 */
export class StepGuard implements Closable, Disposable {
  #open = true;

  /** Not for applications: made by `ctx.step(name)`, which has already sent STEP_STARTED. */
  constructor(
    private readonly port: Pick<RunPort<unknown>, "send" | "release">,
    /** The step's name (`stepName` on the wire). */
    readonly name: string,
  ) {}

  /** Whether STEP_FINISHED is still to be sent. */
  get isOpen(): boolean {
    return this.#open;
  }

  /** Sends STEP_FINISHED if it was not sent yet. */
  end(): void {
    if (!this.#open) return;
    this.port.send(ev.stepFinished(this.name));
    this.#open = false;
    this.port.release(this);
  }

  /** Same as `end()`. */
  close(): void {
    this.end();
  }

  [Symbol.dispose](): void {
    this.end();
  }
}
