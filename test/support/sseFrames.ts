/**
 * Reading SSE answers frame by frame in tests, e2e pages and benches, written once: counting frame
 * ends in raw bytes (`FrameCounter`), splitting decoded text into whole frames (`SseFrameSplitter`),
 * and a `fetch` that cuts an answer after a number of frames, as a dropped connection would
 * (`cuttingFetch`). A frame ends at a blank line (`\n\n`, docs/wire.md#6.3).
 */

const LF = 10;

/**
 * Counts SSE frame ends (`\n\n`) across byte chunks without decoding them; `seen` is the count so far.
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

/**
 * Decodes byte chunks and hands out whole frames (each with its closing `\n\n`), keeping the
 * unfinished rest for the next chunk.
 *
 * @example
 * const splitter = new SseFrameSplitter();
 * for (const frame of splitter.push(chunk)) if (frame.startsWith("id: ")) lastId = frame.slice(4, frame.indexOf("\n"));
 */
export class SseFrameSplitter {
  private readonly decoder = new TextDecoder();
  private pending = "";

  /** The frames `chunk` completes, in order. */
  push(chunk: Uint8Array): string[] {
    this.pending += this.decoder.decode(chunk, { stream: true });
    const frames: string[] = [];
    let end = this.pending.indexOf("\n\n");
    while (end >= 0) {
      frames.push(this.pending.slice(0, end + 2));
      this.pending = this.pending.slice(end + 2);
      end = this.pending.indexOf("\n\n");
    }
    return frames;
  }

  /** What came after the last whole frame (an unfinished frame, or ""). */
  rest(): string {
    return this.pending;
  }
}

/** Which answers `cuttingFetch` cuts. */
export interface CuttingFetchOptions {
  /** Cut only answers to URLs whose path ends with this (default: every answer but a `/connect`'s). */
  readonly path?: string;
  /** Cut at most this many answers; later ones pass through (default: every one). */
  readonly times?: number;
}

/**
 * A `fetch` that cuts answers once `afterFrames` frames have passed: they are delivered (and
 * nothing after them), then the body fails as a reset connection does, and the real connection is
 * closed. `cutAt` is when the last cut failed (`performance.now()`). Other requests pass through
 * untouched; the HTTP underneath is real.
 *
 * @example
 * const cutting = cuttingFetch(200);
 * new HttpTransport(url, { fetch: cutting.fetch, reconnect: { delay: 0 } });
 * cuttingFetch(2, { path: "/agent", times: 1 }).fetch; // only the first run answer, after two frames
 */
export function cuttingFetch(afterFrames: number, options: CuttingFetchOptions = {}): { readonly fetch: typeof fetch; cutAt(): number } {
  let cutAt = 0;
  let left = options.times ?? Infinity;
  const cuts = (url: URL): boolean => (options.path === undefined ? !url.pathname.endsWith("/connect") : url.pathname.endsWith(options.path));
  const cutting: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    const url = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url);
    if (!cuts(url) || left <= 0 || response.body === null) return response;
    left--;
    const source = response.body.getReader();
    const counter = new FrameCounter();
    let failNext = false;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (failNext) {
          await source.cancel(); // closes the real connection: the server sees its client go away
          cutAt = performance.now();
          controller.error(new TypeError(`terminated (cut after ${afterFrames} frames)`));
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
