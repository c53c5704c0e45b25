/**
 * One HTTP request's span as the routes see it (docs/observability.md#traces): the context a run
 * started by the request is parented on, and the response body's progress, which the run's span
 * follows to count the bytes it sent. Found by the request (`RequestTrace.of`), so that no route's
 * signature changes for tracing; absent when the request is not traced.
 */
import type { OtelContext } from "../../telemetry/OtelApi";

/** What follows the response body: its bytes as they are read, and its end. */
interface BodyFollower {
  readonly bytes: (count: number) => void;
  readonly end: () => void;
}

const traces = new WeakMap<Request, RequestTrace>();

/**
 * The trace of one request. Made by `traceRequest`; its body calls `sent` and `ended`.
 *
 * @example
 * const parent = RequestTrace.of(request)?.context ?? ROOT_CONTEXT;
 * RequestTrace.of(request)?.follow((n) => spans.addBytes(n), spans.hold());
 */
export class RequestTrace {
  private readonly followers: BodyFollower[] = [];
  private over = false;

  private constructor(
    /** The request span's context. */
    readonly context: OtelContext,
  ) {}

  /** Traces `request` in `context` (the request span's). */
  static open(request: Request, context: OtelContext): RequestTrace {
    const made = new RequestTrace(context);
    traces.set(request, made);
    return made;
  }

  /** The trace of `request`, or `undefined` when it is not traced. */
  static of(request: Request): RequestTrace | undefined {
    return traces.get(request);
  }

  /** Hears of the response body's bytes and of its end (at once, when it already ended). */
  follow(bytes: (count: number) => void, end: () => void): void {
    if (this.over) end();
    else this.followers.push({ bytes, end });
  }

  /** The body handed `count` bytes to the client. */
  sent(count: number): void {
    for (const follower of this.followers) follower.bytes(count);
  }

  /** The body ended (read to its end, cancelled, or failed), or there was none. */
  ended(): void {
    if (this.over) return;
    this.over = true;
    for (const follower of this.followers.splice(0)) follower.end();
  }
}
