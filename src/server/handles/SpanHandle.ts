/** What every streamed span handle shares: an id, an open flag, and leaving the run's open set once ended. */
import type { Closable } from "../RunCore";
import type { RunPort } from "../RunPort";
import { StateAccess } from "./StateAccess";

/**
 * The life cycle of a span the agent streams (a message, a tool call, reasoning): open from the
 * moment its start was sent until its end is; `close()` ends it if still open, and so does leaving
 * a `using` block. The state accessors are the context's, so a span can publish state while open.
 *
 * @example
 * class MessageHandle<S> extends SpanHandle<S> {
 *   end(): void { this.port.send(ev.textMessageEnd(this.id)); this.ended(); }
 * }
 */
export abstract class SpanHandle<S = unknown> extends StateAccess<S> implements Closable, Disposable {
  #open = true;

  /** Not for applications: made by the context, which has already sent the span's start. */
  constructor(
    port: RunPort<S>,
    /** The span's id on the wire (`messageId` or `toolCallId`). */
    readonly id: string,
  ) {
    super(port);
  }

  /** Whether the span's end is still to be sent. */
  get isOpen(): boolean {
    return this.#open;
  }

  /** Sends the span's end. */
  abstract end(): void;

  /** Ends the span if it is still open; does nothing otherwise. */
  close(): void {
    if (this.#open) this.end();
  }

  [Symbol.dispose](): void {
    this.close();
  }

  /** Records that the end was sent: the span is closed and no longer one the driver must close. */
  protected ended(): void {
    this.#open = false;
    this.port.release(this);
  }
}
