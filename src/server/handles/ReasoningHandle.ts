/**
 * An open reasoning message inside its own reasoning block: REASONING_START and
 * REASONING_MESSAGE_START (same id) sent, content and the ends to come. The block is what docs/rules.md#R22 asks
 * for: a reasoning message opens only inside a reasoning block of its owner.
 */
import { ev } from "../../protocol/build";
import { SpanHandle } from "./SpanHandle";

/**
 * Streams the model's visible reasoning. `delta(text)` sends REASONING_MESSAGE_CONTENT, `end()`
 * sends REASONING_MESSAGE_END then REASONING_END, `encryptedValue(value)` sends a
 * REASONING_ENCRYPTED_VALUE (subtype `message`) for this id, for providers that return opaque
 * reasoning. Reasoning left open blocks RUN_FINISHED like any open span (docs/rules.md#R7, docs/rules.md#R22), so the driver
 * ends it (message, then block) when the agent returns without doing so.
 *
 * @example
 * const thinking = ctx.reasoning();
 * thinking.delta("The user wants the weather; call get_weather.");
 * thinking.end();
 */
export class ReasoningHandle<S = unknown> extends SpanHandle<S> {
  /** Appends reasoning text (REASONING_MESSAGE_CONTENT). */
  delta(text: string): this {
    this.port.send(ev.reasoningMessageContent(this.id, text));
    return this;
  }

  /** Attaches an opaque, provider-encrypted reasoning value to this message. */
  encryptedValue(value: string): this {
    this.port.send(ev.reasoningEncryptedValue("message", this.id, value));
    return this;
  }

  /** Ends the message and the reasoning phase (REASONING_MESSAGE_END, REASONING_END). Ending twice does nothing. */
  end(): void {
    if (!this.isOpen) return;
    this.port.send(ev.reasoningMessageEnd(this.id));
    this.ended();
    this.port.send(ev.reasoningEnd(this.id));
  }
}
