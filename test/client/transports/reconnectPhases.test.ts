/** reconnecting's phases that the HTTP suites do not reach: a connection that fails after the run's terminal event; a waiting message's run started and already followed by another. */
import { lastValueFrom, NEVER, Observable, toArray } from "rxjs";
import { ev } from "../../../src/protocol/build";
import type { ConnectionNotice } from "../../../src/client/transports/ConnectionNotice";
import { StreamOpened, type StreamItem } from "../../../src/client/transports/fetchEventStream";
import { reconnecting, type ReconnectPlan } from "../../../src/client/transports/reconnecting";
import type { ResumePosition } from "../../../src/client/transports/ReconnectPlan";
import { QueueNoticeItem } from "../../../src/client/transports/QueueNoticeItem";
import type { Event } from "../../../src/protocol/events";
import { ClientError } from "../../../src/thread/ClientError";

function planFor(first: () => Observable<StreamItem | ConnectionNotice>): ReconnectPlan {
  return { first, again: () => NEVER, resumable: async () => false, learned: () => undefined, runId: "r1", config: {}, notices: false };
}

test("a connection that ends after the run's terminal event completes the output (the ending phase), without asking whether the server resumes", async () => {
  let asked = 0;
  const plan: ReconnectPlan = {
    ...planFor(
      () =>
        new Observable<StreamItem>((subscriber) => {
          subscriber.next(new StreamOpened(undefined, false));
          subscriber.next(ev.runStarted("t", "r1"));
          subscriber.next(ev.runFinished("t", "r1"));
          subscriber.error(new Error("the socket closed after the last frame"));
        }),
    ),
    resumable: async () => (asked++, true),
  };
  const out = await lastValueFrom(reconnecting(plan).pipe(toArray()));
  expect(out.map((item) => ("type" in item ? item.type : item))).toEqual(["RUN_STARTED", "RUN_FINISHED"]);
  expect(asked).toBe(0);
});

/** A waiting message's stream as the server answers it: its `StreamOpened`, the notices, then what `rest` adds before the end. */
function queuedAnswer(notices: readonly QueueNoticeItem["notice"][], rest: readonly Event[] = []): Observable<StreamItem> {
  return new Observable<StreamItem>((subscriber) => {
    subscriber.next(new StreamOpened(undefined, true, undefined, "r2"));
    for (const notice of notices) subscriber.next(new QueueNoticeItem(notice));
    for (const event of rest) subscriber.next(event);
    subscriber.complete(); // the body ends (a cut, or the server's whole answer)
  });
}

test("a waiting message's stream that says its run started and ends without its events errors once, saying the thread moved on, instead of asking again", async () => {
  const asked: ResumePosition[] = [];
  const plan: ReconnectPlan = {
    ...planFor(() => queuedAnswer([{ id: "r2", status: "queued" }])), // cut while it waited
    // every reconnect: the run started, but a later run followed it, so the server sends only the notice (docs/queue.md#on-the-wire)
    again: (position) => (asked.push(position), queuedAnswer([{ id: "r2", status: "started", runId: "r2" }])),
    resumable: async () => true,
    runId: undefined,
    config: { delay: 0 },
    notices: true,
    queue: true,
  };
  const failure = await lastValueFrom(reconnecting(plan).pipe(toArray())).then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(failure).toBeInstanceOf(ClientError);
  expect((failure as ClientError).kind).toBe("transport");
  expect((failure as ClientError).message).toContain('waiting message "r2" started as run "r2", but a later run followed it');
  expect(asked).toHaveLength(1);
  expect(asked[0]).toMatchObject({ queued: "r2", lastEventId: undefined });
});

test("a waiting message's stream cut after its run's first events reconnects as any run does", async () => {
  let reconnects = 0;
  const plan: ReconnectPlan = {
    ...planFor(() => queuedAnswer([{ id: "r2", status: "started", runId: "r2" }], [ev.runStarted("t", "r2")])),
    again: () => (reconnects++, queuedAnswer([], [ev.runFinished("t", "r2")])),
    resumable: async () => true,
    runId: undefined,
    config: { delay: 0 },
    notices: false,
    queue: true,
  };
  const out = await lastValueFrom(reconnecting(plan).pipe(toArray()));
  expect(out.filter((item): item is Event => "type" in item).map((event) => event.type)).toEqual(["RUN_STARTED", "RUN_FINISHED"]);
  expect(reconnects).toBe(1);
});
