/**
 * Heartbeats on the server's event streams (docs/http.md#heartbeats), on virtual time: a quiet
 * stream gets a comment line after `heartbeatMs` of silence and none sooner; the comment is no
 * event (no `id:`, nothing for the decoders); its timer lives only while a read waits, so an ended
 * or cancelled stream leaves none; the idle-write timeout still cuts a reader that stops reading;
 * and every SSE answer of `createHandler` announces the interval in `AGUI-Heartbeat`.
 */
import { lastValueFrom, of, Subject, toArray, type Observable } from "rxjs";
import { ev } from "../../src/protocol/build";
import type { Event } from "../../src/protocol/events";
import { HEARTBEAT_HEADER } from "../../src/protocol/heartbeat";
import { decodeSse } from "../../src/wire/decodeSse";
import { decodeSseFrames } from "../../src/wire/decodeSseFrames";
import { SseIdField } from "../../src/wire/SseControl";
import { success, type Agent } from "../../src/server/Agent";
import { createHandler } from "../../src/server/http/createHandler";
import { DEFAULT_HEARTBEAT_MS } from "../../src/server/http/heartbeatInterval";
import { IdleWriteError } from "../../src/server/http/IdleWriteError";
import { toEventStream, type CursorFrame } from "../../src/server/http/toEventStream";
import { memoryStore } from "../../src/server/store/memory/memoryStore";
import { ManualClock } from "../server/store/manualClock";
import { inputFor, until } from "./durable/support";
import { as, identifyByHeader } from "./threads/support";

const HEARTBEAT = ": heartbeat\n\n";
const text = new TextDecoder();

/** A read of the body that the test can look at before it settles. */
function watched(read: Promise<ReadableStreamReadResult<Uint8Array>>) {
  let settled = false;
  const done = read.finally(() => (settled = true));
  done.catch(() => undefined); // awaited by the test; this only keeps it from counting as unhandled meanwhile
  return { settled: () => settled, text: async () => text.decode((await done).value) };
}

