/** A Session's wire as an Observable (docs/observability.md#inspector): the one listener `Session.listenWire` takes, shared by every subscriber. */
import { Observable } from "rxjs";
import type { Event } from "../../protocol/events";
import type { RunEnd } from "../../thread/Update";
import type { WireListener } from "../transports/WireTap";

/**
 * One item of `wireOf(session)`, in the order things happened, each with its receive time `at` (ms):
 *
 * - `stream`: the Session subscribed to its transport (`route` `run` for a send, resume or
 *   follow-up run, `connect` for a join); what follows belongs to it until the next `stream`.
 * - `response`: an HTTP response's body begins (the first, or a reconnection's); only from a
 *   transport that reads bytes (`HttpTransport`), for streams begun while someone listened.
 * - `bytes`: a piece of that body as received, before decoding.
 * - `event`: an event as the transport decoded it (every transport; with `HttpTransport` the same
 *   event also came as `bytes` before it).
 * - `end`: the run ended; `error` says why when it failed.
 *
 * @example
 * wireOf(session).subscribe((item) => item.kind === "event" && console.log(item.at, item.event.type));
 */
export type WireItem =
  | { readonly kind: "stream"; readonly at: number; readonly route: "run" | "connect" }
  | { readonly kind: "response"; readonly at: number; readonly url: string }
  | { readonly kind: "bytes"; readonly at: number; readonly bytes: Uint8Array | string }
  | { readonly kind: "event"; readonly at: number; readonly event: Event }
  | { readonly kind: "end"; readonly at: number; readonly error?: string | undefined };

/**
 * What `wireOf` reads: a Session, or anything that takes a `WireListener` the same way.
 *
 * @example
 * const source: WireSource = session;
 */
export interface WireSource {
  listenWire(listener: WireListener | undefined): void;
}

/** The one listener per source, fanning out to every subscriber; attached while anyone subscribes. */
class SessionWire implements WireListener {
  readonly subscribers = new Set<(item: WireItem) => void>();

  constructor(private readonly now: () => number) {}

  stream(route: "run" | "connect"): void {
    this.emit({ kind: "stream", at: this.now(), route });
  }

  event(event: Event): void {
    this.emit({ kind: "event", at: this.now(), event });
  }

  end(end: RunEnd): void {
    this.emit(end.kind === "failed" ? { kind: "end", at: this.now(), error: end.message } : { kind: "end", at: this.now() });
  }

  opened(url: string): void {
    this.emit({ kind: "response", at: this.now(), url });
  }

  chunk(bytes: Uint8Array | string): void {
    this.emit({ kind: "bytes", at: this.now(), bytes });
  }

  private emit(item: WireItem): void {
    for (const subscriber of this.subscribers) subscriber(item);
  }
}

const wires = new WeakMap<WireSource, SessionWire>();

/**
 * Everything `session`'s transport receives from subscription on (see `WireItem`), for as long as
 * the subscription lasts: the session's one `listenWire` slot is taken while anyone subscribes
 * and freed after the last one leaves, so any number of inspectors share it and none opens a
 * second connection. Hot. A stream that began before the first subscriber shows its events (no
 * bytes, no start); `now` is the clock of the items (default `Date.now`), fixed by the first
 * subscriber.
 *
 * @example
 * const subscription = wireOf(session).subscribe((item) => inspector.feed(item));
 */
export function wireOf(session: WireSource, now: () => number = Date.now): Observable<WireItem> {
  return new Observable<WireItem>((subscriber) => {
    let wire = wires.get(session);
    if (wire === undefined) {
      wire = new SessionWire(now);
      wires.set(session, wire);
      session.listenWire(wire);
    }
    const shared = wire;
    const listener = (item: WireItem): void => subscriber.next(item);
    shared.subscribers.add(listener);
    return () => {
      shared.subscribers.delete(listener);
      if (shared.subscribers.size > 0) return;
      wires.delete(session);
      session.listenWire(undefined);
    };
  });
}
