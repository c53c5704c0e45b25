/**
 * Reading SSE answers over real HTTP for the server suite: as little client work as possible
 * (frames are counted at their blank-line ends by test/support/sseFrames.ts, never parsed), so
 * that what is measured is the server.
 */

import { FrameCounter } from "../../test/support/sseFrames";

/** POSTs `body` as JSON to `url` asking for SSE. */
export function postSse(url: string, body: unknown, headers: Record<string, string> = {}, signal?: AbortSignal): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "text/event-stream", ...headers },
    body: JSON.stringify(body),
    signal,
  });
}

/**
 * Reads a whole SSE answer: how many frames and bytes it had. Throws on a non-2xx answer, so a
 * refused run cannot pass for a fast one.
 *
 * @example
 * const { frames } = await readAll(await postSse(url, input));
 */
export async function readAll(response: Response): Promise<{ readonly frames: number; readonly bytes: number }> {
  if (!response.ok || response.body === null) throw new Error(`expected a 2xx SSE answer, got ${response.status}: ${await response.text()}`);
  const counter = new FrameCounter();
  let bytes = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.length;
    counter.add(value);
  }
  return { frames: counter.seen, bytes };
}

/**
 * Reads an SSE answer until `count` frames arrived, noting when the first and the last of them
 * completed (`performance.now()`), then cancels the rest.
 *
 * @example
 * const { first, last } = await timeFrames(await postSse(`${url}/connect`, { threadId }), 4);
 */
export async function timeFrames(response: Response, count: number): Promise<{ readonly first: number; readonly last: number; readonly bytes: number }> {
  if (!response.ok || response.body === null) throw new Error(`expected a 2xx SSE answer, got ${response.status}: ${await response.text()}`);
  const counter = new FrameCounter();
  const reader = response.body.getReader();
  let first = 0;
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) throw new Error(`expected ${count} frames, but the answer ended after ${counter.seen}`);
    bytes += value.length;
    counter.add(value);
    const now = performance.now();
    if (first === 0 && counter.seen >= 1) first = now;
    if (counter.seen >= count) {
      await reader.cancel();
      return { first, last: now, bytes };
    }
  }
}

/**
 * The `q` quantile of `values` (sorted in place).
 *
 * @example
 * quantile([3, 1, 2], 0.5) // 2
 */
export function quantile(values: number[], q: number): number {
  values.sort((a, b) => a - b);
  return values[Math.min(values.length - 1, Math.floor(q * values.length))];
}
