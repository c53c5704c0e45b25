/** Comparing what a store hands on with what it logged (docs/http.md, "Frames are encoded once and shared"). */
import type { ConnectFrame } from "../../src/server/store/connectStream";

/**
 * `stored` as its log holds it, cursor and event: a live tail may add the event's JSON text
 * (`StoredEvent.json`), which is checked here to be exactly `JSON.stringify(event)` (a frame
 * writes it in the event's place) and then left out.
 *
 * @example
 * expect((await lastValueFrom(store.tail(threadId, cursor).pipe(toArray()))).map(asLogged)).toEqual(log);
 */
export function asLogged<T extends ConnectFrame>(stored: T): Pick<T, "cursor" | "event"> {
  if (stored.json !== undefined) expect(stored.json).toBe(JSON.stringify(stored.event));
  return { cursor: stored.cursor, event: stored.event };
}
