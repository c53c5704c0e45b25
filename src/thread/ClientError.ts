/** The client's one error class: every problem a run reports, fatal or not, as data (docs/seeds.md#seed-001, docs/rules.md#run-end). */
import { ProtocolError } from "../operators/ProtocolError";
import { PatchError } from "../patch/PatchError";
import { Brand } from "../protocol/Brand";
import { causeOption, copyDefined } from "../protocol/errorDetails";
import { DecodeError } from "../wire/DecodeError";
import type { DecodeWarning } from "../wire/DecodeWarning";

/**
 * What went wrong, by layer. Open: new transports and checks may add kinds, so a `switch` over it
 * wants a `default` branch.
 *
 * - non-fatal (docs/rules.md#E4): `protocol` (an event broke an ordering rule and was not applied), `patch` (a
 *   state or activity patch did not apply; the target is unchanged), `state` (the state does not
 *   decode with the session's StateSpec; `rawState` is still exact), `warning` (nothing is wrong
 *   with what was applied, but something was left out or may be misread: `code` says what —
 *   `unknown-property` / `unknown-member` (material the protocol does not describe was stripped,
 *   AG-UI 1.1; the message names the event and the JSON Pointer), `protocol-version` (the agent
 *   declares a protocol version newer than this client's, or one it cannot interpret)), and `tool`
 *   with code `execute-failed` / `invalid-result` (a client tool's `execute` threw, or returned
 *   what has no JSON form: the model got an error result and the exchange goes on);
 * - fatal (docs/rules.md#E5): `run` (RUN_ERROR), `json` / `decode` (bad bytes, unknown event type, too deep,
 *   truncated stream), `http` (non-2xx), `transport` (network failure), `config` (the run could not
 *   start: another run is active, interrupts are not covered or have expired, or the tools are
 *   invalid), `tool` (the client-tool loop cannot go on: `code` is `tool-roundtrips` (the runs
 *   kept leaving client tool calls past `maxToolRoundtrips`) or `tool-loop` (a callback of the
 *   loop threw, e.g. `newId`); docs/tools.md).
 */
export type ClientErrorKind = "protocol" | "patch" | "state" | "warning" | "run" | "json" | "decode" | "http" | "transport" | "config" | "tool";

/** Context a ClientError may carry, depending on its kind. */
export interface ClientErrorDetails {
  /** The underlying error (a ProtocolError, PatchError, DecodeError, io-ts errors, a fetch failure…). */
  readonly cause?: unknown;
  /** The machine-readable code: RUN_ERROR.code, the DecodeError code, the ProtocolError rule, the warning's code. */
  readonly code?: string | undefined;
  /** The offending event, when there is one. */
  readonly event?: unknown;
  /** HTTP status (`http`). */
  readonly status?: number | undefined;
  /** The start of the response body (`http`). */
  readonly body?: string | undefined;
  /** How long the server asked to wait before trying again, in ms (`http`: its `Retry-After` header, seconds or a date). */
  readonly retryAfterMs?: number | undefined;
  /** Interrupt ids involved (`config` pre-flight). */
  readonly interruptIds?: readonly string[] | undefined;
}

/** The cross-copy brand (docs/packaging.md): every copy of the package marks its ClientErrors with the same key. */
const CLIENT_ERROR = new Brand<ClientError>("agui-rx/ClientError");

/**
 * One reported problem: `kind` says which layer, `message` what was expected and what arrived, and
 * the details (`cause`, `code`, `event`, `status`, `body`, `retryAfterMs`, `interruptIds`) the context.
 *
 * @example
 * const error = new ClientError("http", "POST /agent answered 500: boom", { status: 500, body: "boom" });
 * error.kind; // "http"
 */
export class ClientError extends Error {
  override readonly name = "ClientError";
  static {
    CLIENT_ERROR.mark(this);
  }

  /**
   * Whether `value` is a ClientError from any copy of this package (its ESM and CJS builds are two
   * copies, and `instanceof` sees only its own): it checks a `Symbol.for` brand, not the prototype.
   *
   * @example
   * if (ClientError.isInstance(update.error)) console.log(update.error.kind);
   */
  static isInstance(value: unknown): value is ClientError {
    return CLIENT_ERROR.is(value);
  }
  readonly code?: string;
  readonly event?: unknown;
  readonly status?: number;
  readonly body?: string;
  readonly retryAfterMs?: number;
  readonly interruptIds?: readonly string[];

  constructor(
    readonly kind: ClientErrorKind,
    message: string,
    details: ClientErrorDetails = {},
  ) {
    super(message, causeOption(details));
    copyDefined(this, details, ["code", "event", "status", "body", "retryAfterMs", "interruptIds"]);
  }

  /**
   * A decoder's in-band warning as a ClientError of kind `warning`, with its code, message and cause.
   *
   * @example
   * ClientError.fromWarning(warning).kind; // "warning"
   */
  static fromWarning(warning: DecodeWarning): ClientError {
    return new ClientError("warning", warning.message, { cause: warning, code: warning.code });
  }

  /**
   * Any thrown value as a ClientError: a ClientError as is; a DecodeError as `json` (code `json`)
   * or `decode`; a ProtocolError (a strict operator upstream) as `protocol`; a PatchError as
   * `patch`; an `AbortError` as `transport` with code `abort` (docs/rules.md#E11); anything else as `transport`,
   * since it came from below the event layer.
   *
   * @example
   * ClientError.from(new TypeError("fetch failed")).kind; // "transport"
   */
  static from(error: unknown): ClientError {
    if (CLIENT_ERROR.is(error)) return error;
    if (DecodeError.isInstance(error)) {
      return new ClientError(error.code === "json" ? "json" : "decode", error.message, { cause: error, code: error.code });
    }
    if (ProtocolError.isInstance(error)) return new ClientError("protocol", error.message, { cause: error, code: error.rule, event: error.event });
    if (PatchError.isInstance(error)) return new ClientError("patch", error.message, { cause: error });
    // docs/rules.md#E11: an abort (fetch's AbortError, an aborted signal) is a transport failure with code "abort"
    if (error instanceof Error && error.name === "AbortError") {
      return new ClientError("transport", `the run was aborted: ${error.message}`, { cause: error, code: "abort" });
    }
    const message = error instanceof Error ? error.message : String(error);
    return new ClientError("transport", `the transport failed: ${message}`, { cause: error });
  }
}
