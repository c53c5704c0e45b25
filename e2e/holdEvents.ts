/**
 * Holds an SSE response back at a chosen event until the test lets it go: a deterministic way to
 * look at a state in between (a tool card before its result, a pane mid-run) without sleeping.
 */
import { SseFrameSplitter } from "../test/support/sseFrames";

/** One armed hold: `reached` resolves once the response stands at the event; `release()` lets it go on. */
export interface Hold {
  readonly reached: Promise<void>;
  release(): void;
}

/**
 * A hold on the first SSE frame of `eventType`, plus the transform that applies it to a response
 * body. Frames before it pass at once; that frame and everything after wait for `release()`.
 *
 * @example
 * const { hold, transform } = holdAtEvent("TOOL_CALL_RESULT");
 * const held = new Response(response.body.pipeThrough(transform), response);
 */
export function holdAtEvent(eventType: string): { readonly hold: Hold; readonly transform: TransformStream<Uint8Array, Uint8Array> } {
  let reach = (): void => undefined;
  let release = (): void => undefined;
  const reached = new Promise<void>((resolve) => (reach = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  const marker = `"type":"${eventType}"`;
  const frames = new SseFrameSplitter();
  const encoder = new TextEncoder();
  let holding = false;
  const transform = new TransformStream<Uint8Array, Uint8Array>({
    async transform(chunk, controller) {
      for (const frame of frames.push(chunk)) {
        if (!holding && frame.includes(marker)) {
          holding = true;
          reach();
          await released; // backpressure holds the rest of the body behind this frame
        }
        controller.enqueue(encoder.encode(frame));
      }
    },
    flush(controller) {
      if (frames.rest() !== "") controller.enqueue(encoder.encode(frames.rest()));
    },
  });
  return { hold: { reached, release }, transform };
}

/** A handler whose next run response can be held: see {@link holdingHandler}. */
export interface HoldingHandler {
  readonly handler: (request: Request) => Promise<Response>;
  /** Holds the next run's response (`POST /agent`) at its first `eventType` event until released; call it before starting that run. */
  holdNext(eventType: string): Hold;
}

/**
 * Wraps an AG-UI handler so a test can hold the next run's response at an event. Only runs are
 * held (`POST` to `runPath`), never a page joining its thread (`/connect`) or a stop.
 *
 * @example
 * const { handler, holdNext } = holdingHandler(createChatHandler({ model, store: memoryStore() }));
 * const hold = holdNext("TEXT_MESSAGE_CONTENT");
 */
export function holdingHandler(inner: (request: Request) => Promise<Response>, runPath = "/agent"): HoldingHandler {
  let next: TransformStream<Uint8Array, Uint8Array> | undefined;
  return {
    async handler(request) {
      const response = await inner(request);
      const hold = next;
      if (hold === undefined || response.body === null || new URL(request.url).pathname !== runPath) return response;
      next = undefined;
      return new Response(response.body.pipeThrough(hold), { status: response.status, headers: response.headers });
    },
    holdNext(eventType) {
      const { hold, transform } = holdAtEvent(eventType);
      next = transform;
      return hold;
    },
  };
}
