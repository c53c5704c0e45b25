/**
 * Ending a stopped run function (endOnStop, closeOpenSpans): for any agent script cut anywhere,
 * the closers plus RUN_FINISHED cancelled make a stream both verifiers accept; and the operator's
 * subscription rules (marbles: a synchronous source let go, a stop after the terminal, two subscribers).
 */
import fc from "fast-check";
import { Observable, take } from "rxjs";
import { TestScheduler } from "rxjs/testing";
import { ev } from "../../src/protocol/build";
import type { Event } from "../../src/protocol/events";
import { closeOpenSpans } from "../../src/thread/closeOpenSpans";
import { endOnStop } from "../../src/server/http/endOnStop";
import { OpenSpans } from "../../src/thread/OpenSpans";
import { expectAccepted } from "../server/support";
import { endingArbitrary, opArbitrary, recordThread } from "../server/store/threads";
import { fuzzParameters } from "../support/fuzz";

beforeEach(() => {
  jest.spyOn(console, "warn").mockImplementation(() => undefined); // the official verifier's warnings are not under test
});
afterEach(() => jest.restoreAllMocks());

test("property: any script cut anywhere, closed by closeOpenSpans and ended cancelled, passes both verifiers", async () => {
  const script = fc.record({ ops: fc.array(opArbitrary, { maxLength: 30 }), ending: endingArbitrary });
  await fc.assert(
    fc.asyncProperty(script, fc.double({ min: 0, max: 1, noNaN: true }), async (played, cutAt) => {
      const [recorded] = await recordThread("t", [played]);
      const events = recorded.events;
      const upTo = Math.max(1, Math.min(events.length - 1, Math.floor(cutAt * events.length))); // never past the terminal's place
      const prefix = events.slice(0, upTo);
      const spans = new OpenSpans();
      for (const event of prefix) spans.apply(event);
      const ended = [...prefix, ...closeOpenSpans(spans.reopeners()), ev.runFinished("t", recorded.input.runId, { outcome: { type: "cancelled" } })];
      await expectAccepted(ended);
    }),
    fuzzParameters(150),
  );
});

test("innermost first, each END tagged as its opener was; finished subagents are left alone", () => {
  const reopeners: Event[] = [
    ev.subagentStarted("a", "outer"),
    ev.subagentStarted("done", "finished one"),
    ev.subagentFinished("done"),
    { ...ev.stepStarted("plan"), subagentRunId: "a" },
    { ...ev.reasoningStart("r1"), subagentRunId: "a" },
    { ...ev.reasoningMessageStart("r1"), subagentRunId: "a" },
  ];
  expect(closeOpenSpans(reopeners)).toEqual([
    { ...ev.reasoningMessageEnd("r1"), subagentRunId: "a" },
    { ...ev.reasoningEnd("r1"), subagentRunId: "a" },
    { ...ev.stepFinished("plan"), subagentRunId: "a" },
    ev.subagentFinished("a"),
  ]);
});

describe("endOnStop", () => {
  const scheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
  const values = {
    s: ev.runStarted("t", "r"),
    m: ev.textMessageStart("m1"),
    c: ev.textMessageContent("m1", "x"),
    e: ev.textMessageEnd("m1"),
    f: ev.runFinished("t", "r"),
    x: ev.runFinished("t", "r", { outcome: { type: "cancelled" } }),
  };

  test("a stop closes what is open, ends cancelled, completes, and lets the source go", () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("s-m-c------", values);
      const stop = new AbortController();
      const out = source.pipe(endOnStop(stop.signal, "t", "r"));
      cold("------a").subscribe(() => stop.abort());
      expectObservable(out).toBe("s-m-c-(ex|)", values);
      expectSubscriptions(source.subscriptions).toBe("^-----!");
    });
  });

  test("a stop after the terminal changes nothing; the run's own end passes through", () => {
    scheduler().run(({ cold, expectObservable }) => {
      const stop = new AbortController();
      const out = cold("s-f|", values).pipe(endOnStop(stop.signal, "t", "r"));
      cold("-----a").subscribe(() => stop.abort());
      expectObservable(out).toBe("s-f|", values);
    });
  });

  /** A run function that sends RUN_STARTED and opens a message, synchronously, then goes on forever. */
  const opening = (): Observable<Event> =>
    new Observable<Event>((subscriber) => {
      subscriber.next(values.s);
      subscriber.next(values.m);
    });

  test("a stop given before subscription ends the run at once, without subscribing the source", () => {
    let subscribed = false;
    const source = new Observable<Event>(() => {
      subscribed = true;
    });
    const seen: Event[] = [];
    source.pipe(endOnStop(AbortSignal.abort(), "t", "r")).subscribe((event) => seen.push(event));
    expect(seen).toEqual([values.x]);
    expect(subscribed).toBe(false);
  });

  test("a synchronous source is let go when the consumer unsubscribes mid-emission", () => {
    let emitted = 0;
    const endless = new Observable<Event>((subscriber) => {
      subscriber.next(values.s);
      for (let i = 0; i < 1000 && !subscriber.closed; i++) {
        emitted++;
        subscriber.next(values.c);
      }
    });
    const seen: Event[] = [];
    endless.pipe(endOnStop(new AbortController().signal, "t", "r"), take(2)).subscribe((event) => seen.push(event));
    expect(seen).toEqual([values.s, values.c]);
    expect(emitted).toBe(1);
  });

  test("two subscribers each track their own spans", () => {
    const stop = new AbortController();
    const out = opening().pipe(endOnStop(stop.signal, "t", "r"));
    const first: string[] = [];
    const second: string[] = [];
    out.subscribe((event) => first.push(event.type));
    out.pipe(take(1)).subscribe((event) => second.push(event.type)); // this one leaves before the message opens
    stop.abort();
    expect(first).toEqual(["RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_END", "RUN_FINISHED"]);
    expect(second).toEqual(["RUN_STARTED"]);
  });
});
