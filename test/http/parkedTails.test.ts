/**
 * A tail whose reader stopped reading costs nothing per event (docs/http.md, "Readers that never
 * read"): once `PARK_BYTES` of frames wait unread, a `/connect` response lets the store's tail go
 * after the last queued frame, and when its reader has taken what waited it follows the store
 * again from that cursor: the reader gets every event once, in order, and nothing in between is
 * delivered to it while it does not read.
 */
import { Observable } from "rxjs";
import { ev } from "../../src/protocol/build";
import type { Event } from "../../src/protocol/events";
import { createHandler, type RunFunction } from "../../src/server/http/createHandler";
import { PARK_BYTES } from "../../src/server/http/toEventStream";
import { memoryStore, type MemoryStore } from "../../src/server/store/memory/memoryStore";
import type { Cursor, StoredEvent, ThreadStore } from "../../src/server/store/ThreadStore";
import { inputFor } from "./durable/support";
import { readAll } from "./loopback";

const never: RunFunction = () => new Observable<Event>(() => undefined);

/** `store`, with the tails it serves counted: how many follow it now, and where each began. */
function countingTails(store: MemoryStore): { store: ThreadStore; following: () => number; startedAfter: Cursor[] } {
  let following = 0;
  const startedAfter: Cursor[] = [];
  return {
    following: () => following,
    startedAfter,
    store: {
      beginRun: (input, options) => store.beginRun(input, options),
      read: (threadId, after, options) => store.read(threadId, after, options),
      stop: (threadId, runId, scope) => store.stop(threadId, runId, scope),
      list: (scope, query) => store.list(scope, query),
      update: (threadId, patch, scope) => store.update(threadId, patch, scope),
      remove: (threadId, scope) => store.remove(threadId, scope),
      history: (threadId, query, scope) => store.history(threadId, query, scope),
      selectBranch: (threadId, messageId, index, scope) => store.selectBranch(threadId, messageId, index, scope),
      listEvents: (scope) => store.listEvents(scope),
      enqueue: (entry, options) => store.enqueue(entry, options),
      cancelQueued: (threadId, id, reason, scope) => store.cancelQueued(threadId, id, reason, scope),
      queueEntry: (threadId, id, scope) => store.queueEntry(threadId, id, scope),
      queueChanges: (threadId, scope) => store.queueChanges(threadId, scope),
      tail: (threadId, after, scope) =>
        new Observable<StoredEvent>((subscriber) => {
          startedAfter.push(after);
          following++;
          const subscription = store.tail(threadId, after, scope).subscribe(subscriber);
          return () => {
            following--;
            subscription.unsubscribe();
          };
        }),
    },
  };
}

function connect(threadId: string): Request {
  return new Request("http://localhost/agent/connect", {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "text/event-stream" },
    body: JSON.stringify({ threadId }),
  });
}

test("a tail that stops reading lets the store go past PARK_BYTES, then follows it again from its last cursor: every event once, in order", async () => {
  const memory = memoryStore();
  const counted = countingTails(memory);
  const handler = createHandler(never, { store: counted.store });
  const writer = await memory.beginRun(inputFor("t1", "r1"));
  await writer.append([ev.textMessageStart("m1")]);
  const response = await handler(connect("t1"));
  expect(response.status).toBe(200);
  const reader = response.body!.getReader();
  const first = await reader.read(); // the prelude: the tail follows the store from here
  expect(new TextDecoder().decode(first.value)).toContain('"RUN_STARTED"');
  expect(counted.following()).toBe(1);

  const delta = (i: number): Event => ev.textMessageContent("m1", `${String(i).padStart(6, "0")}${"x".repeat(1000)}`);
  const unreadCount = Math.ceil((PARK_BYTES * 1.5) / 1000);
  for (let i = 0; i < unreadCount; i++) await writer.append([delta(i)]);
  expect(counted.following()).toBe(0); // let go: nothing more is delivered to it while it does not read
  const parkedAfter = counted.startedAfter.length;
  for (let i = unreadCount; i < unreadCount + 100; i++) await writer.append([delta(i)]);
  await writer.append([ev.textMessageEnd("m1"), ev.runFinished("t1", "r1")]);
  expect(counted.startedAfter.length).toBe(parkedAfter); // nothing followed the store while it was parked

  const text = await readAll(reader);
  expect(counted.startedAfter.length).toBeGreaterThan(1); // picked up again, after a cursor it had sent
  const frames = text.split("\n\n").filter((frame) => frame.length > 0);
  // the rest of the prelude has no id (its one cursor is on its last frame); every frame after it has one
  const tailFrames = frames.slice(frames.findIndex((frame) => frame.includes('"TEXT_MESSAGE_CONTENT"')));
  const ids = tailFrames.map((frame) => /^id: (.+)$/m.exec(frame)?.[1]);
  expect(ids.every((id) => id !== undefined)).toBe(true);
  expect(new Set(ids).size).toBe(ids.length); // no frame twice
  for (const after of counted.startedAfter.slice(1)) expect(ids).toContain(after); // each pick-up after a cursor this reader was sent
  const contents = frames.filter((frame) => frame.includes('"TEXT_MESSAGE_CONTENT"')).map((frame) => Number(/"delta":"(\d{6})/.exec(frame)?.[1]));
  expect(contents).toEqual(Array.from({ length: unreadCount + 100 }, (_, i) => i)); // every event once, in order
  expect(frames[frames.length - 1]).toContain('"RUN_FINISHED"');
  expect(counted.following()).toBe(0);
});

test("a tail that reads as frames arrive is never let go", async () => {
  const memory = memoryStore();
  const counted = countingTails(memory);
  const handler = createHandler(never, { store: counted.store });
  const writer = await memory.beginRun(inputFor("t2", "r1"));
  await writer.append([ev.textMessageStart("m1")]);
  const reader = (await handler(connect("t2"))).body!.getReader();
  await reader.read();
  const count = Math.ceil((PARK_BYTES * 2) / 1000);
  for (let i = 0; i < count; i++) {
    const next = reader.read();
    await writer.append([ev.textMessageContent("m1", "y".repeat(1000))]);
    expect((await next).done).toBe(false);
  }
  expect(counted.startedAfter.length).toBe(1);
  expect(counted.following()).toBe(1);
  await writer.append([ev.textMessageEnd("m1"), ev.runFinished("t2", "r1")]);
  await readAll(reader);
});
