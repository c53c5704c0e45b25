/** The Session's tap on what its transport received (docs/observability.md#inspector): the raw SSE bytes where there are any, the decoded events always. */
import { Observable } from "rxjs";
import type { Event } from "../protocol/events";
import type { WireTap } from "./transports/WireTap";
import { describe } from "./transports/requestFailure";

/**
 * One item of `Session.wire$`, in the order things happened, each with its receive time `at`
 * (the Session's clock, ms):
 *
 * - `stream`: the Session subscribed to its transport (`route` `run` for a send, resume or
 *   follow-up run, `connect` for a join); what follows belongs to it until the next `stream`.
 *   `late` when the listener subscribed while this stream was already flowing (what came
 *   before is not repeated).
 * - `response`: an HTTP response's body begins (the first, or a reconnection's); only from a
 *   transport that reads bytes (`HttpTransport`).
 * - `bytes`: a piece of that body as received, before decoding.
 * - `event`: an event as the transport decoded it (every transport; with `HttpTransport` the same
 *   event also came as `bytes` before it).
 * - `end`: the stream completed, or failed with `error` (its message).
 *
 * @example
 * session.wire$.subscribe((item) => item.kind === "event" && console.log(item.at, item.event.type));
 */
export type WireItem =
  | { readonly kind: "stream"; readonly at: number; readonly route: "run" | "connect"; readonly threadId: string; readonly late: boolean }
  | { readonly kind: "response"; readonly at: number; readonly url: string }
  | { readonly kind: "bytes"; readonly at: number; readonly bytes: Uint8Array | string }
  | { readonly kind: "event"; readonly at: number; readonly event: Event }
  | { readonly kind: "end"; readonly at: number; readonly error?: string | undefined };

/**
 * The Session's side of the tap: listeners, and the stream now flowing. With no listener, each
 * event costs one boolean read (`on`) and nothing is kept but the last stream's start.
 * Internal to the client (the Session exposes `wire$`).
 *
 * @example
 * const wire = new SessionWire(Date.now);
 * wire.items$.subscribe(console.log);
 */
export class SessionWire implements WireTap {
  /** Whether anyone listens: read on the hot path instead of the set's size. */
  on = false;
  private readonly listeners = new Set<(item: WireItem) => void>();
  private current: { readonly route: "run" | "connect"; readonly threadId: string } | undefined;

  constructor(private readonly now: () => number) {}

  /** The items, from subscription on; a stream already flowing is announced first, `late`. */
  readonly items$: Observable<WireItem> = new Observable<WireItem>((subscriber) => {
    const listener = (item: WireItem): void => subscriber.next(item);
    if (this.current !== undefined) listener({ kind: "stream", at: this.now(), ...this.current, late: true });
    this.listeners.add(listener);
    this.on = true;
    return () => {
      this.listeners.delete(listener);
      this.on = this.listeners.size > 0;
    };
  });

  /**
   * `source` (a stream's transport items) announced as a stream on subscription and as ended at
   * its end. Unwatched at subscription, it is `source` itself plus a teardown (nothing per item);
   * watched, a transport failure's message is told too.
   */
  watch<T>(source: Observable<T>, route: "run" | "connect", threadId: string): Observable<T> {
    return new Observable<T>((subscriber) => {
      const stream = { route, threadId };
      this.current = stream;
      if (this.on) this.emit({ kind: "stream", at: this.now(), route, threadId, late: false });
      const end = (error?: unknown): void => {
        if (this.current !== stream) return;
        this.current = undefined;
        if (!this.on) return;
        this.emit(
          error === undefined
            ? { kind: "end", at: this.now() }
            : { kind: "end", at: this.now(), error: describe(error) },
        );
      };
      const inner = this.on
        ? source.subscribe({
            next: (item) => subscriber.next(item),
            error: (error: unknown) => {
              end(error);
              subscriber.error(error);
            },
            complete: () => {
              end();
              subscriber.complete();
            },
          })
        : source.subscribe(subscriber);
      return () => {
        inner.unsubscribe();
        end();
      };
    });
  }

  /** An event the transport decoded; callers check `on` first. */
  event(event: Event): void {
    this.emit({ kind: "event", at: this.now(), event });
  }

  opened(url: string): void {
    if (this.on) this.emit({ kind: "response", at: this.now(), url });
  }

  chunk(bytes: Uint8Array | string): void {
    if (this.on) this.emit({ kind: "bytes", at: this.now(), bytes });
  }

  private emit(item: WireItem): void {
    for (const listener of this.listeners) listener(item);
  }
}
