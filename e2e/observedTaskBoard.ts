/** The real task-board agent behind the real handler, with the agent's AbortSignal watched from the test. */
import { createTaskBoardAgent } from "../examples/task-board/agent";
import type { Board } from "../examples/task-board/board";
import type { Agent } from "../src/server/Agent";
import { createHandler, type FetchHandler } from "../src/server/http/createHandler";

/** What the e2e test sees of the server. */
export interface ObservedAgent {
  /** The AG-UI handler, for `POST /agent`. */
  readonly handler: FetchHandler;
  /** Resolves when the next run starts on the server. */
  started(): Promise<void>;
  /** Resolves `true` when the next run's `ctx.signal` aborts; call it before starting that run. */
  nextAbort(): Promise<boolean>;
}

/**
 * The task-board agent (a typing delay between words, so text visibly streams and a run lasts
 * long enough to be stopped), wrapped so each run's `signal` is observed: nothing else changes.
 */
export function observedTaskBoard(typingDelayMs = 40): ObservedAgent {
  const agent = createTaskBoardAgent({ typingDelayMs });
  let onStart: (() => void) | undefined;
  let onAbort: ((aborted: boolean) => void) | undefined;
  const observed: Agent<Board> = {
    state: agent.state,
    run(ctx) {
      const resolveStart = onStart;
      onStart = undefined;
      resolveStart?.();
      const resolveAbort = onAbort;
      if (resolveAbort) {
        onAbort = undefined;
        if (ctx.signal.aborted) resolveAbort(true);
        else ctx.signal.addEventListener("abort", () => resolveAbort(true), { once: true });
      }
      return agent.run(ctx);
    },
  };
  return {
    handler: createHandler(observed),
    started: () => new Promise<void>((resolve) => (onStart = resolve)),
    nextAbort: () => new Promise<boolean>((resolve) => (onAbort = resolve)),
  };
}
