/** One HTTP request answered with an SSE body (docs/wire.md#6), read as events with their `id:`/`retry:` fields: one connection of `HttpTransport`. */
import { Observable, tap, type SchedulerLike, type Subscription } from "rxjs";
import type { Event } from "../../protocol/events";
import { CONNECT_MODE_HEADER, HISTORY_OLDER_HEADER, RESUMABLE_HEADER, type ConnectMode } from "../../protocol/connectMode";
import { decodeSse } from "../../wire/decodeSse";
import { responseBytes } from "../../wire/responseBytes";
import type { DecodeWarning } from "../../wire/DecodeWarning";
import type { SseControl } from "../../wire/SseControl";
import { ClientError } from "../../thread/ClientError";
import { QUEUE_NOTICE_EVENT, QUEUED_HEADER, QueueNotice } from "../../protocol/queueMeta";
import { SseNamedFrame } from "../../wire/SseNamedFrame";
import { decodeJson } from "./jsonRequest";
import { QueueNoticeItem } from "./QueueNoticeItem";
import { describe, failedRequest, refusedAnswer } from "./requestFailure";
import { HEARTBEAT_HEADER } from "../../protocol/heartbeat";
import { stallAfter, stallLimit } from "./stallAfter";
import type { WireTap } from "./WireTap";

/**
 * The answer arrived (a 2xx `text/event-stream`): emitted once, before the body's items. `mode`
 * is the `AGUI-Connect-Mode` header's value when the server sent one (`/connect` answers do);
 * `resumable` whether it said `AGUI-Resumable: true` (a server that keeps threads does);
 * `hasOlder` the `AGUI-History-Older` header of a join with a message limit (`undefined` without one);
 * `queued` the `AGUI-Queued` header: the answer is a queued message's stream, that message's id
 * (docs/queue.md#on-the-wire).
 *
 * @example
 * if (item instanceof StreamOpened && item.mode === "snapshot") restart();
 */
export class StreamOpened {
  constructor(
    readonly mode: ConnectMode | undefined,
    readonly resumable: boolean,
    readonly hasOlder?: boolean,
    readonly queued?: string,
  ) {}
}

/**
 * What one connection yields, in order: `StreamOpened`, then the body's events, decode warnings,
 * stream controls and (on a queued message's stream) queue notices.
 *
 * @example
 * const item: StreamItem = new StreamOpened("resume");
 */
export type StreamItem = Event | DecodeWarning | SseControl | StreamOpened | QueueNoticeItem;

/**
 * How to make the request and read its body.
 *
 * @example
 * const request: StreamRequest = { url, method: "POST", headers, body: JSON.stringify(input), maxFrameBytes: undefined, maxDepth: undefined, warnings: true };
 */
export interface StreamRequest {
  readonly url: string;
  readonly headers: () => Promise<Record<string, string>>;
  readonly body: string;
  readonly fetch: typeof fetch;
  readonly maxFrameBytes: number | undefined;
  readonly maxDepth: number | undefined;
  readonly warnings: boolean;
  /** The longest silence of the body before it is cut (`stalled`): `HttpTransportOptions.stallMs`; `undefined` for three announced heartbeats (`stallLimit`). */
  readonly stallMs?: number | false | undefined;
  /** Where the silence is timed (default `asyncScheduler`). */
  readonly scheduler?: SchedulerLike | undefined;
  /** Shown each answer's body as it arrives, before decoding (`TransportRunOptions.wire`). */
  readonly wire?: WireTap | undefined;
}

/**
 * POSTs `request.body` as JSON (`Accept: text/event-stream`) and streams the answer, cold (each
 * subscription is one request; unsubscribing aborts it). Errors are `ClientError`s: `transport`
 * when the request or the body stream fails (before `StreamOpened`: no answer, with code
 * `refused` when no connection was made (`failedRequest`); after it: a cut), `http` for a non-2xx
 * status (with `status`, the start of the body and `retryAfterMs`: `refusedAnswer`), `decode`
 * for an answer that is not `text/event-stream`; bad frames error with `decodeSse`'s `DecodeError`
 * (`truncated` for a body cut inside a frame). Frames named `agui-rx-queue` are decoded as
 * `QueueNoticeItem`s (one that is not a `QueueNotice` errors with `decode`, naming what was wrong).
 * A body silent for longer than `stallLimit` allows (an option, or three of the heartbeat
 * intervals the answer announced) errors with `transport`, code `stalled` (docs/http.md#heartbeats).
 *
 * @example
 * fetchEventStream({ url, headers: async () => ({}), body, fetch, maxFrameBytes: undefined, maxDepth: undefined, warnings: false }).subscribe(console.log);
 */
