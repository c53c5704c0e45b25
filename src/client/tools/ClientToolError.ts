/** The error of client tools (docs/tools.md#frontend-tools): a closed code, the tool and call it concerns, and the cause kept. */
import { Brand } from "../../protocol/Brand";
import type { Failure } from "../../protocol/describeFailure";
import { causeOption, copyDefined } from "../../protocol/errorDetails";

/**
 * What went wrong with a client tool.
 *
 * - at construction (`clientTool`, `resolveTools`, `jsonSchemaOf`): `unsupported-codec` (no JSON
 *   Schema can be derived from a codec and no `jsonSchema` was given), `invalid-tool` (a bad name,
 *   description or schema, or two tools with one name);
 * - per call (carried by a failed `ToolCallResult`, never thrown): `invalid-arguments` (the call's
 *   arguments are not JSON or do not decode), `execute-failed` (`execute` threw or rejected),
 *   `invalid-result` (the returned value has no JSON form).
 */
export type ClientToolErrorCode = "unsupported-codec" | "invalid-tool" | "invalid-arguments" | "execute-failed" | "invalid-result";

/**
 * The context of a `ClientToolError`, in one options object.
 *
 * @example
 * const options: ClientToolErrorOptions = { code: "execute-failed", toolName: "get_time", toolCallId: "call-1", cause: error };
 */
export interface ClientToolErrorOptions {
  readonly code: ClientToolErrorCode;
  /** The tool concerned, when one is. */
  readonly toolName?: string | undefined;
  /** The call concerned (per-call codes). */
  readonly toolCallId?: string | undefined;
  /** The name of the codec no schema could be derived for (`unsupported-codec`). */
  readonly codec?: string | undefined;
  /** Where: a JSON Pointer into the arguments (`*` stands for any array item or record value). */
  readonly path?: string | undefined;
  /** The decode failure described (`invalid-arguments` from the codec). */
  readonly failure?: Failure | undefined;
  /** The underlying error: io-ts `Errors`, the thrown value, the JSON parse error. */
  readonly cause?: unknown;
}

/** The cross-copy brand (docs/packaging.md); its key is the one earlier versions put on each instance. */
const CLIENT_TOOL_ERROR = new Brand<ClientToolError>("agui-rx.ClientToolError");

/**
 * A client tool problem; the message says what was expected and what arrived.
 *
 * @example
 * const error = new ClientToolError('tool "get_time" failed: offline', { code: "execute-failed", toolName: "get_time" });
 * ClientToolError.isInstance(error); // true, even across two copies of the package
 */
export class ClientToolError extends Error {
  override readonly name = "ClientToolError";
  readonly code: ClientToolErrorCode;
  readonly toolName?: string;
  readonly toolCallId?: string;
  readonly codec?: string;
  readonly path?: string;
  readonly failure?: Failure;
  static {
    CLIENT_TOOL_ERROR.mark(this);
  }

  constructor(message: string, options: ClientToolErrorOptions) {
    super(message, causeOption(options));
    this.code = options.code;
    copyDefined(this, options, ["toolName", "toolCallId", "codec", "path", "failure"]);
  }

  /** Whether `value` is a ClientToolError, by a `Symbol.for` marker (so the ESM and CJS builds recognise each other's). */
  static isInstance(value: unknown): value is ClientToolError {
    return CLIENT_TOOL_ERROR.is(value);
  }
}
