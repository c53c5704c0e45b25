/**
 * Joining a thread over HTTP (issue #10 §5.2, §5.8): a reloaded page (a new Session with
 * connect()) during a run gets the history and the live rest and ends where the sending Session
 * ends; a joined stream cut mid-tail resumes too; and for any agent script and any cut point, the
 * connect stream over HTTP (prelude + tail, or the events after any cursor) passes both verifiers
 * and rebuilds the uncut thread.
 */
import fc from "fast-check";
import { lastValueFrom, Observable, toArray } from "rxjs";
import type { Event } from "../../../src/protocol/events";
import { Session } from "../../../src/client/Session";
import { HttpTransport } from "../../../src/client/transports/HttpTransport";
import { success, type Agent } from "../../../src/server/Agent";
import type { RunFunction } from "../../../src/server/http/createHandler";
import { expectAccepted } from "../../server/support";
import { clientAfter, endingArbitrary, freshClient, opArbitrary, recordThread } from "../../server/store/threads";
import { fuzzParameters } from "../../support/fuzz";
import { counter, errorsOf } from "../../client/support";
import { startCutProxy } from "../../support/cutProxy";
import { closeAll, framesOf, gate, openStream, postJson, serveStored, until } from "./support";

afterEach(closeAll);

/** Writes a first sentence, waits at `pause`, writes the rest and publishes the state. */
function pausedWriter(pause: { opened: Promise<void> }, halfway: { open(): void }): Agent {
  return {
    async run(ctx) {
      ctx.setState({ stage: "researching" });
      ctx.say("Looking it up.");
      const notes = ctx.assistantMessage();
      notes.delta("RxJS is ");
      halfway.open();
      await pause.opened;
      notes.delta("a library for reactive programming.");
      notes.end();
      ctx.setState({ stage: "done" });
      return success();
    },
  };
}

test("a reloaded page (a new Session, connect()) during a run: history, state, the open message, the live rest; both sessions end alike", async () => {
  const halfway = gate();
  const pause = gate();
  const { url } = await serveStored(pausedWriter(pause, halfway));
  const sender = new Session(new HttpTransport(url), { threadId: "board", newId: counter("u") });
  const sent = lastValueFrom(sender.send("research rxjs").pipe(toArray()));
  await halfway.opened;
  await until(() => sender.messages.some((message) => message.content === "RxJS is "), "the sender to see the first half");

  const reloaded = new Session(new HttpTransport(url), { threadId: "board", newId: counter("v") });
  const joined = lastValueFrom(reloaded.connect().pipe(toArray()));
  await until(() => reloaded.messages.length === 3, "the reloaded page to show the history");
  expect(reloaded.messages.map((message) => message.content)).toEqual(["research rxjs", "Looking it up.", "RxJS is "]);
  expect(reloaded.rawState).toEqual({ stage: "researching" });
  expect(reloaded.running).toBe(true);
  pause.open();
  const [senderUpdates, joinedUpdates] = await Promise.all([sent, joined]);
  for (const updates of [senderUpdates, joinedUpdates]) {
    expect(errorsOf(updates)).toEqual([]);
    expect(updates.filter((update) => update.kind === "done")).toEqual([{ kind: "done", end: { kind: "success" } }]);
  }
  expect(reloaded.messages).toEqual(sender.messages);
  expect(reloaded.rawState).toEqual({ stage: "done" });
  expect(reloaded.running).toBe(false);
  // a page loaded after the run joins its history and ends at once
  const later = new Session(new HttpTransport(url), { threadId: "board" });
  const afterwards = await lastValueFrom(later.connect().pipe(toArray()));
  expect(afterwards[afterwards.length - 1]).toEqual({ kind: "done", end: { kind: "success" } });
  expect(later.messages).toEqual(sender.messages);
});

