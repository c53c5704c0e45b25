/** Marble tests of the verifyEvents operator in both modes: order, errors, diagnostics, completion, unsubscription. */
import { Observable, of, type OperatorFunction } from "rxjs";
import { TestScheduler } from "rxjs/testing";
import type { Event } from "../../src/protocol/events";
import { Diagnostic, ProtocolError, type InBandReport } from "../../src/operators/ProtocolError";
import { verifyEvents } from "../../src/operators/verifyEvents";
import { RF, RS, SS, TCA, TCE, TCS, TMC, TME, TMS } from "../support/streams";

const newScheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));

/** Matches a ProtocolError instance with this code and rule, whose offending event is `event`. */
const protocolError = (code: string, rule: string, event: Event) => ({
  asymmetricMatch: (actual: unknown) => actual instanceof ProtocolError && actual.code === code && actual.rule === rule && actual.event === event,
  toString: () => `ProtocolError(${code}, ${rule})`,
});

/** Matches a Diagnostic carrying such a ProtocolError. */
const diagnostic = (code: string, rule: string, event: Event) => ({
  asymmetricMatch: (actual: unknown) => actual instanceof Diagnostic && protocolError(code, rule, event).asymmetricMatch(actual.error),
  toString: () => `Diagnostic(${code}, ${rule})`,
});

// a: RUN_STARTED, m: TEXT_MESSAGE_START(m1), c: CONTENT(m1), e: END(m1), f: RUN_FINISHED,
// b: CONTENT(m9) (never opened, R15), s: STATE_SNAPSHOT inside an open tool call (docs/seeds.md#seed-000)
const v = {
  a: RS(),
  m: TMS("m1"),
  c: TMC("m1"),
  e: TME("m1"),
  f: RF(),
  b: TMC("m9"),
  t: TCS("t1"),
  g: TCA("t1"),
  s: SS(),
  u: TCE("t1"),
};

describe("verifyEvents strict (the default)", () => {
  test("passes a valid stream through unchanged, in order, and completes", () => {
    newScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("-a-m-c-e-f-|", v);
      expectObservable(source.pipe(verifyEvents())).toBe("-a-m-c-e-f-|", v);
      expectSubscriptions(source.subscriptions).toBe("^----------!");
    });
  });

  test("state events anywhere, even inside an open tool call, are accepted (docs/seeds.md#seed-000)", () => {
    newScheduler().run(({ cold, expectObservable }) => {
      const source = cold("-a-t-g-s-u-f-|", v);
      expectObservable(source.pipe(verifyEvents({ mode: "strict" }))).toBe("-a-t-g-s-u-f-|", v);
    });
  });

  test("errors the stream with the ProtocolError at the first violation and unsubscribes the source", () => {
    newScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("-a-b-f-|", v);
      expectObservable(source.pipe(verifyEvents())).toBe("-a-#", v, protocolError("text-message", "R15", v.b));
      expectSubscriptions(source.subscriptions).toBe("^--!");
    });
  });

  test("unsubscribing downstream reaches the source", () => {
    newScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("-a-m-c-e-f-|", v);
      expectObservable(source.pipe(verifyEvents()), "^----!").toBe("-a-m-", v);
      expectSubscriptions(source.subscriptions).toBe("^----!");
    });
  });

  test("a source error passes through untouched", () => {
    newScheduler().run(({ cold, expectObservable }) => {
      const boom = new Error("transport closed");
      expectObservable(cold("-a-m-#", v, boom).pipe(verifyEvents())).toBe("-a-m-#", v, boom);
    });
  });

  test("each subscription verifies with its own fresh state (cold)", () => {
    newScheduler().run(({ cold, expectObservable }) => {
      const verified = cold("-a-m-e-f-|", v).pipe(verifyEvents());
      expectObservable(verified).toBe("-a-m-e-f-|", v);
      expectObservable(verified).toBe("-a-m-e-f-|", v); // a shared state would reject the second RS (R2)
    });
  });

  test("a synchronous source stops at the violation", () => {
    let pulled = 0;
    const source = new Observable<Event>((subscriber) => {
      for (const event of [v.a, v.b, v.f, v.a]) {
        if (subscriber.closed) return;
        pulled += 1;
        subscriber.next(event);
      }
      subscriber.complete();
    });
    const seen: unknown[] = [];
    source.pipe(verifyEvents()).subscribe({ next: (e) => seen.push(e), error: (e: unknown) => seen.push(e) });
    expect(seen).toHaveLength(2);
    expect(seen[0]).toBe(v.a);
    expect(seen[1]).toBeInstanceOf(ProtocolError);
    expect(pulled).toBe(2);
  });
});

describe("verifyEvents report (the Session's mode)", () => {
  test("emits a Diagnostic in place of the offending event and goes on to completion", () => {
    newScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("-a-b-m-e-f-|", v);
      expectObservable(source.pipe(verifyEvents({ mode: "report" }))).toBe("-a-d-m-e-f-|", {
        ...v,
        d: diagnostic("text-message", "R15", v.b),
      });
      expectSubscriptions(source.subscriptions).toBe("^----------!");
    });
  });

  test("the next event is checked against the state before the rejected one", () => {
    // m1 opened twice: the second START is rejected (R14) and changes nothing, so one END closes it and RF passes.
    newScheduler().run(({ cold, expectObservable }) => {
      const source = cold("-a-m-m-e-f-|", v);
      expectObservable(source.pipe(verifyEvents({ mode: "report" }))).toBe("-a-m-d-e-f-|", {
        ...v,
        d: diagnostic("text-message", "R14", v.m),
      });
    });
  });

  test("Diagnostics from upstream pass through untouched, at their position", () => {
    const upstream = new Diagnostic(new ProtocolError("chunk", "C5", { type: "TEXT_MESSAGE_CHUNK" }, "a chunk without messageId"));
    newScheduler().run(({ cold, expectObservable }) => {
      const values = { ...v, x: upstream };
      const source = cold<Event | Diagnostic>("-a-x-f-|", values);
      expectObservable(source.pipe(verifyEvents({ mode: "report" }))).toBe("-a-x-f-|", values);
    });
  });

  test("several violations each get their Diagnostic; unsubscription reaches the source", () => {
    newScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("-b-a-a-f-a-|", v);
      expectObservable(source.pipe(verifyEvents({ mode: "report" })), "^--------!").toBe("-1-a-2-f-", {
        ...v,
        1: diagnostic("run-lifecycle", "R1", v.b),
        2: diagnostic("run-lifecycle", "R2", v.a),
      });
      expectSubscriptions(source.subscriptions).toBe("^--------!");
    });
  });
});

describe("verifyEvents types", () => {
  test("strict maps Event to Event; report maps Event | InBandReport to Event | InBandReport", () => {
    const strict: OperatorFunction<Event, Event> = verifyEvents();
    const explicit: OperatorFunction<Event, Event> = verifyEvents({ mode: "strict" });
    const report: OperatorFunction<Event | InBandReport, Event | InBandReport> = verifyEvents({ mode: "report" });
    // @ts-expect-error strict mode never emits Diagnostics and does not accept them
    const wrong: OperatorFunction<Event | Diagnostic, Event | Diagnostic> = verifyEvents();
    // @ts-expect-error report mode may emit Diagnostics, so its output is not Event only
    const alsoWrong: OperatorFunction<Event, Event> = verifyEvents({ mode: "report" });
    expect([strict, explicit, report, wrong, alsoWrong].every((f) => typeof f === "function")).toBe(true);
    expect(of(v.a).pipe(verifyEvents())).toBeInstanceOf(Observable);
  });
});
