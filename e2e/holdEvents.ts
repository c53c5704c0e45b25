/**
 * Holds an SSE response back at a chosen event until the test lets it go: a deterministic way to
 * look at a state in between (a tool card before its result, a pane mid-run) without sleeping.
 */

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
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let pending = "";
  let holding = false;
  const transform = new TransformStream<Uint8Array, Uint8Array>({
    async transform(chunk, controller) {
      pending += decoder.decode(chunk, { stream: true });
      let end = pending.indexOf("\n\n");
      while (end >= 0) {
        const frame = pending.slice(0, end + 2);
        pending = pending.slice(end + 2);
        if (!holding && frame.includes(marker)) {
          holding = true;
          reach();
          await released; // backpressure holds the rest of the body behind this frame
        }
        controller.enqueue(encoder.encode(frame));
        end = pending.indexOf("\n\n");
      }
    },
    flush(controller) {
      if (pending !== "") controller.enqueue(encoder.encode(pending));
    },
  });
  return { hold: { reached, release }, transform };
}
