/** The AG-UI HTTP transport: POST the RunAgentInput, read the SSE response (WIRE §6). */
import { Observable, type Subscription } from "rxjs";
import type { Event } from "../../protocol/events";
import type { RunAgentInput } from "../../protocol/input";
import type { DecodeWarning } from "../../wire/DecodeWarning";
import { ClientError } from "../ClientError";
import { decodeEvents } from "./decodeEvents";
import type { Transport, TransportRunOptions } from "./Transport";

/** Request headers, or a function giving them per run (e.g. a fresh token). */
export type HeadersOption = Record<string, string> | ((input: RunAgentInput) => Record<string, string> | Promise<Record<string, string>>);

/** Options of `HttpTransport`. */
export interface HttpTransportOptions {
  /** Extra headers; `Content-Type` and `Accept` are always set by the transport. */
  readonly headers?: HeadersOption;
  /** The fetch to use (default `globalThis.fetch`). */
  readonly fetch?: typeof fetch;
  /** Largest SSE frame accepted, in characters (`decodeSse`'s `maxFrameBytes`; default 16 MiB). */
  readonly maxFrameBytes?: number;
  /** Nesting limit of an event's JSON (`decodeSse`'s `maxDepth`; default 512): deeper is a `decode` error naming the path and the limit. */
  readonly maxDepth?: number;
}

/** How much of an error response's body an `http` error quotes. */
const BODY_EXCERPT = 500;

/**
 * POSTs each run's input as JSON (`Content-Type: application/json`, `Accept: text/event-stream`)
 * and streams the `text/event-stream` response through `decodeEvents`. Unsubscribing aborts the
 * request. Failures error the Observable with a `ClientError`:
 * - a non-2xx status → `http`, with `status` and the start of the body;
 * - the request or the body stream failing (connection refused, reset) → `transport`;
 * - a response that is not `text/event-stream` → `decode`;
 * - bad frames → the `DecodeError` of `decodeSse` (the Session reports it as `json`/`decode`):
 *   an unknown type, a frame over `maxFrameBytes`, JSON deeper than `maxDepth`, a body cut inside a
 *   frame (`truncated`).
 * Material the decoder strips (AG-UI 1.1) is reported as in-band `DecodeWarning`s when `run` is
 * called with `{ warnings: true }` (as the Session does), and stripped silently otherwise.
 *
 * @example
 * const transport = new HttpTransport("https://example.com/agent", { headers: () => ({ Authorization: `Bearer ${token()}` }) });
 */
export class HttpTransport implements Transport {
  constructor(
    private readonly url: string,
    private readonly options: HttpTransportOptions = {},
  ) {}

  run(input: RunAgentInput): Observable<Event>;
  run(input: RunAgentInput, options: TransportRunOptions): Observable<Event | DecodeWarning>;
  run(input: RunAgentInput, runOptions: TransportRunOptions = {}): Observable<Event | DecodeWarning> {
    return new Observable<Event | DecodeWarning>((subscriber) => {
      const controller = new AbortController();
      let inner: Subscription | undefined;
      const fail = (error: ClientError): void => {
        if (!controller.signal.aborted) subscriber.error(error);
      };
      const start = async (): Promise<void> => {
        const extra = typeof this.options.headers === "function" ? await this.options.headers(input) : (this.options.headers ?? {});
        const fetchFn = this.options.fetch ?? globalThis.fetch;
        let response: Response;
        try {
          response = await fetchFn(this.url, {
            method: "POST",
            headers: { ...extra, "Content-Type": "application/json", Accept: "text/event-stream" },
            body: JSON.stringify(input),
            signal: controller.signal,
          });
        } catch (cause) {
          fail(new ClientError("transport", `POST ${this.url} failed: ${describe(cause)}`, { cause }));
          return;
        }
        if (!response.ok) {
          const body = await response.text().catch(() => "");
          const excerpt = body.length > BODY_EXCERPT ? `${body.slice(0, BODY_EXCERPT)}…` : body;
          fail(new ClientError("http", `POST ${this.url} answered ${response.status} ${response.statusText}: ${excerpt}`, { status: response.status, body: excerpt }));
          return;
        }
        const type = response.headers.get("content-type") ?? "";
        if (!/^text\/event-stream\b/i.test(type.trim())) {
          await response.body?.cancel().catch(() => undefined);
          fail(new ClientError("decode", `POST ${this.url} answered ${type === "" ? "without a content type" : `with ${type}`}; expected text/event-stream`, { status: response.status }));
          return;
        }
        if (controller.signal.aborted) return;
        const decoding = { maxFrameBytes: this.options.maxFrameBytes, maxDepth: this.options.maxDepth, warnings: runOptions.warnings === true };
        inner = decodeEvents(readBody(response, this.url), decoding).subscribe(subscriber);
      };
      start().catch((cause: unknown) => fail(new ClientError("transport", `POST ${this.url} failed: ${describe(cause)}`, { cause })));
      return () => {
        controller.abort();
        inner?.unsubscribe();
      };
    });
  }
}

/** The response body as byte chunks; a read failure is a `transport` error; unsubscribing cancels the reader. */
function readBody(response: Response, url: string): Observable<Uint8Array> {
  return new Observable<Uint8Array>((subscriber) => {
    const body = response.body;
    if (body === null) {
      subscriber.complete();
      return;
    }
    const reader = body.getReader();
    let stopped = false;
    const pump = async (): Promise<void> => {
      for (;;) {
        const { done, value } = await reader.read();
        if (stopped) return;
        if (done) {
          subscriber.complete();
          return;
        }
        subscriber.next(value);
      }
    };
    pump().catch((cause: unknown) => {
      if (!stopped) subscriber.error(new ClientError("transport", `reading the response of ${url} failed: ${describe(cause)}`, { cause }));
    });
    return () => {
      stopped = true;
      reader.cancel().catch(() => undefined);
    };
  });
}

function describe(cause: unknown): string {
  if (!(cause instanceof Error)) return String(cause);
  // undici hides the system error (ECONNREFUSED…) in `cause`
  const inner: unknown = cause.cause;
  return inner instanceof Error ? `${cause.message} (${inner.message})` : cause.message;
}
