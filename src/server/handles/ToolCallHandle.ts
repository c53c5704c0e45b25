/** An open tool call: TOOL_CALL_START sent, ARGS, END and the RESULT to come. */
import { ev } from "../../protocol/build";
import type { RunPort } from "../RunPort";
import { SpanHandle } from "./SpanHandle";

/**
 * Options of `ctx.toolCall()`.
 *
 * @example
 * ctx.toolCall("search", { parentMessageId: message.id });
 */
export interface ToolCallOptions {
  /** The tool call id; a fresh one by default. */
  readonly id?: string | undefined;
  /** The assistant message the call belongs to. */
  readonly parentMessageId?: string | undefined;
}

/**
 * Options of `result()`.
 *
 * @example
 * call.result("3 hits", { messageId: "tool-msg-1" });
 */
export interface ToolResultOptions {
  /** The id of the tool message the result becomes; a fresh id by default. */
  readonly messageId?: string | undefined;
}

/**
 * Streams one tool call. `args(delta)` / `argsJson(value)` send TOOL_CALL_ARGS, `end()` sends
 * TOOL_CALL_END, `result(content)` / `resultJson(value)` send TOOL_CALL_RESULT, ending the call
 * first if it is still open. A write that breaks the ordering rules (args after end, a second end)
 * throws a `ProtocolError` and sends nothing. The state accessors are the context's, so the tool
 * can publish state while the call is open (docs/seeds.md#seed-000).
 *
 * @example
 * const call = ctx.toolCall("add_task");
 * call.argsJson({ title: "ship it" });
 * call.stateMut.tasks.push("ship it");
 * call.publishState();
 * call.resultJson({ ok: true }); // TOOL_CALL_END, TOOL_CALL_RESULT
 */
export class ToolCallHandle<S = unknown> extends SpanHandle<S> {
  /** Not for applications: made by `ctx.toolCall()`, which has already sent TOOL_CALL_START. */
  constructor(
    port: RunPort<S>,
    id: string,
    /** The tool's name. */
    readonly name: string,
  ) {
    super(port, id);
  }

  /** Appends a piece of the JSON-encoded arguments (TOOL_CALL_ARGS). */
  args(delta: string): this {
    this.port.send(ev.toolCallArgs(this.id, delta));
    return this;
  }

  /** Sends `value` JSON-encoded as the arguments, in one TOOL_CALL_ARGS. */
  argsJson(value: unknown): this {
    return this.args(json(value, "tool call arguments"));
  }

  /** Ends the call (TOOL_CALL_END); a second `end()` throws a `ProtocolError`. */
  end(): void {
    this.port.send(ev.toolCallEnd(this.id));
    this.ended();
  }

  /** Sends the tool's output (TOOL_CALL_RESULT), ending the call first if it is still open. Returns the result's message id. */
  result(content: string, options: ToolResultOptions = {}): string {
    this.close();
    const messageId = options.messageId ?? this.port.newId();
    this.port.send(ev.toolCallResult(messageId, this.id, content));
    return messageId;
  }

  /** Sends `value` JSON-encoded as the tool's output. */
  resultJson(value: unknown, options: ToolResultOptions = {}): string {
    return this.result(json(value, "tool result"), options);
  }
}

function json(value: unknown, what: string): string {
  const text = JSON.stringify(value);
  if (text === undefined) throw new TypeError(`expected a JSON value for the ${what}, got ${typeof value}`);
  return text;
}
