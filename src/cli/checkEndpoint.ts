/** The HTTP half of `agui-rx check`: one run against an AG-UI endpoint, its body handed to `checkBody`. */
import type { Observable } from "rxjs";
import { runAgentInput } from "../index";
import { ClientError } from "../client/index";
import { responseBytes } from "../wire/responseBytes";
import { checkBody } from "./checkBody";
import type { CheckReport, Finding } from "./Finding";

/** Options of {@link checkEndpoint}. */
export interface CheckOptions {
  /** The user message the run is asked to answer (default `"Hello"`). */
  readonly message?: string;
  /** Extra request headers (an `Authorization` header, say). */
  readonly headers?: Readonly<Record<string, string>>;
  /** The whole run's time limit in milliseconds (default 60 000); past it the check stops with a `timeout` finding. */
  readonly timeoutMs?: number;
  /** The fetch to use (default `globalThis.fetch`). */
  readonly fetch?: typeof fetch;
  /** The thread and run ids of the request (default: `agui-rx-check-<time>` and `run-<time>`). */
  readonly threadId?: string;
  readonly runId?: string;
}

const DEFAULT_TIMEOUT_MS = 60_000;
const BODY_EXCERPT = 300;

/**
 * POSTs one `RunAgentInput` (one user message, no tools, empty state) to `url` as the official
 * client does (`Accept: text/event-stream`), and checks what comes back: a non-2xx status or a
 * content type other than `text/event-stream` is an `http` finding; otherwise the body is checked
 * by `checkBody` (decoding, normalization, verification, apply, run end). Never rejects: every
 * failure, a refused connection included, is a finding in the report.
 *
 * @example
 * const report = await checkEndpoint("http://127.0.0.1:8000/", { message: "add milk" });
 * for (const finding of report.findings) console.log(finding.rule, finding.index, finding.message);
 */
export async function checkEndpoint(url: string, options: CheckOptions = {}): Promise<CheckReport> {
  const stamp = Date.now();
  const threadId = options.threadId ?? `agui-rx-check-${stamp}`;
  const runId = options.runId ?? `run-${stamp}`;
  const input = runAgentInput(threadId, runId, { messages: [{ id: `${runId}-user`, role: "user", content: options.message ?? "Hello" }] });
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new ClientError("transport", `no complete answer within ${timeoutMs} ms`, { code: "timeout" })), timeoutMs);
  const only = (finding: Finding): CheckReport => ({ url, findings: [finding], frames: 0, end: { kind: "none" } });
  try {
    let response: Response;
    try {
      response = await (options.fetch ?? globalThis.fetch)(url, {
        method: "POST",
        headers: { ...options.headers, "Content-Type": "application/json", Accept: "text/event-stream" },
        body: JSON.stringify(input),
        signal: controller.signal,
      });
    } catch (cause) {
      return only(transportFinding(controller.signal, `POST ${url} failed: ${describe(cause)}`));
    }
    if (!response.ok) {
      const body = await response.text().catch(() => "");
      const excerpt = body.length > BODY_EXCERPT ? `${body.slice(0, BODY_EXCERPT)}…` : body;
      return only({
        severity: "error",
        stage: "http",
        rule: "status",
        message: `expected a 2xx answer, got ${response.status} ${response.statusText}${excerpt ? `: ${excerpt}` : ""}`,
      });
    }
    const type = response.headers.get("content-type") ?? "";
    if (!/^text\/event-stream\b/i.test(type.trim())) {
      await response.body?.cancel().catch(() => undefined);
      return only({
        severity: "error",
        stage: "http",
        rule: "content-type",
        message: `expected Content-Type text/event-stream, got ${type === "" ? "none" : type}`,
      });
    }
    const checked = await checkBody(bytesOf(response, controller.signal));
    return { url, ...checked };
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
}

/** The response body as byte chunks; a failed read (or the time limit) errors with a `transport` ClientError. */
function bytesOf(response: Response, signal: AbortSignal): Observable<Uint8Array> {
  return responseBytes(response, (cause) => {
    const finding = transportFinding(signal, `reading the body failed: ${describe(cause)}`);
    return new ClientError("transport", finding.message, { code: finding.rule });
  });
}

/** A failed request or read: `timeout` when our time limit aborted it, else `network`. */
function transportFinding(signal: AbortSignal, message: string): Finding {
  const reason: unknown = signal.reason;
  if (signal.aborted && ClientError.isInstance(reason)) return { severity: "error", stage: "transport", rule: "timeout", message: reason.message };
  return { severity: "error", stage: "transport", rule: "network", message };
}

function describe(cause: unknown): string {
  if (!(cause instanceof Error)) return String(cause);
  const inner: unknown = cause.cause; // undici puts the system error (ECONNREFUSED…) here
  return inner instanceof Error ? `${cause.message} (${inner.message})` : cause.message;
}
