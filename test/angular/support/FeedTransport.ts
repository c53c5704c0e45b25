/** A real Transport for the Angular tests: each run is a Subject the test feeds event by event. */
import { Observable, Subject } from "rxjs";
import { ev, type Event, type RunAgentInput } from "agui-rx";
import type { Transport } from "agui-rx/client";

/**
 * Records each run's input, hands the test a feed per run, and notes whether the consumer let go
 * of a run before its stream ended (what aborts a fetch).
 *
 * @example
 * const transport = new FeedTransport();
 * session.send("hi").subscribe();
 * transport.start();
 */
export class FeedTransport implements Transport {
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
        complete: () => {
          ended = true;
          subscriber.complete();
        },
      });
      return () => {
        if (!ended) this.cancelled[index] = true;
        inner.unsubscribe();
      };
    });
  }

  /** The latest run's input. */
  get input(): RunAgentInput {
    const input = this.inputs[this.inputs.length - 1];
    if (input === undefined) throw new Error("expected a run to have started, but none has");
    return input;
  }

  /** Emits into the latest run. */
  emit(...events: Event[]): void {
    const feed = this.feeds[this.feeds.length - 1];
    if (feed === undefined) throw new Error("expected a run to feed, but none has started");
    for (const event of events) feed.next(event);
  }

  start(): void {
    this.emit(ev.runStarted(this.input.threadId, this.input.runId));
  }

  finish(outcome?: Parameters<typeof ev.runFinished>[2]): void {
    this.emit(ev.runFinished(this.input.threadId, this.input.runId, outcome));
    this.feeds[this.feeds.length - 1]?.complete();
  }
}
