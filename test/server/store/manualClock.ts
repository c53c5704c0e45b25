/** A StoreClock for tests: time moves only when the test says, and due timers fire synchronously (no sleeps). */
import type { StoreClock } from "../../../src/server/store/StoreClock";

interface Timer {
  readonly at: number;
  readonly order: number;
  readonly task: () => void;
  cancelled: boolean;
}

/**
 * A clock at 0 that moves only through `advance(ms)`, which runs every timer due by then in time
 * order (timers set while advancing run too, if due), each at its own time.
 *
 * @example
 * const clock = new ManualClock();
 * const store = memoryStore({ clock, lease: 1000 });
 * clock.advance(1000); // the lease timers fire now
 */
export class ManualClock implements StoreClock {
  private time = 0;
  private order = 0;
  private timers: Timer[] = [];

  now(): number {
    return this.time;
  }

  setTimer(ms: number, task: () => void): () => void {
    const timer: Timer = { at: this.time + Math.max(0, ms), order: this.order++, task, cancelled: false };
    this.timers.push(timer);
    return () => {
      timer.cancelled = true;
    };
  }

  /** How many timers are waiting. */
  get pending(): number {
    return this.timers.filter((timer) => !timer.cancelled).length;
  }

  /**
   * Moves time forward by `ms` without firing anything: the moment after a deadline and before its
   * timer runs (a busy event loop), where other operations may notice the deadline first.
   */
  jump(ms: number): void {
    this.time += ms;
  }

  /** Moves time forward by `ms`, firing due timers in order. */
  advance(ms: number): void {
    const target = this.time + ms;
    for (;;) {
      this.timers = this.timers.filter((timer) => !timer.cancelled);
      let next: Timer | undefined;
      for (const timer of this.timers)
        if (timer.at <= target && (next === undefined || timer.at < next.at || (timer.at === next.at && timer.order < next.order))) next = timer;
      if (next === undefined) break;
      this.time = Math.max(this.time, next.at); // a timer overdue after a jump fires now, never in the past
      next.cancelled = true;
      next.task();
    }
    this.time = target;
  }
}