/** A few turns of the event loop: whatever was due without a timer has happened. */
async function turns(count = 5): Promise<void> {
  for (let i = 0; i < count; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

const started = ev.runStarted("t1", "r1");
const finished = ev.runFinished("t1", "r1");

test("a quiet stream gets a comment after heartbeatMs of silence, none sooner, counted from the last write; its end leaves no timer", async () => {
  const clock = new ManualClock();
  const events = new Subject<CursorFrame>();
  const reader = toEventStream(events, { heartbeatMs: 1000, clock }).getReader();

  let read = watched(reader.read());
  await until(() => clock.pending === 1, "the read to wait with its heartbeat timer");
  clock.advance(999);
  await turns();
  expect(read.settled()).toBe(false);
  clock.advance(1);
  expect(await read.text()).toBe(HEARTBEAT);

  read = watched(reader.read());
  await turns();
  clock.advance(600);
  events.next({ event: started, cursor: "c1" });
  expect(await read.text()).toBe(`id: c1\ndata: ${JSON.stringify(started)}\n\n`);

  read = watched(reader.read());
  await turns();
  clock.advance(999); // 1999 ms after the start, 999 after the event: the silence is counted from the event
  await turns();
  expect(read.settled()).toBe(false);
  clock.advance(1);
  expect(await read.text()).toBe(HEARTBEAT);

  read = watched(reader.read());
  await turns();
  events.next({ event: finished, cursor: "c2" });
  events.complete();
  expect(await read.text()).toBe(`id: c2\ndata: ${JSON.stringify(finished)}\n\n`);
  expect((await reader.read()).done).toBe(true);
  expect(clock.pending).toBe(0);
});

test("a stream cancelled while its read waits leaves no heartbeat timer, and nothing is sent after", async () => {
  const clock = new ManualClock();
  const body = toEventStream(new Subject<Event>(), { heartbeatMs: 1000, clock });
  const reader = body.getReader();
  const read = watched(reader.read());
  await until(() => clock.pending === 1, "the heartbeat timer");
  await reader.cancel(new Error("the client went away"));
  await until(() => clock.pending === 0, "the timer to go with the stream");
  clock.advance(10_000);
  expect(await read.text()).toBe(""); // the read ends with the stream, without a heartbeat
});

test("heartbeats are no events: the decoders see the same events and ids with them as without, and Last-Event-ID stays the last event's", async () => {
  const body = `id: c1\ndata: ${JSON.stringify(started)}\n\n${HEARTBEAT}${HEARTBEAT}id: c2\ndata: ${JSON.stringify(finished)}\n\n${HEARTBEAT}`;
  const bare = body.split(HEARTBEAT).join("");
  const read = (sse: string) => lastValueFrom(of(sse).pipe(decodeSse({ controls: true }), toArray()));
  const withBeats = await read(body);
  expect(withBeats).toEqual(await read(bare));
  expect(withBeats).toEqual([new SseIdField("c1"), started, new SseIdField("c2"), finished]);
  // split at every byte, so a comment cut anywhere is still passed by
  const bytes = new TextEncoder().encode(body);
  const oneByOne = await lastValueFrom(of(...Array.from(bytes, (byte) => Uint8Array.of(byte))).pipe(decodeSse({ controls: true }), toArray()));
  expect(oneByOne).toEqual(withBeats);
  const frames = await lastValueFrom(of(body).pipe(decodeSseFrames(), toArray()));
  expect(frames.map((frame) => frame.data)).toEqual([JSON.stringify(started), JSON.stringify(finished)]);
});

test("the idle-write timeout still cuts a reader that stops reading: no heartbeat is queued while frames wait unread", async () => {
  const clock = new ManualClock();
  const events = new Subject<Event>();
  const reader = toEventStream(events, { heartbeatMs: 1000, idleWriteTimeoutMs: 5000, clock }).getReader();
  const first = watched(reader.read());
  await turns();
  events.next(started);
  expect(await first.text()).toBe(`data: ${JSON.stringify(started)}\n\n`);
  events.next(ev.textMessageStart("m1")); // queued while no read is pending
  clock.advance(5000);
  await expect(reader.read()).rejects.toBeInstanceOf(IdleWriteError);
  expect(clock.pending).toBe(0);
});

/** An agent that starts, then waits for `release` before it finishes: a run that goes quiet. */
function quietAgent(release: Promise<void>): Agent {
  return {
    async run() {
      await release;
      return success();
    },
  };
}

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  new Request(url, { method: "POST", headers: { "Content-Type": "application/json", Accept: "text/event-stream", ...headers }, body: JSON.stringify(body) });

test("every event stream of createHandler announces AGUI-Heartbeat (15 s by default): a run's, a stored run's, a /connect tail, the thread list's events", async () => {
  expect(DEFAULT_HEARTBEAT_MS).toBe(15_000);
  const plain = createHandler(quietAgent(Promise.resolve()));
  const stored = createHandler(quietAgent(Promise.resolve()), { store: memoryStore(), identify: identifyByHeader });
  const answers: [string, Response][] = [
    ["run", await plain(post("http://h/agent", inputFor("t1", "r1")))],
    ["stored run", await stored(post("http://h/agent", inputFor("t2", "r1"), as("alice")))],
    ["connect", await stored(post("http://h/agent/connect", { threadId: "t2" }, as("alice")))],
    ["list events", await stored(new Request("http://h/agent/threads/events", { headers: { Accept: "text/event-stream", ...as("alice") } }))],
  ];
  for (const [what, answer] of answers) {
    expect([what, answer.status, answer.headers.get("content-type"), answer.headers.get(HEARTBEAT_HEADER)]).toEqual([what, 200, "text/event-stream", "15"]);
    await answer.body?.cancel();
  }
});

test("heartbeatMs sets the interval and its announcement; false or 0 turns both off; a negative one is refused naming the option", async () => {
  const clock = new ManualClock();
  const handler = (heartbeatMs: number | false) => createHandler(quietAgent(Promise.resolve()), { heartbeatMs, clock });
  const announced = async (heartbeatMs: number | false) => {
    const answer = await handler(heartbeatMs)(post("http://h/agent", inputFor("t1", "r1")));
    await answer.text();
    return answer.headers.get(HEARTBEAT_HEADER);
  };
  expect(await announced(2500)).toBe("2.5");
  expect(await announced(false)).toBeNull();
  expect(await announced(0)).toBeNull();
  expect(() => handler(-1)).toThrow("expected heartbeatMs to be a positive number of ms, 0 or false (no heartbeats), but got -1");
  expect(clock.pending).toBe(0);
});

test("a run that goes quiet over createHandler: heartbeats while it is silent, its events as they come, and no timer once it ended", async () => {
  const clock = new ManualClock();
  const run$ = new Subject<Event>();
  const handler = createHandler((): Observable<Event> => run$, { heartbeatMs: 1000, clock });
  const answer = await handler(post("http://h/agent", inputFor("t1", "r1")));
  const reader = answer.body!.getReader();
  let read = watched(reader.read());
  await turns();
  run$.next(ev.runStarted("t1", "r1"));
  expect(await read.text()).toContain("RUN_STARTED");
  for (let beat = 0; beat < 3; beat++) {
    read = watched(reader.read());
    await until(() => clock.pending === 1, "the read to wait");
    clock.advance(1000);
    expect(await read.text()).toBe(HEARTBEAT);
  }
  read = watched(reader.read());
  await turns();
  run$.next(ev.runFinished("t1", "r1"));
  run$.complete();
  expect(await read.text()).toContain("RUN_FINISHED");
  expect((await reader.read()).done).toBe(true);
  expect(clock.pending).toBe(0);
});

test("a client that goes away during a quiet run leaves no heartbeat timer", async () => {
  const clock = new ManualClock();
  const handler = createHandler((): Observable<Event> => new Subject<Event>(), { heartbeatMs: 1000, clock });
  const gone = new AbortController();
  const request = new Request("http://h/agent", {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "text/event-stream" },
    body: JSON.stringify(inputFor("t1", "r1")),
    signal: gone.signal,
  });
  const answer = await handler(request);
  const reader = answer.body!.getReader();
  const read = reader.read();
  read.catch(() => undefined);
  await until(() => clock.pending === 1, "the heartbeat timer");
  gone.abort();
  await until(() => clock.pending === 0, "the timer to go with the stream");
});
