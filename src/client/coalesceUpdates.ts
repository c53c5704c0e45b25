/** Frame coalescing for views: many updates per frame in, one render-worthy batch per frame out. */
import { animationFrameScheduler, asyncScheduler, type OperatorFunction, type SchedulerLike, type Subscription } from "rxjs";
import { operate, SourceObserver } from "../rx/operate";
import type { Update } from "../thread/Update";

/**
 * The frame length used where there is no `requestAnimationFrame` (Node, workers, jsdom without it): about one 60 Hz frame.
 *
 * @example
 * run$.pipe(coalesceUpdates(asyncScheduler, FALLBACK_FRAME_MS * 2)); // two frames per batch
 */
export const FALLBACK_FRAME_MS = 16;

/**
 * Where a batch's slots are decided: updates that only say "this is the value now" share a slot
 * per key and the latest wins; the others (`error`, `interrupt`, `subagent`, `done`, and any kind
 * added later) are events in their own right and always get their own slot.
 */
function slotKey(update: Update<unknown>): string | undefined {
  switch (update.kind) {
    case "message":
      return `message:${update.id}`;
    case "reasoning":
      return `reasoning:${update.id}`;
    case "state":
      return "state";
    case "messages":
      return "messages";
    default:
      return undefined;
  }
}

/**
 * The pure step: one frame's batch under construction. `push` is O(1) amortized; `take` is
 * O(slots). A superseded slot becomes a hole rather than being spliced out, so pushing never scans.
 *
 * @example
 * const batch = new UpdateBatch();
 * batch.push(first); batch.push(second);
 * render(batch.take());
 */
export class UpdateBatch<S> {
  private slots: (Update<S> | undefined)[] = [];
  private readonly slotOf = new Map<string, number>();

  /** Nothing is waiting. */
  get isEmpty(): boolean {
    return this.slots.length === 0;
  }

  /**
   * Adds one update. A keyed update (message, reasoning, state, messages) replaces the previous one
   * with the same key and takes its place at the end, so the batch lists the latest values in the
   * order they were reached. A `messages` update (MESSAGES_SNAPSHOT replaced the list) also
   * supersedes the message and reasoning updates before it: the view re-reads the whole list anyway.
   */
  push(update: Update<S>): void {
    if (update.kind === "messages") {
      for (const [key, index] of this.slotOf) {
        if (key.startsWith("message:") || key.startsWith("reasoning:")) {
          this.slots[index] = undefined;
          this.slotOf.delete(key);
        }
      }
    }
    const key = slotKey(update);
    if (key !== undefined) {
      const previous = this.slotOf.get(key);
      if (previous !== undefined) this.slots[previous] = undefined;
      this.slotOf.set(key, this.slots.length);
    }
    this.slots.push(update);
  }

  /** Returns the batch in order and starts a new one. */
  take(): readonly Update<S>[] {
    const batch = this.slots.filter((slot): slot is Update<S> => slot !== undefined);
    this.slots = [];
    this.slotOf.clear();
    return batch;
  }
}

/** The default frame: the display's when there is one, else a 16 ms tick. */
function defaultFrame(): { scheduler: SchedulerLike; delay: number } {
  return typeof requestAnimationFrame === "function"
    ? { scheduler: animationFrameScheduler, delay: 0 }
    : { scheduler: asyncScheduler, delay: FALLBACK_FRAME_MS };
}

/**
 * Merges the updates that arrive within one frame into one batch, emitted at the end of the frame:
 * the latest `message` per message id, the latest `reasoning` per id, the latest `state`, the
 * latest `messages`; every `error`, `interrupt`, `subagent` and `done` is kept, and those keep
 * their order relative to one another. Forty text deltas in one frame become one batch holding one
 * `message` update whose `message` is the whole text so far.
 *
 * A batch is for views that render from the whole value (`update.message`, `update.state`, or the
 * session's reads); a view that appends `change.delta`s must not coalesce, since only the last
 * delta survives.
 *
 * The frame (decision, documented here): with a `scheduler`, a batch closes when an action
 * scheduled on it with `frameMs` delay (0 by default) runs, so in a `TestScheduler` a batch is
 * one virtual frame; without one, `animationFrameScheduler` where `requestAnimationFrame` exists
 * (browsers), and elsewhere `asyncScheduler` with {@link FALLBACK_FRAME_MS} ms, about one frame,
 * rather than `asapScheduler`, whose microtask tick would rarely catch two network chunks.
 * Completion and error flush what is waiting first; unsubscribing drops it and cancels the frame.
 *
 * @example
 * session.send("add buy milk").pipe(coalesceUpdates()).subscribe((batch) => render(session, batch));
 */
export function coalesceUpdates<S>(scheduler?: SchedulerLike, frameMs?: number): OperatorFunction<Update<S>, readonly Update<S>[]> {
  return operate<Update<S>, readonly Update<S>[]>((source, subscriber) => {
    const frame = scheduler === undefined ? defaultFrame() : { scheduler, delay: frameMs ?? 0 };
    const batch = new UpdateBatch<S>();
    let pending: Subscription | undefined;
    const flush = (): void => {
      pending?.unsubscribe();
      pending = undefined;
      if (!batch.isEmpty) subscriber.next(batch.take());
    };
    // The pending frame is cancelled first, then the source (the SourceObserver, chained below) let go.
    subscriber.add(() => pending?.unsubscribe());
    source.subscribe(
      new SourceObserver(subscriber, {
        next: (update) => {
          batch.push(update);
          pending ??= frame.scheduler.schedule(() => {
            pending = undefined;
            flush();
          }, frame.delay);
        },
        error: (error: unknown) => {
          flush();
          subscriber.error(error);
        },
        complete: () => {
          flush();
          subscriber.complete();
        },
      }),
    );
  });
}
