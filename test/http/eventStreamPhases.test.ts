/** toEventStream's source phases that the HTTP suites do not reach: a parked source whose pick-up fails. */
import { Observable } from "rxjs";
import { ev } from "../../src/protocol/build";
import type { Event } from "../../src/protocol/events";
import { PARK_BYTES, toEventStream, type CursorFrame } from "../../src/server/http/toEventStream";
import { readAll } from "./loopback";

/** The events of an SSE body's `data:` lines (its frames carry `id:` lines too). */
const eventsOf = (text: string): Event[] => [...text.matchAll(/^data: (.*)$/gm)].map((match) => JSON.parse(match[1]) as Event);

test("a parked source whose resumeAfter throws when the reader comes back ends the stream with one RUN_ERROR STREAM_ERROR after what was queued", async () => {
  let sent = 0;
  const text = "x".repeat(8 * 1024);
  const source = new Observable<CursorFrame>((subscriber) => {
    for (let i = 0; i < 1000 && !subscriber.closed; i++) {
      sent++;
      subscriber.next({ event: ev.custom("chunk", { i, text }), cursor: `c${i}` });
    }
  });
  const resumedAfter: string[] = [];
  const body = toEventStream(source, {
    resumeAfter: (cursor) => {
      resumedAfter.push(cursor);
      throw new Error("the store is gone");
    },
  });
  const events = eventsOf(await readAll(body));
  const queued = events.slice(0, -1);
  expect(queued.length * text.length).toBeGreaterThanOrEqual(PARK_BYTES);
  expect(queued.length).toBeLessThan(sent); // parked: what the source said after that was for later
  expect(queued).toEqual(queued.map((_, i) => ev.custom("chunk", { i, text })));
  expect(resumedAfter).toEqual([`c${queued.length - 1}`]); // picked up after the last queued frame's cursor
  expect(events[events.length - 1]).toMatchObject({ type: "RUN_ERROR", code: "STREAM_ERROR", message: "the event stream failed: the store is gone" });
});
