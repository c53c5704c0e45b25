/** The HTTP server span of every request a handler answers (docs/observability.md#traces). */
import type { OtelSpan } from "../../telemetry/OtelApi";
import type { Telemetry } from "../../telemetry/Telemetry";
import { bodyProgressOf, type BodyFollower } from "../http/BodyProgress";
import { routeOf, type HandlerRoute } from "../http/routeOf";
import { RequestTrace } from "./RequestTrace";
import { ATTR, SPAN_KIND, STATUS_ERROR } from "./traceConventions";

/**
 * The route templates (`http.route`), relative to where the handler is mounted, written as the
 * documentation writes them (`{url}` the endpoint's own path): bounded, whatever the ids.
 */
const ROUTE_TEMPLATES: Readonly<Record<HandlerRoute["name"], string>> = {
  run: "{url}",
  connect: "{url}/connect",
  stop: "{url}/stop",
  cancel: "{url}/cancel",
  history: "{url}/history",
  capabilities: "{url}/capabilities",
  list: "{url}/threads",
  events: "{url}/threads/events",
  update: "{url}/threads/{threadId}",
  delete: "{url}/threads/{threadId}",
  select: "{url}/threads/{threadId}/path",
};

/**
 * Answers `request` with `answer` inside a server span (`{method} {route}`, e.g. `POST
 * {url}/connect`; `http.request.method`, `http.route`, `http.response.status_code`,
 * `http.response.body.size`) whose parent is the request's W3C `traceparent`, or the active
 * context when it has none. A streamed answer's span ends with its body (read to the end, or
 * cancelled), so that it covers the whole run it streams. With no tracer the request is answered
 * as it is; a tracer that throws leaves the request untraced, never failed.
 *
 * @example
 * return (request) => traceRequest(context.telemetry, request, (traced) => dispatch(traced, context));
 */
export async function traceRequest(telemetry: Telemetry, request: Request, answer: (request: Request) => Promise<Response> | Response): Promise<Response> {
  const started = startRequestSpan(telemetry, request);
  if (started === undefined) return answer(request);
  const { span, trace } = started;
  let response: Response;
  try {
    response = await telemetry.with(trace.context, () => answer(request));
  } catch (error) {
    quietly(() => {
      span.setAttribute(ATTR.errorType, error instanceof Error ? error.name : "_OTHER");
      span.recordException(error instanceof Error ? error : { name: "_OTHER", message: String(error) });
      span.setStatus({ code: STATUS_ERROR });
      span.end();
    });
    trace.ended();
    throw error;
  }
  quietly(() => {
    span.setAttribute(ATTR.httpResponseStatusCode, response.status);
    if (response.status >= 500) {
      span.setAttribute(ATTR.errorType, String(response.status));
      span.setStatus({ code: STATUS_ERROR });
    }
  });
  if (response.body === null) {
    quietly(() => span.end());
    trace.ended();
    return response;
  }
  let size = 0;
  const follower: BodyFollower = {
    bytes: (count) => {
      size += count;
      trace.sent(count);
    },
    end: () => {
      quietly(() => {
        span.setAttribute(ATTR.httpResponseBodySize, size);
        span.end();
      });
      trace.ended();
    },
  };
  // An event stream tells its own progress; any other body is followed by reading through it.
  const progress = bodyProgressOf(response.body);
  if (progress !== undefined) {
    progress.follow(follower);
    return response;
  }
  return new Response(followedBody(response.body, follower), { status: response.status, statusText: response.statusText, headers: response.headers });
}

/** The request's span, or `undefined` with no tracer (or one that threw). */
function startRequestSpan(telemetry: Telemetry, request: Request): { span: OtelSpan; trace: RequestTrace } | undefined {
  try {
    const tracer = telemetry.tracer();
    if (tracer === undefined) return undefined;
    const match = routeOf(request.method, request.url);
    const route = match.kind === "route" ? ROUTE_TEMPLATES[match.route.name] : undefined;
    const attributes =
      route === undefined ? { [ATTR.httpRequestMethod]: request.method } : { [ATTR.httpRequestMethod]: request.method, [ATTR.httpRoute]: route };
    const parent = telemetry.extract(request.headers);
    const span = tracer.startSpan(route === undefined ? request.method : `${request.method} ${route}`, { kind: SPAN_KIND.server, attributes }, parent);
    return { span, trace: RequestTrace.open(request, telemetry.withSpan(parent, span)) };
  } catch {
    return undefined; // a tracer that throws never breaks a request
  }
}

/**
 * `body` passed through as it is read (no read-ahead, so the reader still paces the producer),
 * telling `follower` each chunk's size and the end, whichever way it comes.
 */
function followedBody(body: ReadableStream<Uint8Array>, follower: BodyFollower): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let over = false;
  const end = (): void => {
    if (over) return;
    over = true;
    follower.end();
  };
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        let read: ReadableStreamReadResult<Uint8Array>;
        try {
          read = await reader.read();
        } catch (error) {
          end();
          controller.error(error);
          return;
        }
        if (read.done) {
          end();
          controller.close();
          return;
        }
        follower.bytes(read.value.byteLength);
        controller.enqueue(read.value);
      },
      cancel(reason) {
        end();
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}

/** Runs a call on a span, swallowing what a broken tracer throws. */
function quietly(call: () => void): void {
  try {
    call();
  } catch {
    // a tracer that throws never breaks a request
  }
}
