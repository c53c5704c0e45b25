/**
 * Planned runs and a lean SSE reader for the createHandler benches (bench/suites/serverRedis.ts):
 * a run function that emits each planned run's text deltas in chunks (as fast as `ready` allows,
 * or paced), noting when each event left it; and a client that reads an answer over loopback
 * HTTP, counting frames as they complete (and their `id:`), noting when each arrived. The reader
 * decodes nothing but frame boundaries, so that the client costs little beside the server.
 */
import { Observable } from "rxjs";
import { ev } from "../../src/protocol/build";
import type { Event } from "../../src/protocol/events";
import type { RunFunction } from "../../src/server/http/createHandler";
import { SseFrameSplitter } from "../../test/support/sseFrames";

/** One planned run: its events, how they are emitted, and when each one left and arrived. */
export interface Plan {
  readonly threadId: string;
  readonly runId: string;
  readonly events: readonly Event[];
  readonly chunk: number;
  readonly pauseMs: number;
  /** `performance.now()` when event `i` left the run function. */
  readonly emitted: number[];
  /** `performance.now()` when frame `i` arrived whole at the reader (filled by `readRun`). */
  readonly delivered: number[];
  emittedCount(): number;
}

/** A plan and how far its run function got. */
class PlannedRun implements Plan {
  readonly emitted: number[];
  readonly delivered: number[];
  emittedSoFar = 0;

  constructor(
    readonly threadId: string,
    readonly runId: string,
    readonly events: readonly Event[],
    readonly chunk: number,
    readonly pauseMs: number,
  ) {
    this.emitted = new Array<number>(events.length);
    this.delivered = new Array<number>(events.length);
  }

  emittedCount(): number {
    return this.emittedSoFar;
  }
}

/**
 * The runs a bench server serves, by run id, and the run function that serves them.
 *
 * @example
 * const plans = new RunPlans();
 * const handler = createHandler(plans.runFunction, { store });
 * const plan = plans.add("t1", "r1", 10_000, 100, 0);
 */
export class RunPlans {
  private readonly plans = new Map<string, PlannedRun>();
  private readonly waiters = new Map<Plan, { count: number; resolve: () => void }[]>();

  /** Plans a run of `count` events (RUN_STARTED, one text message of deltas, RUN_FINISHED). */
  add(threadId: string, runId: string, count: number, chunk: number, pauseMs: number): Plan {
    const events: Event[] = [ev.runStarted(threadId, runId), ev.textMessageStart("m1")];
    for (let i = events.length; i < count - 2; i++) events.push(ev.textMessageContent("m1", ` token${i % 97}`));
    events.push(ev.textMessageEnd("m1"), ev.runFinished(threadId, runId));
    const plan = new PlannedRun(threadId, runId, events, chunk, pauseMs);
    this.plans.set(`${threadId}\u0000${runId}`, plan);
    return plan;
  }

  remove(plan: Plan): void {
    this.plans.delete(`${plan.threadId}\u0000${plan.runId}`);
    this.waiters.delete(plan);
  }

  /** Resolves once `plan` has emitted at least `count` events. */
  whenEmitted(plan: Plan, count: number): Promise<void> {
    if (plan.emittedCount() >= count) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const list = this.waiters.get(plan) ?? [];
      list.push({ count, resolve });
      this.waiters.set(plan, list);
    });
  }

  /** Serves the planned run of the input's thread and run id. */
  readonly runFunction: RunFunction = (input, { ready }) =>
    new Observable<Event>((subscriber) => {
      const plan = this.plans.get(`${input.threadId}\u0000${input.runId}`);
      if (plan === undefined) {
        subscriber.error(new Error(`expected a planned run ${input.runId} of thread ${input.threadId}, but none was planned`));
        return undefined;
      }
      let next = 0;
      let stopped = false;
      const step = async (): Promise<void> => {
        while (!stopped && next < plan.events.length) {
          const end = Math.min(next + plan.chunk, plan.events.length);
          for (; next < end && !stopped; next++) {
            plan.emitted[next] = performance.now();
            subscriber.next(plan.events[next]);
          }
          plan.emittedSoFar = next;
          this.wake(plan);
          if (plan.pauseMs > 0) await new Promise<void>((resolve) => setTimeout(resolve, plan.pauseMs));
          else await ready();
        }
        if (!stopped) subscriber.complete();
      };
      step().catch((error: unknown) => subscriber.error(error));
      return () => {
        stopped = true;
      };
    });

  private wake(plan: Plan): void {
    const list = this.waiters.get(plan);
    if (list === undefined) return;
    const count = plan.emittedCount();
    const due = list.filter((waiter) => waiter.count <= count);
    if (due.length === 0) return;
    this.waiters.set(
      plan,
      list.filter((waiter) => waiter.count > count),
    );
    for (const waiter of due) waiter.resolve();
  }
}

