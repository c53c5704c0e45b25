/** One client tool call, from the JSON arguments its assistant message holds to the tool message that answers it (docs/tools.md § execution). */
import * as E from "../../protocol/either";
import { describeFailure, excerpt } from "../../protocol/describeFailure";
import type { ToolCall, ToolMessage } from "../../protocol/messages";
import type { ClientTool, ToolSession } from "./clientTool";
import { ClientToolError, type ClientToolErrorCode, type ClientToolErrorOptions } from "./ClientToolError";
import { errorContent, successContent } from "./toolResultContent";

/**
 * A call that `execute` answered; `message` carries the encoded result.
 *
 * @example
 * if (result.kind === "success") console.log(result.value);
 */
export interface ToolCallSuccess {
  readonly kind: "success";
  readonly toolCallId: string;
  readonly toolName: string;
  /** The tool message to append to the conversation (and so send in the next run). */
  readonly message: ToolMessage;
  /** What `execute` returned, before encoding. */
  readonly value: unknown;
}

/**
 * A call answered with an error result: arguments that are not JSON or do not decode (`execute`
 * never ran), a throw or rejection of `execute`, or a result with no JSON form.
 *
 * @example
 * if (result.kind === "failed" && result.error.code === "invalid-arguments") console.warn(result.error.failure);
 */
export interface ToolCallFailure {
  readonly kind: "failed";
  readonly toolCallId: string;
  readonly toolName: string;
  /** The tool message reporting the failure: content `{"error": …}`, and `error` the same text. */
  readonly message: ToolMessage;
  /** Why, with the cause kept (io-ts `Errors`, the thrown value, the JSON parse error). */
  readonly error: ClientToolError;
}

/**
 * How one client tool call ended. Either way `message` answers the call.
 *
 * @example
 * const appended: ToolMessage[] = results.map((result: ToolCallResult) => result.message);
 */
export type ToolCallResult = ToolCallSuccess | ToolCallFailure;

/**
 * What running one call needs besides the call and its tool.
 *
 * @example
 * const context: RunToolCallContext = { messageId: "tool-1", signal: controller.signal, session };
 */
export interface RunToolCallContext {
  /** The id of the tool message that answers the call. */
  readonly messageId: string;
  readonly signal: AbortSignal;
  readonly session: ToolSession;
}

/**
 * Runs one call of `tool` and resolves with the tool message that answers it; never rejects.
 *
 * 1. The arguments are parsed as JSON (blank arguments read as `{}`, as some models send no
 *    text for a tool without parameters) and decoded with `tool.parameters`. Arguments that are
 *    not JSON or do not decode never reach `execute`: the result is an error naming the path,
 *    what was expected and what arrived, so the model can correct itself.
 * 2. `execute(args, { toolCallId, signal, session })`; a throw or rejection becomes an error
 *    result with its message.
 * 3. The returned value goes through `tool.encodeResult` and `successContent` (a string as it is,
 *    anything else JSON-encoded); a value with no JSON form becomes an error result.
 *
 * @example
 * const result = await runToolCall(call, getWeather, { messageId: "tool-1", signal, session });
 * result.message; // { id: "tool-1", role: "tool", toolCallId: call.id, content: '{"temperature":21}' }
 */
export async function runToolCall(call: ToolCall, tool: ClientTool, context: RunToolCallContext): Promise<ToolCallResult> {
  let args: E.Either<ClientToolError, unknown>;
  try {
    args = decodeArguments(call, tool);
  } catch (thrown) {
    // A custom codec whose `validate` throws: still an answer for the model, and never a crash.
    const why = thrown instanceof Error ? thrown.message : String(thrown);
    args = E.left(
      new ClientToolError(`invalid arguments for "${tool.name}": decoding them threw: ${why}`, { ...about(call, tool, "invalid-arguments"), cause: thrown }),
    );
  }
  if (E.isLeft(args)) return failed(call, tool, context, args.left);
  let value: unknown;
  try {
    value = await tool.execute(args.right, { toolCallId: call.id, signal: context.signal, session: context.session });
  } catch (thrown) {
    return failed(call, tool, context, new ClientToolError(thrownMessage(thrown, tool.name), { ...about(call, tool, "execute-failed"), cause: thrown }));
  }
  let content: string;
  try {
    content = successContent(tool.encodeResult(value));
  } catch (thrown) {
    const why = thrown instanceof Error ? thrown.message : String(thrown);
    const error = new ClientToolError(`the result of "${tool.name}" cannot be sent: ${why}`, { ...about(call, tool, "invalid-result"), cause: thrown });
    return failed(call, tool, context, error);
  }
  return { kind: "success", toolCallId: call.id, toolName: tool.name, value, message: { id: context.messageId, role: "tool", toolCallId: call.id, content } };
}

function decodeArguments(call: ToolCall, tool: ClientTool): E.Either<ClientToolError, unknown> {
  const text = call.function.arguments;
  const options = about(call, tool, "invalid-arguments");
  let parsed: unknown;
  try {
    parsed = text.trim() === "" ? {} : JSON.parse(text);
  } catch (cause) {
    const why = cause instanceof Error ? cause.message : String(cause);
    return E.left(new ClientToolError(`invalid arguments for "${tool.name}": expected JSON, but got ${excerpt(text)} (${why})`, { ...options, cause }));
  }
  const decoded = tool.parameters.decode(parsed);
  if (E.isRight(decoded)) return E.right(decoded.right);
  const failure = describeFailure(decoded.left);
  const where = failure.path === "" ? "" : ` at ${failure.path}`;
  return E.left(
    new ClientToolError(`invalid arguments for "${tool.name}"${where}: ${failure.expected}, but got ${excerpt(failure.actual)}`, {
      ...options,
      path: failure.path,
      failure,
      cause: decoded.left,
    }),
  );
}

/** The text the model sees for a throw: the error's message (a thrown string as it is), or a sentence saying what was thrown. */
function thrownMessage(thrown: unknown, toolName: string): string {
  const text = thrown instanceof Error ? thrown.message : typeof thrown === "string" ? thrown : undefined;
  if (text !== undefined && text !== "") return text;
  if (text === undefined && thrown !== undefined) return `the tool "${toolName}" failed with ${excerpt(thrown)}`;
  return `the tool "${toolName}" failed without a message`;
}

/** The context every per-call error carries. */
function about(call: ToolCall, tool: ClientTool, code: ClientToolErrorCode): ClientToolErrorOptions {
  return { code, toolName: tool.name, toolCallId: call.id };
}

function failed(call: ToolCall, tool: ClientTool, context: RunToolCallContext, error: ClientToolError): ToolCallFailure {
  const message: ToolMessage = { id: context.messageId, role: "tool", toolCallId: call.id, content: errorContent(error.message), error: error.message };
  return { kind: "failed", toolCallId: call.id, toolName: tool.name, message, error };
}
