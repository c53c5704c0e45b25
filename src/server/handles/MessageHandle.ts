/** An open assistant text message: TEXT_MESSAGE_START sent, CONTENT and END to come. */
import { ev } from "../../protocol/build";
import { SpanHandle } from "./SpanHandle";

/**
 * Options of `ctx.assistantMessage()`.
 *
 * @example
 * ctx.assistantMessage({ id: "m-1", name: "Ada" });
 */
export interface MessageOptions {
  /** The message id; a fresh one by default. */
  readonly id?: string | undefined;
  /** An optional display name of the speaker (`name` on TEXT_MESSAGE_START). */
  readonly name?: string | undefined;
}

/**
 * Streams one assistant message. `delta(text)` sends TEXT_MESSAGE_CONTENT, `end()` sends
 * TEXT_MESSAGE_END; a write after `end()` throws a `ProtocolError` (docs/rules.md#R15) and sends nothing.
 * `using message = ctx.assistantMessage()` ends it when the block exits; the driver ends one left
 * open before RUN_FINISHED. The state accessors are the context's (publish while streaming).
 *
 * @example
 * const message = ctx.assistantMessage();
 * for await (const token of llm.stream(prompt)) message.delta(token);
 * message.end();
 */
export class MessageHandle<S = unknown> extends SpanHandle<S> {
  /** Appends text (TEXT_MESSAGE_CONTENT). */
  delta(text: string): this {
    this.port.send(ev.textMessageContent(this.id, text));
    return this;
  }

  /** Ends the message (TEXT_MESSAGE_END); a second `end()` throws a `ProtocolError`. */
  end(): void {
    this.port.send(ev.textMessageEnd(this.id));
    this.ended();
  }
}
