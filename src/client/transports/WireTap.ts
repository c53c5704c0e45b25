/** Where a transport that reads SSE bodies shows the bytes it received, before decoding them (docs/observability.md#inspector). */

/**
 * A listener on a transport's raw bodies: `opened` when a response's body begins (every request,
 * every reconnection), then `chunk` for each piece of that body exactly as it arrived, before the
 * decoder reads it. A transport calls it synchronously and never waits for it; what it throws is
 * the listener's own business (the Session's tap catches nothing because it throws nothing). The
 * Session passes its tap in `TransportRunOptions.wire`; a transport that reads no bytes (in
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
