import { concat, defer, from, map, Subject, switchMap, timer } from "rxjs";
import { TestScheduler } from "rxjs/testing";
import { ClientError } from "../../src/thread/ClientError";
import { coalesceUpdates, FALLBACK_FRAME_MS, UpdateBatch } from "../../src/client/coalesceUpdates";
import type { Update } from "../../src/thread/Update";
import { Session } from "../../src/client/Session";
import { ev } from "../../src/protocol/build";

type Board = { tasks: string[] };
type U = Update<Board>;

const text = (id: string, content: string): U => ({
  kind: "message",
  index: 0,
  id,
  change: { kind: "content", delta: content.slice(-1) },
  message: { id, role: "assistant", content },
});
const snapshot = (...ids: string[]): U => ({ kind: "messages", messages: ids.map((id) => ({ id, role: "assistant", content: id })) });
const state = (...tasks: string[]): U => ({ kind: "state", state: { tasks }, rawState: { tasks } });
const error = (message: string): U => ({ kind: "error", error: new ClientError("protocol", message) });
const interrupt = (id: string): U => ({ kind: "interrupt", interrupt: { id, reason: "confirm" } });
const subagent = (id: string): U => ({ kind: "subagent", change: "started", subagent: { id, name: "researcher", status: { kind: "running" } } });
const done: U = { kind: "done", end: { kind: "success" } };

const newScheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));

describe("coalesceUpdates (marbles)", () => {
  it("turns forty text deltas in one frame into one batch holding the whole text", () => {
    const alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMN";
    const deltas = [...alphabet].map((_, i) => text("m1", alphabet.slice(0, i + 1)));
    expect(deltas).toHaveLength(40);
    const scheduler = newScheduler();
    scheduler.run(({ expectObservable }) => {
      const source = concat(from(deltas), timer(5).pipe(map(() => done)));
      expectObservable(source.pipe(coalesceUpdates<Board>(scheduler))).toBe("a 4ms (b|)", {
        a: [deltas[39]],
        b: [done],
      });
    });
  });

  it("emits one batch per frame, keeping the latest state and message of each frame", () => {
    const scheduler = newScheduler();
    scheduler.run(({ cold, expectObservable }) => {
      const values = { a: text("m1", "H"), b: text("m1", "Hi"), s: state("x"), t: state("x", "y"), c: text("m2", "O"), d: done };
      const source = cold("(asbt) 3ms c 2ms (d|)", values); // groups take as many frames as characters: c at 9, d at 12
      expectObservable(source.pipe(coalesceUpdates<Board>(scheduler))).toBe("x 8ms y 2ms (z|)", {
        x: [values.b, values.t],
        y: [values.c],
        z: [values.d],
      });
    });
  });

  it("never drops error, interrupt, subagent or done, and keeps their relative order", () => {
    const scheduler = newScheduler();
    scheduler.run(({ cold, expectObservable }) => {
      const values = {
        a: text("m1", "a"),
        e: error("first"),
        s: subagent("sub-1"),
        b: text("m1", "ab"),
        f: error("second"),
        i: interrupt("int-1"),
        j: interrupt("int-2"),
        t: state("x"),
        d: done,
      };
      const source = cold("(aesbfitjd|)", values);
      expectObservable(source.pipe(coalesceUpdates<Board>(scheduler))).toBe("(x|)", {
        // m1 sits where its latest value (b) arrived; the four kinds that are never dropped keep their order.
        x: [values.e, values.s, values.b, values.f, values.i, values.t, values.j, values.d],
      });
    });
  });

  it("lets a messages snapshot supersede the message updates before it in the frame", () => {
    const scheduler = newScheduler();
    scheduler.run(({ cold, expectObservable }) => {
      const values = { a: text("m1", "a"), s: snapshot("m1", "m2"), b: text("m2", "m2!"), t: state("x") };
      expectObservable(cold("(atsb)", values).pipe(coalesceUpdates<Board>(scheduler))).toBe("x", {
        x: [values.t, values.s, values.b],
      });
    });
  });

  it("flushes what is waiting when the source completes or errors, before passing it on", () => {
    const scheduler = newScheduler();
    scheduler.run(({ cold, expectObservable }) => {
      const values = { a: text("m1", "a"), b: text("m1", "ab") };
      expectObservable(cold("(ab|)", values).pipe(coalesceUpdates<Board>(scheduler, 10))).toBe("(x|)", { x: [values.b] });
      expectObservable(cold("(ab#)", values, new Error("boom")).pipe(coalesceUpdates<Board>(scheduler, 10))).toBe("(x#)", { x: [values.b] }, new Error("boom"));
    });
  });

  it("waits frameMs before closing a batch", () => {
    const scheduler = newScheduler();
    scheduler.run(({ cold, expectObservable }) => {
      const values = { a: text("m1", "a"), b: text("m1", "ab"), c: text("m1", "abc") };
      // frames of 4ms: a and b (at 0 and 2) share the first; c (at 6) gets the next.
      expectObservable(cold("a 1ms b 3ms c", values).pipe(coalesceUpdates<Board>(scheduler, 4))).toBe("4ms x 5ms y", {
        x: [values.b],
        y: [values.c],
      });
    });
  });

  it("unsubscribing drops the waiting batch, cancels the frame and unsubscribes the source", () => {
    const scheduler = newScheduler();
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("a 1ms b 9ms c", { a: text("m1", "a"), b: text("m1", "ab"), c: text("m1", "abc") });
      expectObservable(source.pipe(coalesceUpdates<Board>(scheduler, 5)), "^ 3ms !").toBe("");
      expectSubscriptions(source.subscriptions).toBe("^ 3ms !");
    });
  });

  it("uses a 16 ms asyncScheduler tick when there is no requestAnimationFrame", () => {
    expect(typeof (globalThis as { requestAnimationFrame?: unknown }).requestAnimationFrame).toBe("undefined");
    const scheduler = newScheduler();
    scheduler.run(({ cold, expectObservable }) => {
      // run mode routes asyncScheduler through virtual time, so the default frame is visible here.
      const values = { a: text("m1", "a"), b: text("m1", "ab") };
      expectObservable(cold("a 10ms b", values).pipe(coalesceUpdates<Board>())).toBe(`${FALLBACK_FRAME_MS}ms x`, { x: [values.b] });
    });
  });

  it("keeps subscriptions independent (per-subscription batch)", () => {
    const source = new Subject<U>();
    const seen: (readonly U[])[][] = [[], []];
    const scheduler = newScheduler();
    const a = source.pipe(coalesceUpdates<Board>(scheduler)).subscribe((batch) => seen[0].push(batch));
    source.next(text("m1", "a"));
    const b = source.pipe(coalesceUpdates<Board>(scheduler)).subscribe((batch) => seen[1].push(batch));
    source.next(text("m1", "ab"));
    scheduler.flush();
    expect(seen[0]).toEqual([[text("m1", "ab")]]);
    expect(seen[1]).toEqual([[text("m1", "ab")]]);
    a.unsubscribe();
    b.unsubscribe();
  });
});

