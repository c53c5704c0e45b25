import { TestScheduler } from "rxjs/testing";
import { selectStateEncoding, stateEncodingStep } from "../../src/operators/selectStateEncoding";
import { ev } from "../../src/protocol/build";
import type { Event } from "../../src/protocol/events";
import { StateManager } from "../../src/operators/StateManager";

const notes = "the document the user is editing, at some length";

function scheduler(): TestScheduler {
  return new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
}

describe("selectStateEncoding (marbles)", () => {
  test("first snapshot passes, a small change becomes a delta, no change disappears, a whole small change stays a snapshot", () => {
    scheduler().run(({ cold, expectObservable }) => {
      const values: Record<string, Event> = {
        r: ev.runStarted("t", "r1"),
        a: ev.stateSnapshot({ step: 1, notes }),
        b: ev.stateSnapshot({ step: 2, notes }),
        c: ev.stateSnapshot({ step: 2, notes }),
        d: ev.stateSnapshot({ a: 1 }),
        e: ev.stateSnapshot({ b: 2 }),
        m: ev.textMessageContent("m1", "hi"),
      };
      const source = cold("r-a-b-c-m-d-e-|", values);
      const expected = "   r-a-B---m-d-e-|";
      expectObservable(source.pipe(selectStateEncoding())).toBe(expected, {
        ...values,
        B: { type: "STATE_DELTA", delta: [{ op: "replace", path: "/step", value: 2 }] },
      });
    });
  });

  test("an upstream STATE_DELTA passes and moves the baseline; a failing one makes the next snapshot pass whole", () => {
    scheduler().run(({ cold, expectObservable }) => {
      const pad = "p".repeat(60);
      const values: Record<string, Event> = {
        a: ev.stateSnapshot({ n: 1, pad }),
        x: ev.stateDelta([{ op: "replace", path: "/n", value: 2 }]),
        b: ev.stateSnapshot({ n: 2, pad }),
        c: ev.stateSnapshot({ n: 3, pad }),
        y: ev.stateDelta([{ op: "remove", path: "/missing" }]),
        d: ev.stateSnapshot({ n: 3, pad }),
      };
      expectObservable(cold("a-x-b-c-y-d-|", values).pipe(selectStateEncoding())).toBe("a-x---C-y-d-|", {
        ...values,
        C: { type: "STATE_DELTA", delta: [{ op: "replace", path: "/n", value: 3 }] },
      });
    });
  });

  test("RUN_STARTED resets: each run starts with a snapshot", () => {
    scheduler().run(({ cold, expectObservable }) => {
      const values: Record<string, Event> = {
        r: ev.runStarted("t", "r1"),
        a: ev.stateSnapshot({ step: 1, notes }),
        s: ev.runStarted("t", "r2"),
      };
      expectObservable(cold("r-a-a-s-a-|", values).pipe(selectStateEncoding())).toBe("r-a---s-a-|", values);
    });
  });

  test("state is per subscription", () => {
    scheduler().run(({ cold, expectObservable }) => {
      const values: Record<string, Event> = { a: ev.stateSnapshot({ step: 1, notes }) };
      const encoded = cold("a-a-|", values).pipe(selectStateEncoding());
      expectObservable(encoded).toBe("a---|", values);
      expectObservable(encoded).toBe("a---|", values);
    });
  });

  test("the delta keeps timestamp, metadata and subagentRunId, and drops the snapshot's rawEvent", () => {
    scheduler().run(({ cold, expectObservable }) => {
      const values: Record<string, Event> = {
        a: ev.stateSnapshot({ step: 1, notes }),
        b: ev.stateSnapshot({ step: 2, notes }, { timestamp: 5, subagentRunId: "s1", metadata: { k: 1 }, rawEvent: { raw: true } }),
      };
      expectObservable(cold("a-b-|", values).pipe(selectStateEncoding())).toBe("a-B-|", {
        a: values.a,
        B: { type: "STATE_DELTA", timestamp: 5, subagentRunId: "s1", metadata: { k: 1 }, delta: [{ op: "replace", path: "/step", value: 2 }] },
      });
    });
  });

  test("errors pass through; a snapshot that is not JSON errors the stream", () => {
    scheduler().run(({ cold, expectObservable }) => {
      const values: Record<string, Event> = { a: ev.stateSnapshot({ step: 1, notes }), u: { type: "STATE_SNAPSHOT", snapshot: undefined } };
      expectObservable(cold("a-#", values).pipe(selectStateEncoding())).toBe("a-#", values);
      expectObservable(cold("a-u-a", values).pipe(selectStateEncoding())).toBe("a-#", values, new TypeError("a state must be a JSON value, got undefined"));
    });
  });

  test("unsubscribing unsubscribes from the source", () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const values: Record<string, Event> = { a: ev.stateSnapshot({ step: 1, notes }), b: ev.stateSnapshot({ step: 2, notes }) };
      const source = cold("a-b-a-b-|", values);
      expectObservable(source.pipe(selectStateEncoding()), "^--!").toBe("a-B", {
        a: values.a,
        B: { type: "STATE_DELTA", delta: [{ op: "replace", path: "/step", value: 2 }] },
      });
      expectSubscriptions(source.subscriptions).toBe("^--!");
    });
  });
});

describe("stateEncodingStep (table)", () => {
  test.each<[string, Event[], (Event | undefined)[]]>([
    ["other events pass untouched", [ev.stepStarted("s")], [ev.stepStarted("s")]],
    ["a delta without a baseline passes", [ev.stateDelta([{ op: "add", path: "/x", value: 1 }])], [ev.stateDelta([{ op: "add", path: "/x", value: 1 }])]],
    ["unchanged after member reordering", [ev.stateSnapshot({ a: 1, b: 2 }), ev.stateSnapshot({ b: 2, a: 1 })], [ev.stateSnapshot({ a: 1, b: 2 }), undefined]],
  ])("%s", (_name, input, output) => {
    const states = new StateManager();
    expect(input.map((event) => stateEncodingStep(states, event))).toEqual(output);
  });
});
