/**
 * The one place that decides what a client sees of a model or tool error (docs/ai.md, "Errors"):
 * the provider's message, never a stack, a request body or headers, unless an `onError` of the
 * user's says otherwise.
 */

/**
 * The RUN_ERROR code of a model call that failed (an `error` part in the stream, or the stream itself throwing).
 *
 * @example
 * if (event.type === "RUN_ERROR" && event.code === MODEL_ERROR_CODE) showRetry();
 */
export const MODEL_ERROR_CODE = "MODEL_ERROR";

/**
 * The RUN_ERROR code of a model call aborted by something other than the run's own signal (an
 * `abortSignal` the caller of `streamText` passed, say). An abort through `ctx.signal` sends nothing.
 *
 * @example
 * if (event.type === "RUN_ERROR" && event.code === MODEL_ABORTED_CODE) showStopped();
 */
export const MODEL_ABORTED_CODE = "MODEL_ABORTED";

/**
 * Where an error came from: the model call, or a server tool's `execute` (or the SDK refusing a
 * tool call: an unknown tool, input that does not match the schema).
 *
 * @example
 * const source: ErrorSource = { kind: "tool", toolName: "get_weather", toolCallId: "call_1" };
 */
export type ErrorSource = { readonly kind: "model" } | { readonly kind: "tool"; readonly toolName: string; readonly toolCallId: string };

/**
 * What the client is told: `message` goes to `RUN_ERROR.message` (a model error) or into the
 * tool result `{"error": message}` (a tool error); `code` goes to `RUN_ERROR.code` (unused for tools).
 *
 * @example
 * const report: ErrorReport = { message: "The model is overloaded, try again.", code: "MODEL_ERROR" };
 */
export interface ErrorReport {
  readonly message: string;
  readonly code: string;
}

/**
 * The `onError` option of `aiAgent` and `streamToRun`: turns an error into what the client sees.
 * Return more (a status code, a request id) or less (a fixed text) than the default does.
 *
 * @example
 * const onError: ErrorDescriber = (error, source) =>
 *   APICallError.isInstance(error) && error.statusCode === 429
 *     ? { message: "Too many requests, try again in a minute.", code: "RATE_LIMITED" }
 *     : describeError(error, source);
 */
export type ErrorDescriber = (error: unknown, source: ErrorSource) => ErrorReport;

/** The longest message the default passes on; providers sometimes put a whole response body in it. */
export const MAX_ERROR_MESSAGE_LENGTH = 1000;

/**
 * The default `onError`: the error's own message (an `Error`'s `message`, a string as it is, the
 * `message` member of a provider's JSON error object), cut to 1000 characters, with code
 * `MODEL_ERROR` (or `TOOL_ERROR` for a tool). The AI SDK's errors keep the provider's text in
 * `message` and the request body, response body and headers in other fields, which this never
 * reads; a value with no message at all becomes a fixed sentence, never its JSON.
 *
 * @example
 * describeError(new APICallError({ message: "Incorrect API key provided", … }), { kind: "model" });
 * // { message: "Incorrect API key provided", code: "MODEL_ERROR" }
 */
export function describeError(error: unknown, source: ErrorSource): ErrorReport {
  const code = source.kind === "model" ? MODEL_ERROR_CODE : "TOOL_ERROR";
  const text = messageOf(error);
  if (text === undefined || text.trim() === "") {
    return { message: source.kind === "model" ? "the model call failed without a message" : `the tool "${source.toolName}" failed without a message`, code };
  }
  return { message: text.length > MAX_ERROR_MESSAGE_LENGTH ? `${text.slice(0, MAX_ERROR_MESSAGE_LENGTH - 1)}…` : text, code };
}

function messageOf(error: unknown): string | undefined {
  if (typeof error === "string") return error;
  if (error instanceof Error) return error.message;
  if (typeof error === "object" && error !== null && "message" in error && typeof error.message === "string") return error.message;
  return undefined;
}