describe("UpdateBatch (the pure step)", () => {
  it("is empty after take and starts over", () => {
    const batch = new UpdateBatch<Board>();
    expect(batch.isEmpty).toBe(true);
    batch.push(state("a"));
    batch.push(done);
    expect(batch.isEmpty).toBe(false);
    expect(batch.take()).toEqual([state("a"), done]);
    expect(batch.isEmpty).toBe(true);
    batch.push(state("b"));
    expect(batch.take()).toEqual([state("b")]);
  });

  it("keeps one slot per message id, at the latest arrival", () => {
    const batch = new UpdateBatch<Board>();
    for (const update of [text("m1", "a"), text("m2", "x"), text("m1", "ab"), error("e"), text("m2", "xy")]) batch.push(update);
    expect(batch.take()).toEqual([text("m1", "ab"), error("e"), text("m2", "xy")]);
  });
});

describe("coalesceUpdates on a real Session", () => {
  it("turns a run's forty text deltas in one frame into one message update with the whole text", () => {
    const scheduler = newScheduler();
    const deltas = Array.from({ length: 40 }, (_, i) => `w${i} `);
    scheduler.run(({ expectObservable }) => {
      const transport = {
        run: (input: { threadId: string; runId: string }) =>
          concat(
            from([ev.runStarted(input.threadId, input.runId), ev.textMessageStart("m1"), ...deltas.map((delta) => ev.textMessageContent("m1", delta))]),
            timer(5).pipe(switchMap(() => from([ev.textMessageEnd("m1"), ev.runFinished(input.threadId, input.runId)]))),
          ),
      };
      const session = new Session(transport, { threadId: "t", newId: () => "user-1" });
      const summary = (batch: readonly Update<unknown>[]) =>
        batch.map((update) => {
          // eslint-disable-next-line @typescript-eslint/no-base-to-string -- the messages in this test hold text
          if (update.kind === "message") return `${update.id} ${update.change.kind} ${String(update.message.content)}`;
          if (update.kind === "done") return `done ${update.end.kind}`;
          return update.kind;
        });
      const batches = defer(() => session.send("hi")).pipe(coalesceUpdates(scheduler), map(summary));
      expectObservable(batches).toBe("a 4ms (b|)", {
        a: ["user-1 ended hi", `m1 content ${deltas.join("")}`],
        b: [`m1 ended ${deltas.join("")}`, "done success"],
      });
    });
  });
});
