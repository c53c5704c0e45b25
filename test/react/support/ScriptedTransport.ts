/** A real Transport for the React tests: the test feeds each run event by event, inside act(). */
import { act } from "@testing-library/react";
import { Observable, Subject } from "rxjs";
import type { Transport } from "../../../src/client/transports/Transport";
import { ev } from "../../../src/protocol/build";
import type { Event } from "../../../src/protocol/events";
import type { RunAgentInput } from "../../../src/protocol/input";

/** A real Transport whose runs the test feeds event by event, and which records unsubscriptions. */
export class ScriptedTransport implements Transport {
  readonly inputs: RunAgentInput[] = [];
  readonly feeds: Subject<Event>[] = [];
  readonly cancelled: boolean[] = [];
  run(input: RunAgentInput): Observable<Event> {
    return new Observable<Event>((subscriber) => {
      const index = this.feeds.length;
      const feed = new Subject<Event>();
      this.inputs.push(input);
      this.feeds.push(feed);
      this.cancelled.push(false);
      let ended = false;
      const inner = feed.subscribe({
        next: (event) => subscriber.next(event),
        error: (error: unknown) => {
          ended = true;
          subscriber.error(error);
        },
        complete: () => {
          ended = true;
          subscriber.complete();
        },
      });
      return () => {
        // Torn down before the run's stream ended: the consumer cancelled (what aborts a fetch).
        if (!ended) this.cancelled[index] = true;
        inner.unsubscribe();
      };
    });
  }
  /** Emits into the latest run, inside act() so React renders what follows. */
  emit(...events: Event[]): void {
    const feed = this.feeds[this.feeds.length - 1];
    act(() => {
      for (const event of events) feed.next(event);
    });
  }
  get input(): RunAgentInput {
    return this.inputs[this.inputs.length - 1];
  }
  start(): void {
    this.emit(ev.runStarted(this.input.threadId, this.input.runId));
  }
  finish(outcome?: Parameters<typeof ev.runFinished>[2]): void {
    const feed = this.feeds[this.feeds.length - 1];
    act(() => {
      feed.next(ev.runFinished(this.input.threadId, this.input.runId, outcome));
      feed.complete();
    });
  }
}
