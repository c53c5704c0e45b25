/** Shared assertions for the server tests: every stream we produce must satisfy our verifier and the official SDK. */
import { verifyEvents as officialVerifyEvents } from "@ag-ui/client";
import { EventSchemas } from "@ag-ui/core/schemas";
import { from, lastValueFrom, toArray, type Observable } from "rxjs";
import type { Event, EventType } from "../../src/protocol/events";
import { verifyEvents } from "../../src/operators/verifyEvents";

/** Subscribes, waits for completion, and returns every event. */
export function collect(events$: Observable<Event>): Promise<Event[]> {
  return lastValueFrom(events$.pipe(toArray()));
}

/** The `type` of each event. */
export function types(events: readonly Event[]): EventType[] {
  return events.map((event) => event.type);
}

/**
 * Asserts that `events` is a stream the rest of the world accepts: each event parses with
 * `@ag-ui/core` 1.0.0's `EventSchemas`, and the whole stream passes our strict verifier and
 * `@ag-ui/client` 1.0.0's `verifyEvents` unchanged.
 */
export async function expectAccepted(events: readonly Event[]): Promise<void> {
  for (const event of events) {
    const parsed = EventSchemas.safeParse(JSON.parse(JSON.stringify(event)));
    if (!parsed.success) throw new Error(`@ag-ui/core rejected ${JSON.stringify(event)}: ${parsed.error.message}`);
  }
  const ours = await lastValueFrom(from(events).pipe(verifyEvents({ mode: "strict" }), toArray()));
  expect(ours).toEqual(events);
  // The official operator is typed against its own copy of rxjs, so its types do not meet ours;
  // at run time observables interoperate. JSON copies: it sees exactly what would go on the wire.
  const officialVerify = officialVerifyEvents() as unknown as (source: Observable<unknown>) => Observable<unknown>;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-return -- a JSON copy of the events has their type
  const official = await lastValueFrom(officialVerify(from(events.map((event) => JSON.parse(JSON.stringify(event))))).pipe(toArray()));
  expect(official).toEqual(JSON.parse(JSON.stringify(events)));
}
