/** What `Session.connect()` reads from its transport (docs/durability.md#stores-and-routes): a thread's connect stream, with the run it names, and a refusal that says why it cannot be joined. */
import { catchError, defer, Observable, tap, throwError } from "rxjs";
import type { Event } from "../protocol/events";
import type { DecodeWarning } from "../wire/DecodeWarning";
import { ClientError } from "../thread/ClientError";
import type { ConnectionNotice } from "./transports/ConnectionNotice";
import type { ConnectRequest, Transport } from "./transports/Transport";
import type { WireTap } from "./transports/WireTap";

/**
 * The `code` of the error a join fails with when the server keeps no threads (docs/threads.md#joining-a-new-thread):
 * it answered 404 `not-resumable` (a handler without a store), or 405 / a 404 without its JSON
 * refusal (no `/connect` route at all).
 *
 * @example
 * if (update.kind === "done" && update.end.kind === "failed" && update.end.code === NOT_RESUMABLE_CODE) hideHistory();
 */
export const NOT_RESUMABLE_CODE = "not-resumable";

/**
 * The transport's connect stream for `request` (cold; with warnings and connection notices, as
 * for a run, and the raw bytes shown to `wire`), telling `onRun` the run it names (its first RUN_STARTED). A thread the caller never
 * had is a new, empty thread the server answers like any other (mode `new`), so nothing here is
 * special about it. A server that keeps no threads (404 `not-resumable`, 405, a 404 without the
 * server's JSON refusal) errors the stream with an `http` error of code `not-resumable` saying so;
 * every other failure (410 `gone` included) errors it as the transport said; a transport without
 * `connect` errors it with `noConnect()`.
 *
 * @example
 * const events = joinThread(transport, { threadId: "board-1" }, (runId) => (active.runId ??= runId));
 */
export function joinThread(
  transport: Transport,
  request: ConnectRequest,
  onRun: (runId: string) => void,
  wire?: WireTap,
): Observable<Event | DecodeWarning | ConnectionNotice> {
  return defer(() =>
    transport.connect === undefined ? throwError(() => noConnect()) : transport.connect(request, { warnings: true, connection: true, wire }),
  ).pipe(
    tap((item) => {
      if ("type" in item && item.type === "RUN_STARTED") onRun(item.runId);
    }),
    catchError((error: unknown) => throwError(() => keepsNoThreads(error) ?? error)),
  );
}

/**
 * The `config` error of a session whose transport cannot join threads (it has no `connect`): what
 * `Session.connect()` ends with, code `no-connect`.
 *
 * @example
 * return refuse(noConnect());
 */
export function noConnect(): ClientError {
  return new ClientError("config", "this session's transport cannot join a thread (it has no connect): use HttpTransport against a server that keeps threads", {
    code: "no-connect",
  });
}

/** The error saying the server keeps no threads, when `error` is such an answer; `undefined` otherwise. */
function keepsNoThreads(error: unknown): ClientError | undefined {
  if (!ClientError.isInstance(error) || error.kind !== "http") return undefined;
  const noRoute = error.status === 405 || (error.status === 404 && error.code === undefined);
  if (!noRoute && !(error.status === 404 && error.code === NOT_RESUMABLE_CODE)) return undefined;
  const { status, body } = error;
  return new ClientError("http", `the server keeps no threads, so there is no thread to join (it answered ${String(status)}): ${error.message}`, {
    cause: error,
    code: NOT_RESUMABLE_CODE,
    ...(status === undefined ? {} : { status }),
    ...(body === undefined ? {} : { body }),
  });
}
