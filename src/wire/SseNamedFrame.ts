/** A named SSE frame a decoder hands on undecoded (docs/wire.md#6): one whose `event:` its caller reads itself (docs/queue.md#on-the-wire). */

/**
 * A frame whose `event:` name the caller of `decodeSse({ named })` asked for: its name and data as
 * they came, not decoded as an AG-UI event (a queued message's `agui-rx-queue` notices beside a
 * run's unnamed frames, docs/queue.md#on-the-wire).
 *
 * @example
 * if (item instanceof SseNamedFrame && item.event === "agui-rx-queue") JSON.parse(item.data);
 */
export class SseNamedFrame {
  readonly kind = "named" as const;
  constructor(
    readonly event: string,
    readonly data: string,
  ) {}
}

/**
 * Whether a decoded stream's item is an `SseNamedFrame`.
 *
 * @example
 * body$.pipe(decodeSse({ named: ["agui-rx-queue"], controls: true }), filter(isSseNamedFrame));
 */
export function isSseNamedFrame(value: unknown): value is SseNamedFrame {
  return value instanceof SseNamedFrame;
}