export function fetchEventStream(request: StreamRequest): Observable<StreamItem> {
  return new Observable<StreamItem>((subscriber) => {
    const controller = new AbortController();
    let inner: Subscription | undefined;
    const fail = (error: ClientError): void => {
      if (!controller.signal.aborted) subscriber.error(error);
    };
    const { url } = request;
    const start = async (): Promise<void> => {
      const extra = await request.headers();
      let response: Response;
      try {
        // Called as a plain function: a browser's fetch called as a method of another object (here
        // `request`) throws "Illegal invocation" before anything reaches the network.
        const send = request.fetch;
        response = await send(url, {
          method: "POST",
          headers: { ...extra, "Content-Type": "application/json", Accept: "text/event-stream" },
          body: request.body,
          signal: controller.signal,
        });
      } catch (cause) {
        fail(failedRequest("POST", url, cause));
        return;
      }
      if (!response.ok) {
        fail(refusedAnswer("POST", url, response, await response.text().catch(() => "")));
        return;
      }
      const type = response.headers.get("content-type") ?? "";
      if (!/^text\/event-stream\b/i.test(type.trim())) {
        await response.body?.cancel().catch(() => undefined);
        fail(
          new ClientError("decode", `POST ${url} answered ${type === "" ? "without a content type" : `with ${type}`}; expected text/event-stream`, {
            status: response.status,
          }),
        );
        return;
      }
      if (controller.signal.aborted) return;
      const mode = response.headers.get(CONNECT_MODE_HEADER);
      const older = response.headers.get(HISTORY_OLDER_HEADER);
      const resumable = response.headers.get(RESUMABLE_HEADER) === "true";
      const queued = response.headers.get(QUEUED_HEADER) ?? undefined;
      subscriber.next(
        new StreamOpened(mode === "resume" || mode === "snapshot" ? mode : undefined, resumable, older === null ? undefined : older === "true", queued),
      );
      const decoding = { maxFrameBytes: request.maxFrameBytes, maxDepth: request.maxDepth, warnings: request.warnings, controls: true as const, named: NAMED };
      const silence = stallLimit(request.stallMs, response.headers.get(HEARTBEAT_HEADER));
      const { wire } = request;
      wire?.opened(url);
      inner = readBody(response, url)
        .pipe(
          tap((chunk) => wire?.chunk(chunk)),
          stallAfter(silence, request.scheduler, `the response of POST ${url}`),
          decodeSse(decoding),
        )
        .subscribe({
          next: (item) => {
            if (!(item instanceof SseNamedFrame)) return subscriber.next(item);
            let notice: QueueNotice;
            try {
              notice = decodeJson(QueueNotice, item.data, `an ${QUEUE_NOTICE_EVENT} frame of POST ${url}`);
            } catch (error) {
              return subscriber.error(error); // a throw here would escape to RxJS's unhandled-error hook
            }
            subscriber.next(new QueueNoticeItem(notice));
          },
          error: (error: unknown) => subscriber.error(error),
          complete: () => subscriber.complete(),
        });
    };
    start().catch((cause: unknown) => fail(new ClientError("transport", `POST ${url} failed: ${describe(cause)}`, { cause })));
    return () => {
      controller.abort();
      inner?.unsubscribe();
    };
  });
}

/** The frame names read as something other than AG-UI events: a queued message's notices (docs/queue.md#on-the-wire). */
const NAMED: readonly string[] = [QUEUE_NOTICE_EVENT];

/** The response body as byte chunks; a read failure is a `transport` error (code `body`); unsubscribing cancels the reader. */
function readBody(response: Response, url: string): Observable<Uint8Array> {
  return responseBytes(response, (cause) => new ClientError("transport", `reading the response of ${url} failed: ${describe(cause)}`, { cause }));
}
