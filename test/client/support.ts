/** Helpers for the client tests: collect a run's updates, build sessions over recorded events. */
import type { Event } from "../../src/protocol/events";
import { encodeSse } from "../../src/wire/encodeSse";
import { Session, type SessionOptions } from "../../src/client/Session";
import { ReplayTransport } from "../../src/client/transports/ReplayTransport";
import type { ClientError } from "../../src/thread/ClientError";
import type { Update } from "../../src/thread/Update";

/** All updates of a run, once it completed: the testing kit's `collectUpdates` (docs/testing.md#asserting-on-updates). */
export { collectUpdates as collect } from "../../src/testing/collectUpdates";

/** Deterministic ids: id-1, id-2, … */
export function counter(prefix = "id"): () => string {
  let n = 0;
  return () => `${prefix}-${++n}`;
}

/** A session replaying `events` for every run. */
export function replaySession<S = unknown>(events: readonly Event[] | string, options: Partial<SessionOptions<S>> = {}): Session<S> {
  return new Session<S>(new ReplayTransport(events), { threadId: "thread-1", newId: counter(), ...options });
}

/** The SSE body of `events`. */
export function sse(events: readonly Event[]): string {
  return events.map((event) => encodeSse(event)).join("");
}

export function errorsOf<S>(updates: readonly Update<S>[]): ClientError[] {
  return updates.flatMap((update) => (update.kind === "error" ? [update.error] : []));
}

export function kinds<S>(updates: readonly Update<S>[]): string[] {
  return updates.map((update) => update.kind);
}

/** The last update, asserted to be `done`. */
export function endOf<S>(updates: readonly Update<S>[]) {
  const last = updates[updates.length - 1];
  if (last?.kind !== "done") throw new Error(`the last update is ${last?.kind ?? "missing"}, expected done`);
  return last.end;
}

/** The run-end contract (docs/seeds.md#seed-001): exactly one done, last; failed preceded by an error. */
export function expectRunEndContract<S>(updates: readonly Update<S>[]): void {
  const dones = updates.filter((update) => update.kind === "done");
  expect(dones).toHaveLength(1);
  expect(updates[updates.length - 1].kind).toBe("done");
  const end = endOf(updates);
  if (end.kind === "failed") expect(updates[updates.length - 2]?.kind).toBe("error");
}
