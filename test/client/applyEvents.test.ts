/** applyEvents as an operator: marbles for the run-end contract, diagnostics and unsubscription. */
import { map, Observable } from "rxjs";
import { TestScheduler } from "rxjs/testing";
import { ev } from "../../src/protocol/build";
import type { Event } from "../../src/protocol/events";
import { Diagnostic, ProtocolError } from "../../src/operators/ProtocolError";
import { applyEvents } from "../../src/client/applyEvents";
import { ClientError } from "../../src/thread/ClientError";
import { ClientState } from "../../src/thread/reducers/ClientState";
import type { Update } from "../../src/thread/Update";

function scheduler(): TestScheduler {
  return new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
}

/** Updates reduced to a comparable label. */
function label(update: Update): string {
  switch (update.kind) {
    case "message":
      return `${update.id}:${update.change.kind}`;
    case "error":
      return `error:${update.error.kind}`;
    case "done":
      return `done:${update.end.kind}`;
    default:
      return update.kind;
  }
}

const events: Record<string, Event | Diagnostic> = {
  s: ev.runStarted("t", "r"),
  a: ev.textMessageStart("m"),
  b: ev.textMessageContent("m", "x"),
  f: ev.runFinished("t", "r"),
  e: ev.runError("boom"),
  d: new Diagnostic(new ProtocolError("text-message", "R15", ev.textMessageEnd("ghost"), "TEXT_MESSAGE_END for a message that is not open")),
};

describe("applyEvents (marbles)", () => {
  it("emits per event, ends at RUN_FINISHED and unsubscribes the source (E9)", () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("-s-a-b-f-a-|", events);
      const labels = { a: "m:started", b: "m:content", f: "done:success" };
      expectObservable(source.pipe(applyEvents(), map(label))).toBe("---a-b-(f|)", labels);
      expectSubscriptions(source.subscriptions).toBe("^------!");
    });
  });

  it("reports a diagnostic in place and goes on", () => {
    scheduler().run(({ cold, expectObservable }) => {
      const source = cold("-s-d-a-f", events);
      expectObservable(source.pipe(applyEvents(), map(label))).toBe("---x-y-(z|)", { x: "error:protocol", y: "m:started", z: "done:success" });
    });
  });

  it("a truncated stream, a source error and RUN_ERROR each end with error then done failed", () => {
    scheduler().run(({ cold, expectObservable }) => {
      const mapLabels = (source: ReturnType<typeof cold<Event | Diagnostic>>) => source.pipe(applyEvents(), map(label));
      expectObservable(mapLabels(cold("-s-a-|", events))).toBe("---a-(xy|)", { a: "m:started", x: "error:decode", y: "done:failed" });
      expectObservable(mapLabels(cold("-s-#", events, new ClientError("http", "500")))).toBe("---(xy|)", { x: "error:http", y: "done:failed" });
      expectObservable(mapLabels(cold("-s-e-a", events))).toBe("---(xy|)", { x: "error:run", y: "done:failed" });
    });
  });

  it("unsubscribing before the end unsubscribes the source and emits nothing more", () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("-s-a-b-f", events);
      expectObservable(source.pipe(applyEvents(), map(label)), "^----!").toBe("---a", { a: "m:started" });
      expectSubscriptions(source.subscriptions).toBe("^----!");
    });
  });

  it("applies to a given state, so runs accumulate", () => {
    const state = ClientState.untyped();
    scheduler().run(({ cold, expectObservable }) => {
      expectObservable(cold("sabf", events).pipe(applyEvents({ state }))).toBe("-ab(f|)", {
        a: expect.objectContaining({ kind: "message", index: 0 }),
        b: expect.objectContaining({ kind: "message" }),
        f: { kind: "done", end: { kind: "success" } },
      });
    });
    expect(state.messages.snapshot()).toEqual([{ id: "m", role: "assistant", content: "x" }]);
  });

  it("surfaces the success outcome's pendingToolCallIds on the done (docs/wire.md#4.10), and leaves them out when the outcome has none", () => {
    scheduler().run(({ cold, expectObservable }) => {
      const listed = ev.runFinished("t", "r", { outcome: { type: "success", pendingToolCallIds: ["c1", "c2"] }, result: { n: 1 } });
      const plain = ev.runFinished("t", "r", { outcome: { type: "success" } });
      expectObservable(cold("(sl)", { s: ev.runStarted("t", "r"), l: listed }).pipe(applyEvents())).toBe("(f|)", {
        f: { kind: "done", end: { kind: "success", result: { n: 1 }, pendingToolCallIds: ["c1", "c2"] } },
      });
      expectObservable(cold("(sp)", { s: ev.runStarted("t", "r"), p: plain }).pipe(applyEvents())).toBe("(f|)", {
        f: { kind: "done", end: { kind: "success" } },
      });
    });
  });
});

describe("applyEvents (a synchronous source)", () => {
  it("stops a synchronous source at the run's done, not at the end of its subscribe call (E9)", () => {
    let emitted = 0;
    const source = new Observable<Event>((subscriber) => {
      const all = [ev.runStarted("t", "r"), ev.runFinished("t", "r"), ...Array.from({ length: 50 }, () => ev.custom("after", 1))];
      for (const event of all) {
        if (subscriber.closed) break;
        emitted++;
        subscriber.next(event);
      }
      subscriber.complete();
    });
    const kinds: string[] = [];
    source.pipe(applyEvents()).subscribe((update) => kinds.push(label(update)));
    expect(kinds).toEqual(["done:success"]);
    expect(emitted).toBe(2);
  });
});
