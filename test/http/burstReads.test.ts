/**
 * toEventStream's reads of a paced source (the factory form, handed `ready()`): a read takes the
 * producer's burst whole, up to the moment it waits for room or gives way, and at the latest in a
 * later macrotask, so a producer that waits for something else is not held back.
 */
import { Observable } from "rxjs";
import { ev } from "../../src/protocol/build";
import type { Event } from "../../src/protocol/events";
import { fairTurns } from "../../src/server/http/fairTurns";
import { toEventStream, type Ready } from "../../src/server/http/toEventStream";

/** Turns whose clock stands still: the producer's slice never ends, however slowly a loaded machine runs the test. */
const unhurried = () => fairTurns({ now: () => 0 });

const framesOf = (chunk: Uint8Array | undefined): string[] => new TextDecoder().decode(chunk).split("\n\n").filter(Boolean);

/** A promise and the function that resolves it, for a producer to wait on what the test controls. */
function gate(): { readonly opened: Promise<void>; readonly open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/** Sends `count` deltas, awaiting `ready()` before each, then waits for `then` and ends the run. */
function paced(count: number, then: Promise<void>): (ready: Ready) => Observable<Event> {
  return (ready) =>
    new Observable<Event>((subscriber) => {
      void (async () => {
        subscriber.next(ev.runStarted("t", "r"));
        for (let i = 0; i < count; i++) {
          await ready();
          subscriber.next(ev.textMessageContent("m", `d${i}`));
        }
        await then;
        subscriber.next(ev.runFinished("t", "r"));
        subscriber.complete();
      })();
    });
}

describe("a read of a paced source", () => {
  it("takes the producer's burst whole: RUN_STARTED and ten deltas in one chunk, where a read per event took one or two", async () => {
    const end = gate();
    const reader = toEventStream(paced(10, end.opened), { highWaterMark: 16, turns: unhurried() }).getReader();
    const first = await reader.read();
    expect(framesOf(first.value)).toHaveLength(11);
    end.open();
    expect(framesOf((await reader.read()).value)).toEqual([expect.stringContaining("RUN_FINISHED")]);
    expect((await reader.read()).done).toBe(true);
  });

  it("hands over at once when the producer waits for room: the queue full at the high-water mark", async () => {
    const end = gate();
    const reader = toEventStream(paced(100, end.opened), { highWaterMark: 4, turns: unhurried() }).getReader();
    expect(framesOf((await reader.read()).value)).toHaveLength(4);
    expect(framesOf((await reader.read()).value)).toHaveLength(4);
    await reader.cancel();
  });

  it("takes the burst up to where the producer gives way for its turn", async () => {
    let clock = 0;
    const turns = fairTurns({ sliceMs: 1, now: () => clock });
    const source = (ready: Ready) =>
      new Observable<Event>((subscriber) => {
        void (async () => {
          subscriber.next(ev.runStarted("t", "r"));
          for (let i = 0; i < 100 && !subscriber.closed; i++) {
            if (i === 5) clock = 10; // its slice is used up: this ready() gives way
            await ready();
            subscriber.next(ev.textMessageContent("m", `d${i}`));
          }
        })();
      });
    const reader = toEventStream(source, { highWaterMark: 1000, turns }).getReader();
    expect(framesOf((await reader.read()).value)).toHaveLength(1 + 5);
    await reader.cancel();
  });

  it("does not wait for a producer that waits for something else: what it queued goes in a later macrotask", async () => {
    const later = gate();
    const reader = toEventStream(paced(3, later.opened), { turns: unhurried() }).getReader();
    // The producer now waits for `later`, which nothing opens until the read is answered.
    expect(framesOf((await reader.read()).value)).toHaveLength(4);
    later.open();
    expect(framesOf((await reader.read()).value)).toEqual([expect.stringContaining("RUN_FINISHED")]);
  });

  it("an Observable source is read as its events come, one read for each event queued when it asks", async () => {
    const reader = toEventStream(new Observable<Event>((subscriber) => subscriber.next(ev.runStarted("t", "r")))).getReader();
    expect(framesOf((await reader.read()).value)).toHaveLength(1);
    await reader.cancel();
  });
});
