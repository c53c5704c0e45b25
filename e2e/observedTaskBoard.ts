/** The real task-board agent behind the real handler (with a store, threads tied to bearer tokens), with the agent's AbortSignal and the response stream watched from the test. */
import { bearerIdentity, bearerThreadAccess } from "../examples/task-board/access";
import { createTaskBoardAgent } from "../examples/task-board/agent";
import type { Board } from "../examples/task-board/board";
import { steppedPace, type SteppedPace } from "../examples/task-board/steppedPace";
import type { Agent } from "../src/server/Agent";
import { createHandler, type FetchHandler } from "../src/server/http/createHandler";
import { memoryStore, type MemoryStore } from "../src/server/store/memory/memoryStore";
import { holdingHandler, type Hold } from "./holdEvents";

/** What the e2e test sees of the server. */
export interface ObservedAgent {
  /** The AG-UI handler, for `POST /agent` and the paths below it. */
  readonly handler: FetchHandler;
  /** Where the handler keeps the threads: what a reloaded page joins, where a stopped run ends up. */
  readonly store: MemoryStore;
  /** How many runs the agent has started so far. */
  readonly runs: number;
  /** Resolves when the next run starts on the server. */
  started(): Promise<void>;
  /** Resolves `true` when the next run's `ctx.signal` aborts; call it before starting that run. */
  nextAbort(): Promise<boolean>;
  /** Holds the next response at its first `eventType` event until released; call it before starting that run. */
  holdNext(eventType: string): Hold;
  /** The pace of `count to <n>`: each number waits until the test releases the steps (held at first). */
  readonly steps: SteppedPace;
}

/**
 * The task-board agent (a typing delay between words, so text visibly streams, and a longer one
 * for the researcher, so a research run lasts long enough to reload the page or stop it), wrapped
 * so each run's `signal` is observed and the next response can be held at an event: nothing else
 * changes. Served as the web pages' server serves it: a memory store, and each thread belonging
 * to the tab's bearer token. `count to <n>` counts at the pace of {@link ObservedAgent.steps}, so
 * a run stays live while the test types into the page (docs/queue.md#policies).
 */
export function observedTaskBoard(typingDelayMs = 40, researchDelayMs = 150): ObservedAgent {
  const steps = steppedPace();
  const agent = createTaskBoardAgent({ typingDelayMs, researchDelayMs, countPace: steps.pace });
  const store = memoryStore();
  let runs = 0;
  let onStart: (() => void) | undefined;
  let onAbort: ((aborted: boolean) => void) | undefined;
  const observed: Agent<Board> = {
    state: agent.state,
    run(ctx) {
      runs++;
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
  // Holds are for runs (POST /agent), not for a page joining its thread (/agent/connect).
  const holding = holdingHandler(createHandler(observed, { store, identify: bearerIdentity, authorize: bearerThreadAccess }));
  return {
    handler: holding.handler,
    store,
    steps,
    get runs() {
      return runs;
    },
    started: () => new Promise<void>((resolve) => (onStart = resolve)),
    nextAbort: () => new Promise<boolean>((resolve) => (onAbort = resolve)),
    holdNext: (eventType) => holding.holdNext(eventType),
  };
}