/** An answer being read. */
export interface OpenedRun {
  /** Whole frames received so far. */
  readonly frames: number;
  /** The last `id:` of a whole frame (`undefined` before the first). */
  readonly lastId: string | undefined;
  /** When the first whole frame arrived (`NaN` before). */
  readonly firstFrameAt: number;
  readonly startedAt: number;
  readonly lastAt: number;
  /** Resolves once `count` frames have arrived, or the answer ended. */
  untilFrames(count: number): Promise<void>;
  /** Resolves once the answer ended. */
  rest(): Promise<void>;
  /** Cuts the connection (aborts the request). */
  cut(): Promise<void>;
}

/**
 * POSTs `body` to `url` (with `Last-Event-ID` when given) and reads the SSE answer as it arrives;
 * `delivered[k]` gets the arrival time of frame `k`.
 *
 * @example
 * const run = await openRun(url, input, undefined);
 * await run.untilFrames(10);
 */
export async function openRun(url: string, body: unknown, lastEventId: string | undefined, delivered?: number[]): Promise<OpenedRun> {
  const controller = new AbortController();
  const startedAt = performance.now();
  const headers: Record<string, string> = { "Content-Type": "application/json", Accept: "text/event-stream" };
  if (lastEventId !== undefined) headers["Last-Event-ID"] = lastEventId;
  const response = await fetch(url, { method: "POST", headers, body: JSON.stringify(body), signal: controller.signal });
  if (response.status !== 200 || response.body === null)
    throw new Error(`expected 200 with a body from ${url}, but got ${response.status}: ${await response.text()}`);
  const reader = response.body.getReader();
  const frames = new SseFrameSplitter();
  let done = false;
  const state = { frames: 0, lastId: undefined as string | undefined, firstFrameAt: NaN, lastAt: startedAt }; // a mutable record read through the getters below
  const more = async (): Promise<void> => {
    const next = await reader.read().catch(() => ({ done: true as const, value: undefined }));
    if (next.done) {
      done = true;
      return;
    }
    const now = performance.now();
    for (const frame of frames.push(next.value)) {
      if (frame.startsWith("id: ")) state.lastId = frame.slice(4, frame.indexOf("\n"));
      if (delivered !== undefined) delivered[state.frames] = now;
      if (state.frames === 0) state.firstFrameAt = now;
      state.frames++;
      state.lastAt = now;
    }
  };
  return {
    get frames() {
      return state.frames;
    },
    get lastId() {
      return state.lastId;
    },
    get firstFrameAt() {
      return state.firstFrameAt;
    },
    get lastAt() {
      return state.lastAt;
    },
    startedAt,
    async untilFrames(count) {
      while (state.frames < count && !done) await more();
    },
    async rest() {
      while (!done) await more();
    },
    async cut() {
      controller.abort();
      await reader.cancel().catch(() => undefined);
    },
  };
}

/**
 * Reads a run's whole answer: how many frames, and when it started and ended.
 *
 * @example
 * const { frames } = await readRun(url, input, plan.delivered);
 */
export async function readRun(url: string, input: unknown, delivered?: number[]): Promise<{ frames: number; startedAt: number; lastAt: number }> {
  const run = await openRun(url, input, undefined, delivered);
  await run.rest();
  return { frames: run.frames, startedAt: run.startedAt, lastAt: run.lastAt };
}

/**
 * The `q` quantile of ascending `sorted`.
 *
 * @example
 * percentile([1, 2, 3, 4], 0.5); // 3
 */
export function percentile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}
