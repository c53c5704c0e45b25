/** Where a transport that reads SSE bodies shows the bytes it received, before decoding them (docs/observability.md#inspector). */
import type { Event } from "../../protocol/events";
import type { RunEnd } from "../../thread/Update";

/**
 * A listener on a transport's raw bodies: `opened` when a response's body begins (every request,
 * every reconnection), then `chunk` for each piece of that body exactly as it arrived, before the
 * decoder reads it. A transport calls it synchronously and never waits for it; what it throws is
 * the listener's own business: it must not throw. The Session passes its listener
 * (`Session.listenWire`) in `TransportRunOptions.wire`; a transport that reads no bytes (in
 * process, a replay) ignores it.
 *
 * @example
 * transport.run(input, { wire: { opened: (url) => console.log("body of", url), chunk: (bytes) => console.log(bytes.length) } });
 */
export interface WireTap {
  /** A response's body begins; `url` is what was asked. */
  opened(url: string): void;
  /** A piece of that body, as received (split anywhere, even inside a character). */
  chunk(bytes: Uint8Array | string): void;
}

/**
 * What `Session.listenWire` attaches: a `WireTap` (handed to the transport, for the bytes) that
 * also hears each stream's start (`run` for a send, resume or follow-up run, `connect` for a
 * join), every event as the transport decoded it, and each run's end. Called synchronously; it must
 * not throw.
 *
 * @example
 * const listener: WireListener = { stream: (route) => {}, event: (event) => {}, end: (end) => {}, opened: (url) => {}, chunk: (bytes) => {} };
 */
export interface WireListener extends WireTap {
  stream(route: "run" | "connect"): void;
  event(event: Event): void;
  end(end: RunEnd): void;
}
