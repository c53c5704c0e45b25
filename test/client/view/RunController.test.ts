// RunController without React: sources that end, fail or emit inside `subscribe` itself.
import { concat, EMPTY, finalize, NEVER, Observable, of, Subject, throwError } from "rxjs";
import { ClientError } from "../../../src/thread/ClientError";
import type { Update } from "../../../src/thread/Update";
import { RunController, type SessionLike } from "../../../src/client";
import { failOnUnhandledRxErrors } from "../../react/support/noUnhandledErrors";

/** A SessionLike whose runs are the given cold observables, in order. */
function sourceOf(...runs: Observable<Update<unknown>>[]): SessionLike & { readonly started: number } {
  let started = 0;
  const next = () => {
    const run = runs[started];
    if (run === undefined) throw new Error(`expected at most ${runs.length} runs, but run ${started + 1} was started`);
    started++;
    return run;
  };
  return {
    send: () => next(),
    resume: () => next(),
    get started() {
      return started;
    },
  };
}

const userMessage: Update<unknown> = { kind: "message", index: 0, id: "u1", change: { kind: "started" }, message: { id: "u1", role: "user", content: "hi" } };

failOnUnhandledRxErrors();

describe("RunController with synchronous sources", () => {
  it("a run that ends inside send (error, done) reports failed and is not kept as active", () => {
    const refusal = new ClientError("config", "a run is already active on this session");
    const runs = RunController.of(
      sourceOf(of<Update<unknown>[]>({ kind: "error", error: refusal }, { kind: "done", end: { kind: "failed", message: refusal.message } })),
    );
    expect(() => runs.send("hi")).not.toThrow();
    expect(runs.getSnapshot()).toMatchObject({ status: "failed", end: { kind: "failed", message: refusal.message } });
    runs.stop();
    expect(runs.getSnapshot().status).toBe("failed");
  });

  it("a run that completes inside send without done returns to idle", () => {
    const runs = RunController.of(sourceOf(of(userMessage)));
    runs.send("hi");
    expect(runs.getSnapshot()).toMatchObject({ status: "idle", end: undefined });
  });

  it("a source that errors (inside send) is a failed run, not a thrown error", () => {
    const runs = RunController.of(sourceOf(throwError(() => new Error("socket closed"))));
    expect(() => runs.send("hi")).not.toThrow();
    expect(runs.getSnapshot().status).toBe("failed");
    expect(runs.getSnapshot().error?.message).toContain("socket closed");
    expect(runs.getSnapshot().end).toEqual({ kind: "failed", message: runs.getSnapshot().error?.message });
  });

  it("stop unsubscribes from a source that emitted synchronously and did not end", () => {
    let finalized = 0;
    const runs = RunController.of(sourceOf(concat(of(userMessage), NEVER).pipe(finalize(() => finalized++))));
    runs.send("hi");
    expect(runs.getSnapshot().status).toBe("running");
    expect(finalized).toBe(0);
    runs.stop();
    expect(finalized).toBe(1);
    expect(runs.getSnapshot().status).toBe("idle");
  });

  it("the next send after a synchronous end starts a new run", () => {
    const done: Update<unknown> = { kind: "done", end: { kind: "success" } };
    const source = sourceOf(of(done), concat(of(userMessage), NEVER));
    const runs = RunController.of(source);
    runs.send("one");
    expect(runs.getSnapshot()).toMatchObject({ status: "idle", end: { kind: "success" } });
    runs.send("two");
    expect(source.started).toBe(2);
    expect(runs.getSnapshot().status).toBe("running");
  });
});

describe("RunController with a server that keeps threads (connect, stop, detach)", () => {
  const streaming: Update<unknown> = {
    kind: "message",
    index: 1,
    id: "a1",
    change: { kind: "content", delta: "Hal" },
    message: { id: "a1", role: "assistant", content: "Hal" },
  };
  const ended: Update<unknown> = { kind: "message", index: 1, id: "a1", change: { kind: "ended" }, message: { id: "a1", role: "assistant", content: "Hal" } };

  /** A source whose one run the test drives, with a stop that answers as told and records its calls. */
  function stoppable(answer: () => Promise<"stopping" | "ended" | "unavailable" | "idle">) {
    const feed = new Subject<Update<unknown>>();
    let stops = 0;
    let unsubscribed = 0;
    const run$ = new Observable<Update<unknown>>((subscriber) => {
      const inner = feed.subscribe(subscriber);
      return () => {
        unsubscribed++;
        inner.unsubscribe();
      };
    });
    const source: SessionLike = {
      send: () => run$,
      resume: () => run$,
      connect: () => run$,
      stop: () => {
        stops++;
        return answer();
      },
      canStop: true,
    };
    return { source, feed, counts: () => ({ stops, unsubscribed }) };
  }

  it("stop asks the server; the run then ends cancelled: idle, not failed, and what was streaming when Stop was pressed is cut off", async () => {
    const { source, feed, counts } = stoppable(async () => "stopping");
    const runs = RunController.of(source);
    runs.send("hi");
    feed.next(userMessage);
    feed.next(streaming);
    runs.stop();
    expect(runs.getSnapshot()).toMatchObject({ status: "running", stopping: true });
    await Promise.resolve();
    feed.next(ended); // the server closes what was open…
    feed.next({ kind: "done", end: { kind: "cancelled" } }); // …and ends the run cancelled
    expect(runs.getSnapshot()).toMatchObject({ status: "idle", end: { kind: "cancelled" }, stopping: false, error: undefined });
    expect([...runs.getSnapshot().cutOff.messageIds]).toEqual(["a1"]);
    expect(counts()).toEqual({ stops: 1, unsubscribed: 0 }); // the stop did not let the run go: its own end did
  });

  it("a server that cannot stop (unavailable), or a stop that fails, falls back to unsubscribing", async () => {
    for (const answer of [async () => "unavailable" as const, async () => Promise.reject(new Error("network down"))]) {
      const { source, feed, counts } = stoppable(answer);
      const runs = RunController.of(source);
      runs.send("hi");
      feed.next(streaming);
      runs.stop();
      for (let i = 0; i < 3; i++) await Promise.resolve(); // the stop's promise settles (timers are fake here)
      expect(counts().unsubscribed).toBe(1);
      expect(runs.getSnapshot()).toMatchObject({ status: "idle", stopping: false });
      expect([...runs.getSnapshot().cutOff.messageIds]).toEqual(["a1"]);
    }
  });

  it("connect starts the joined run as the active one; connection updates show the attempt; detach lets it go without asking the server", () => {
    const { source, feed, counts } = stoppable(async () => "stopping");
    const runs = RunController.of(source);
    runs.connect();
    expect(runs.getSnapshot().status).toBe("running");
    feed.next({ kind: "connection", status: "reconnecting", attempt: 2 });
    expect(runs.getSnapshot().reconnecting).toBe(2);
    feed.next({ kind: "connection", status: "connected", attempt: 2 });
    expect(runs.getSnapshot().reconnecting).toBeUndefined();
    runs.detach();
    expect(counts()).toEqual({ stops: 0, unsubscribed: 1 });
    expect(runs.getSnapshot().status).toBe("idle");
  });

  it("a joined thread the server does not know (connect completes with no update) is idle", () => {
    const runs = RunController.of({ send: () => NEVER, resume: () => NEVER, connect: () => EMPTY });
    runs.connect();
    expect(runs.getSnapshot()).toMatchObject({ status: "idle", end: undefined, error: undefined });
  });
});
