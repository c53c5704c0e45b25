/**
 * Reading whole or partial SSE answers as events, and checking them, for the server benches: only
 * ever outside a timed path (the timed readers count frames and decode nothing), so that a figure
 * is printed only for a server that answered what its run wrote.
 */
import { lastValueFrom, of, toArray } from "rxjs";
import type { Event } from "../../src/protocol/events";
import { decodeSseFrames } from "../../src/wire/decodeSseFrames";
import { FrameCounter } from "../../test/support/sseFrames";

/**
 * A whole SSE answer's events.
 *
 * @example
 * const events = await readEvents(await postSse(url, input));
 */
export async function readEvents(response: Response): Promise<Event[]> {
  return eventsOf(await response.text());
}

/**
 * The events of an SSE text (a trailing incomplete frame is left out).
 *
 * @example
 * const events = await eventsOf('data: {"type":"RUN_STARTED","threadId":"t","runId":"r"}\\n\\n');
 */
export async function eventsOf(text: string): Promise<Event[]> {
  const frames = await lastValueFrom(of(text).pipe(decodeSseFrames(), toArray()));
  return frames.map((frame) => JSON.parse(frame.data) as Event); // our own server's frames
}

/**
 * The first `count` events of an answer that may not end (a connect to a run in flight); the rest is cancelled.
 *
 * @example
 * const prelude = await firstEvents(await postSse(`${url}/connect`, { threadId }), 4);
 */
export async function firstEvents(response: Response, count: number): Promise<Event[]> {
  if (!response.ok || response.body === null) throw new Error(`expected a 2xx SSE answer, got ${response.status}: ${await response.text()}`);
  const reader = response.body.getReader();
  const counter = new FrameCounter();
  const chunks: Uint8Array[] = [];
  while (counter.seen < count) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    counter.add(value);
  }
  await reader.cancel();
  return (await eventsOf(Buffer.concat(chunks).toString("utf8"))).slice(0, count);
}

/**
 * Before a connect's time counts: its prelude is RUN_STARTED, a MESSAGES_SNAPSHOT of the thread's
 * `messages`, STATE_SNAPSHOT, then `fourth` (RUN_FINISHED when idle, the re-opened message's
 * TEXT_MESSAGE_START when a run is in flight). Throws otherwise.
 *
 * @example
 * checkPrelude("memoryStore(), idle", prelude, 1_000, "RUN_FINISHED");
 */
export function checkPrelude(label: string, events: readonly Event[], messages: number, fourth: Event["type"]): void {
  const types = events.map((event) => event.type).join(",");
  const snapshot = events[1];
  const length = snapshot?.type === "MESSAGES_SNAPSHOT" ? snapshot.messages.length : -1;
  if (types !== `RUN_STARTED,MESSAGES_SNAPSHOT,STATE_SNAPSHOT,${fourth}` || length !== messages) {
    throw new Error(
      `${label}: expected the prelude RUN_STARTED, MESSAGES_SNAPSHOT of ${messages} messages, STATE_SNAPSHOT, ${fourth}, but got ${types} (${length} messages)`,
    );
  }
}

/**
 * Throws unless `events` are `expected`, event by event, as far as a text run tells them apart:
 * type, and delta text for TEXT_MESSAGE_CONTENT (the wire may add fields such as a timestamp).
 *
 * @example
 * checkSameRun("redisStore, one run", await readEvents(response), plan.events);
 */
export function checkSameRun(label: string, events: readonly Event[], expected: readonly Event[]): void {
  const key = (event: Event) => (event.type === "TEXT_MESSAGE_CONTENT" ? `${event.type}:${event.delta}` : event.type);
  for (let i = 0; i < Math.max(events.length, expected.length); i++) {
    const got = events[i] === undefined ? "nothing" : key(events[i]);
    const want = expected[i] === undefined ? "nothing" : key(expected[i]);
    if (got !== want) throw new Error(`${label}: expected ${expected.length} events, event ${i} ${want}, but got ${events.length}, event ${i} ${got}`);
  }
}
