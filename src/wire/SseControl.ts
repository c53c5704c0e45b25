/**
 * The stream-control fields of an SSE body (HTML "event stream" interpretation): `id:` and
 * `retry:`, reported in-band by `decodeSseFrames({ controls: true })` and `decodeSse({ controls:
 * true })`, which a reconnecting client needs (docs/durability.md#stores-and-routes: Last-Event-ID, the reconnection time).
 */

/**
 * The stream's last event ID changed: a block with an `id:` line was dispatched (by its blank
 * line), whether or not it had data. The SSE spec keeps the last event ID across blocks, so this is
 * the value to send as `Last-Event-ID` until the next one; `""` (an empty `id:`) means none. When
 * the block had data, this comes right before its frame or event.
 *
 * @example
 * if (item instanceof SseIdField) lastEventId = item.id === "" ? undefined : item.id;
 */
export class SseIdField {
  readonly kind = "id" as const;
  constructor(readonly id: string) {}
}

/**
 * A `retry:` line: the server's reconnection time in milliseconds (only ASCII digits count; any
 * other value is ignored, as the spec says). Reported where the line stands.
 *
 * @example
 * if (item instanceof SseRetryField) reconnectAfter = item.ms;
 */
export class SseRetryField {
  readonly kind = "retry" as const;
  constructor(readonly ms: number) {}
}

/**
 * One stream-control field, in-band among frames or events.
 *
 * @example
 * const control: SseControl = new SseIdField("c-17");
 */
export type SseControl = SseIdField | SseRetryField;

/**
 * Whether a stream element is an in-band `id:`/`retry:` report rather than a frame or an event.
 *
 * @example
 * body$.pipe(decodeSse({ controls: true }), filter((item) => !isSseControl(item)));
 */
export function isSseControl(value: unknown): value is SseControl {
  return value instanceof SseIdField || value instanceof SseRetryField;
}