test("a joined stream cut mid-tail resumes through Last-Event-ID: the joined session ends like the sender", async () => {
  const halfway = gate();
  const pause = gate();
  const { url, served } = await serveStored(pausedWriter(pause, halfway), { headers: { Connection: "close" } });
  const proxy = await startCutProxy(served.port);
  try {
    const sender = new Session(new HttpTransport(url), { threadId: "t", newId: counter("u") });
    const sent = lastValueFrom(sender.send("go").pipe(toArray()));
    await halfway.opened;
    // How long the prelude is while the run waits: a first connect through the proxy, read that far.
    const probe = await openStream(proxy.url("/agent/connect"), { threadId: "t" });
    await probe.until("TEXT_MESSAGE_START");
    const prelude = proxy.served[0];
    await probe.cancel();
    proxy.cutNext(prelude + 40); // the joined connection is cut 40 bytes into the live rest
    const joining = new Session(new HttpTransport(proxy.url("/agent"), { reconnect: { delay: 0 } }), { threadId: "t" });
    const joined = lastValueFrom(joining.connect().pipe(toArray()));
    await until(() => joining.messages.length === 3, "the prelude");
    pause.open();
    const [, updates] = await Promise.all([sent, joined]);
    expect(proxy.stats.cuts).toBe(1);
    expect(updates.filter((update) => update.kind === "connection").map((update) => update.kind === "connection" && update.status)).toEqual([
      "reconnecting",
      "connected",
    ]);
    expect(errorsOf(updates)).toEqual([]);
    expect(updates.filter((update) => update.kind === "done")).toEqual([{ kind: "done", end: { kind: "success" } }]);
    expect(joining.messages).toEqual(sender.messages);
    expect(joining.rawState).toEqual({ stage: "done" });
  } finally {
    await proxy.close();
  }
});

describe("property over HTTP: any agent script, any cut point", () => {
  /** A run function replaying recorded runs; the run `holdRun` pauses before its event `holdAt` until `release` opens. */
  function replaying(runs: { input: { runId: string }; events: readonly Event[] }[], holdRun: string, holdAt: number, release: Promise<void>): RunFunction {
    return (input) =>
      new Observable<Event>((subscriber) => {
        const recorded = runs.find((candidate) => candidate.input.runId === input.runId);
        if (recorded === undefined) throw new Error(`no recorded run ${input.runId}`);
        const events = recorded.events;
        const through = input.runId === holdRun ? holdAt : events.length;
        for (let i = 0; i < through && i < events.length; i++) subscriber.next(events[i]);
        if (through >= events.length) return subscriber.complete();
        void release.then(() => {
          for (let i = through; i < events.length; i++) subscriber.next(events[i]);
          subscriber.complete();
        });
      });
  }

  test("the connect stream passes both verifiers and rebuilds the uncut thread; after any cursor it continues the run exactly", async () => {
    const script = fc.record({ ops: fc.array(opArbitrary, { maxLength: 20 }), ending: endingArbitrary });
    let threadNo = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(script, { minLength: 1, maxLength: 2 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        async (scripts, cutAt, cursorAt) => {
          const threadId = `prop-${threadNo++}`;
          const runs = await recordThread(threadId, scripts);
          const last = runs[runs.length - 1];
          const holdAt = Math.max(1, Math.min(last.events.length, Math.ceil(cutAt * last.events.length))); // events sent before the pause
          const release = gate();
          // history "client": the thread must be exactly the recorded runs (the server's own history adds closing results after a cancelled run's open calls: docs/threads.md#what-a-request-may-add)
          const { url } = await serveStored(replaying(runs, last.input.runId, holdAt, release.opened), { history: "client" });
          try {
            for (const recorded of runs.slice(0, -1)) await postJson(url, recorded.input);
            const live = await openStream(url, last.input);
            await live.untilFrames(holdAt); // logged that far: the run is cut here
            const joined = await openStream(`${url}/connect`, { threadId });
            await joined.untilFrames(1); // the store was read: what follows is the live tail
            release.open();
            const liveFrames = await framesOf(await live.rest());
            const events = (await framesOf(await joined.rest())).map((frame) => frame.event);
            await expectAccepted(events);
            const { state, problems } = await freshClient(events);
            expect(problems).toEqual([]);
            const uncut = clientAfter(runs);
            expect(state.messages.snapshot()).toEqual(uncut.messages.snapshot());
            expect(state.rawState).toEqual(uncut.rawState);
            // after any cursor of the run but its last: exactly the rest of the run as its client got it
            const cursorIndex = Math.min(liveFrames.length - 2, Math.floor(cursorAt * (liveFrames.length - 1)));
            if (cursorIndex >= 0) {
              const rest = await framesOf((await postJson(`${url}/connect`, { threadId }, { "Last-Event-ID": liveFrames[cursorIndex].id ?? "" })).text);
              expect(rest).toEqual(liveFrames.slice(cursorIndex + 1));
            }
          } finally {
            release.open();
            await closeAll();
          }
        },
      ),
      fuzzParameters(40),
    );
  });
});
