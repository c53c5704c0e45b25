/**
 * The store library end to end, through the `agui-rx/server` entry: a real driver run recorded with
 * `recordRun` into `memoryStore()`, a second client joining while the agent waits mid-message, a
 * stop travelling through the store, and a reloaded Session rebuilt from the connect stream.
 */
import { lastValueFrom, Observable, toArray } from "rxjs";
import { ev, runAgentInput } from "../../../src/protocol/build";
import type { Event } from "../../../src/protocol/events";
import { ReplayTransport, Session, type Update } from "../../../src/client";
import { memoryStore, openConnect, recordRun, run, sequentialIds, success, interrupted, type Agent, type StoredEvent } from "../../../src/server";
import { expectAccepted } from "../support";
import { asLogged } from "../../support/storedEvents";

/** A promise and the function that resolves it. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

test("a client that joins while the agent waits mid-message gets the history, the open message, and the live rest", async () => {
  const store = memoryStore();
  const halfway = gate();
  const resume = gate();
  const agent: Agent = {
    async run(ctx) {
      ctx.setState({ stage: "writing" });
      const answer = ctx.assistantMessage();
      answer.delta("The answer ");
      halfway.open();
      await resume.opened;
      answer.delta("is 42.");
      answer.end();
      ctx.setState({ stage: "done" });
      return success();
    },
  };
  const input = runAgentInput("thread-1", "run-1", { messages: [{ id: "u1", role: "user", content: "What is the answer?" }] });
  const writer = await store.beginRun(input);
  const live: StoredEvent[] = [];
  const recorded = lastValueFrom(run(agent, input, { ids: sequentialIds("a") }).pipe(recordRun(writer), toArray()));
  await halfway.opened;
  await new Promise<void>((resolve) => setImmediate(resolve)); // one turn: the batch queued behind the first append is logged (promise callbacks)

  const joined = await openConnect(store, "thread-1");
  if (joined === undefined) throw new Error("expected the thread to be known");
  const frames = lastValueFrom(joined.frames.pipe(toArray()));
  resume.open();
  const [sent, connect] = await Promise.all([recorded, frames]);
  live.push(...sent);

  const events = connect.map((frame) => frame.event);
  expect(events.slice(0, 4).map((event) => event.type)).toEqual(["RUN_STARTED", "MESSAGES_SNAPSHOT", "STATE_SNAPSHOT", "TEXT_MESSAGE_START"]);
  expect(events[1]).toMatchObject({ messages: [{ id: "u1" }, { id: "a-1", content: "The answer " }] });
  await expectAccepted(events);
  // after the prelude, the joining client got exactly what the live client got, with the same ids
  const prelude = connect.findIndex((frame) => frame.cursor !== undefined) + 1;
  expect(connect.slice(prelude).map(asLogged)).toEqual(live.slice(live.findIndex((stored) => stored.cursor === connect[prelude - 1].cursor) + 1));

  const reloaded = await reload("thread-1", events);
  expect(reloaded.messages).toEqual([
    { id: "u1", role: "user", content: "What is the answer?" },
    { id: "a-1", role: "assistant", content: "The answer is 42." },
  ]);
  expect(reloaded.rawState).toEqual({ stage: "done" });
});

test("a stop requested through the store reaches the producer, which ends the run cancelled", async () => {
  const store = memoryStore();
  const started = gate();
  const agent: Agent = {
    async run(ctx) {
      ctx.say("Working on it.");
      started.open();
      await new Promise<void>((resolve) => ctx.signal.addEventListener("abort", () => resolve(), { once: true }));
      return success();
    },
  };
  const input = runAgentInput("thread-2", "run-1");
  const writer = await store.beginRun(input);
  // What the HTTP round wires into createHandler: a stop request aborts the run (unsubscribing the
  // driver aborts ctx.signal), and the run ends RUN_FINISHED with the cancelled outcome.
  const cancellable = new Observable<Event>((subscriber) => {
    const running = run(agent, input, { ids: sequentialIds("b") }).subscribe({
      next: (event) => subscriber.next(event),
      error: (error) => subscriber.error(error),
    });
    const stop = writer.stopRequested.subscribe(() => {
      running.unsubscribe();
      subscriber.next(ev.runFinished("thread-2", "run-1", { outcome: { type: "cancelled" } }));
      subscriber.complete();
    });
    return () => {
      running.unsubscribe();
      stop.unsubscribe();
    };
  });
  const recorded = lastValueFrom(cancellable.pipe(recordRun(writer), toArray()));
  await started.opened;
  expect(await store.stop("thread-2", "run-1")).toBe("stopping");
  const sent = await recorded;
  expect(sent[sent.length - 1].event).toMatchObject({ type: "RUN_FINISHED", outcome: { type: "cancelled" } });
  expect(await store.stop("thread-2", "run-1")).toBe("ended");
  const read = await store.read("thread-2");
  expect(read?.kind === "snapshot" && read.snapshot.run.status).toBe("cancelled");
  expect(read?.kind === "snapshot" && read.snapshot.messages.map((message) => message.content)).toEqual(["Working on it."]);
});

test("a reloaded Session rebuilt from an interrupted thread's connect stream waits on the same interrupts", async () => {
  const store = memoryStore();
  const agent: Agent = {
    async run(ctx) {
      ctx.say("I need your approval.");
      return interrupted(ctx.interrupt({ reason: "approve", message: "Delete the board?" }));
    },
  };
  const input = runAgentInput("thread-3", "run-1", { messages: [{ id: "u1", role: "user", content: "Clear the board." }] });
  const writer = await store.beginRun(input);
  await lastValueFrom(run(agent, input, { ids: sequentialIds("c") }).pipe(recordRun(writer), toArray()));
  const joined = await openConnect(store, "thread-3");
  if (joined === undefined) throw new Error("expected the thread to be known");
  const events = (await lastValueFrom(joined.frames.pipe(toArray()))).map((frame) => frame.event);
  const reloaded = await reload("thread-3", events);
  expect(reloaded.interrupts).toEqual([{ id: "c-2", reason: "approve", message: "Delete the board?" }]);
  expect(reloaded.messages.map((message) => message.id)).toEqual(["u1", "c-1"]);
  expect(reloaded.updates[reloaded.updates.length - 1]).toEqual({ kind: "done", end: { kind: "interrupted", interrupts: reloaded.interrupts } });
});

/**
 * A fresh Session on the connect stream, as a reloaded page would hold it. `resume([])` stands in
 * for `session.connect()` (the client round): a run that adds no message of its own.
 */
async function reload(threadId: string, events: readonly Event[]) {
  // the thread the page reloads: a Session refuses a RUN_STARTED of another thread (R7a)
  const session = new Session(new ReplayTransport(events), { threadId });
  const updates: Update<unknown>[] = await lastValueFrom(session.resume([]).pipe(toArray()));
  const problems = updates.filter((update) => update.kind === "error");
  expect(problems).toEqual([]);
  return { messages: session.messages, rawState: session.rawState, interrupts: session.interrupts, updates };
}
