/**
 * Reading SSE answers over real HTTP for the server suite: as little client work as possible
 * (frames are counted at their blank-line ends, never parsed), so that what is measured is the
 * server. Also a `fetch` that cuts a run's answer after a number of frames, as a dropped
 * connection would, for the reconnect latency.
 */

const LF = 10;

/**
 * Counts SSE frame ends (`\n\n`) across chunks; `seen` is the count so far.
 *
 * @example
 * const frames = new FrameCounter(); frames.add(chunk); frames.seen;
 */
export class FrameCounter {
  seen = 0;
  private lastWasLf = false;

  /**
   * Counts the frame ends in `chunk`, stopping once `seen` reaches `limit`; returns how many bytes
   * of it were counted (all of them, unless it stopped right after the `limit`-th frame end).
   */
  add(chunk: Uint8Array, limit = Infinity): number {
    let previous = this.lastWasLf;
    for (let i = 0; i < chunk.length; i++) {
      const lf = chunk[i] === LF;
      if (lf && previous) {
        this.seen++;
        previous = false; // "\n\n\n" is one end, not two
        if (this.seen >= limit) {
          this.lastWasLf = false;
          return i + 1;
        }
        continue;
      }
      previous = lf;
    }
    this.lastWasLf = previous;
    return chunk.length;
  }
}

/** POSTs `body` as JSON to `url` asking for SSE. */
export function postSse(url: string, body: unknown, headers: Record<string, string> = {}, signal?: AbortSignal): Promise<Response> {
  return fetch(url, { method: "POST", headers: { "Content-Type": "application/json", Accept: "text/event-stream", ...headers }, body: JSON.stringify(body), signal });
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
 * A `fetch` that cuts the answer of the next run request (a URL not ending in `/connect`) once
 * `afterFrames` frames have passed: they are delivered (and nothing after them), then the body fails
 * as a reset connection does, and the real connection is closed. `cutAt` is when it failed
 * (`performance.now()`). Other requests pass through untouched.
 *
 * @example
 * const cutting = cuttingFetch(200);
 * new HttpTransport(url, { fetch: cutting.fetch, reconnect: { delay: 0 } });
 */
export function cuttingFetch(afterFrames: number): { readonly fetch: typeof fetch; cutAt(): number } {
  let cutAt = 0;
  const cutting: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    if (url.endsWith("/connect") || response.body === null) return response;
    const source = response.body.getReader();
    const counter = new FrameCounter();
    let failNext = false;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (failNext) {
          await source.cancel(); // closes the real connection: the server sees its client go away
          cutAt = performance.now();
          controller.error(new TypeError("terminated (the benchmark cut the connection)"));
          return;
        }
        const { done, value } = await source.read();
        if (done) return controller.close();
        const kept = counter.add(value, afterFrames);
        if (counter.seen >= afterFrames) failNext = true;
        controller.enqueue(value.subarray(0, kept)); // nothing past the cut reaches the client
      },
      cancel: (reason) => source.cancel(reason),
    });
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
  return { fetch: cutting, cutAt: () => cutAt };
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
