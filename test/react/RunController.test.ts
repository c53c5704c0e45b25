// RunController without React: sources that end, fail or emit inside `subscribe` itself.
import { concat, finalize, NEVER, Observable, of, throwError } from "rxjs";
import { ClientError } from "../../src/client/ClientError";
import type { Update } from "../../src/client/Update";
import { RunController, type RunSource } from "../../src/react";
import { failOnUnhandledRxErrors } from "./support/noUnhandledErrors";

/** A RunSource whose runs are the given cold observables, in order. */
function sourceOf(...runs: Observable<Update<unknown>>[]): RunSource & { readonly started: number } {
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
    const runs = RunController.of(sourceOf(of<Update<unknown>[]>({ kind: "error", error: refusal }, { kind: "done", end: { kind: "failed", message: refusal.message } })));
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
