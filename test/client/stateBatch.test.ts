/**
 * STATE_DELTAs delivered in one batch (runInBatch: one SSE read) are applied as one (applyEvents):
 * one `state` update per run of deltas, every other update at its position with the state as it
 * stood there, a failing delta leaving the state as the one before it, and published states never
 * edited afterwards (untouched subtrees keep their identity).
 */
import { Observable } from "rxjs";
import { ev } from "../../src/protocol/build";
import type { Event } from "../../src/protocol/events";
import { applyEvents } from "../../src/client/applyEvents";
import { runInBatch } from "../../src/rx/runInBatch";
import { ClientState } from "../../src/thread/reducers/ClientState";
import type { Update } from "../../src/thread/Update";
import { Session } from "../../src/client/Session";
import { ReplayTransport } from "../../src/client/transports/ReplayTransport";
import { encodeSse } from "../../src/wire/encodeSse";

const START = ev.runStarted("t", "r");
const FINISH = ev.runFinished("t", "r");

/** The events as reads: each inner list is delivered in one batch, then the source completes. */
function reads(...batches: Event[][]): Observable<Event> {
  return new Observable<Event>((subscriber) => {
    for (const batch of batches) runInBatch(() => batch.forEach((event) => subscriber.next(event)));
    subscriber.complete();
  });
}

function run(source: Observable<Event>, state = ClientState.untyped()): Update[] {
  const updates: Update[] = [];
  source.pipe(applyEvents({ state })).subscribe((update) => updates.push(update));
  return updates;
}

function label(update: Update): string {
  if (update.kind === "state") return `state ${JSON.stringify(update.rawState)}`;
  if (update.kind === "error") return `error ${update.error.kind}`;
  if (update.kind === "message") return `message ${update.change.kind}`;
  if (update.kind === "done") return `done ${update.end.kind}`;
  return update.kind;
}

const set = (n: number) => ev.stateDelta([{ op: "replace", path: "/n", value: n }]);

describe("applyEvents: STATE_DELTAs of one delivery batch", () => {
  test("a run of deltas in one read is one state update, the last; each read publishes its own", () => {
    const updates = run(reads([START, ev.stateSnapshot({ n: 0 }), set(1), set(2), set(3)], [set(4), set(5)], [FINISH]));
    expect(updates.map(label)).toEqual(['state {"n":0}', 'state {"n":3}', 'state {"n":5}', "done success"]);
  });

  test("every other update keeps its position, the state published right before it (flush before message and error)", () => {
    const updates = run(
      reads([START, ev.stateSnapshot({ n: 0 }), set(1), ev.textMessageStart("m"), set(2), set(3), ev.textMessageContent("m", "hi"), set(4), FINISH]),
    );
    expect(updates.map(label)).toEqual([
      'state {"n":0}',
      'state {"n":1}',
      "message started",
      'state {"n":3}',
      "message content",
      'state {"n":4}',
      "done success",
    ]);
  });

  test("a delta that fails: the error where it happened, after the state as the previous delta left it; later deltas go on from there", () => {
    const state = ClientState.untyped();
    const bad = ev.stateDelta([
      { op: "replace", path: "/n", value: 99 },
      { op: "remove", path: "/missing" },
    ]);
    const badSingle = ev.stateDelta([{ op: "replace", path: "/deep/missing", value: 1 }]);
    const updates = run(reads([START, ev.stateSnapshot({ n: 0, deep: {} }), set(1), set(2), bad, badSingle, set(3), FINISH]), state);
    expect(updates.map(label)).toEqual([
      'state {"n":0,"deep":{}}',
      'state {"n":2,"deep":{}}',
      "error patch",
      "error patch",
      'state {"n":3,"deep":{}}',
      "done success",
    ]);
    expect(state.rawState).toEqual({ n: 3, deep: {} });
  });

  test("published states are never edited by later deltas; untouched subtrees keep their identity", () => {
    const snapshot = { a: { items: [{ done: false }, { done: false }] }, b: { items: [{ done: false }] } };
    const tick = (i: number, done: boolean) => ev.stateDelta([{ op: "replace", path: `/a/items/${i}/done`, value: done }]);
    const updates = run(reads([START, ev.stateSnapshot(snapshot)], [tick(0, true), tick(1, true)], [tick(0, false)], [FINISH]));
    const states = updates
      .filter((update) => update.kind === "state")
      .map((update) => (update.kind === "state" ? (update.rawState as typeof snapshot) : snapshot));
    expect(states).toHaveLength(3);
    const [first, second, third] = states;
    expect(first).toEqual(snapshot);
    expect(second).toEqual({ a: { items: [{ done: true }, { done: true }] }, b: { items: [{ done: false }] } });
    expect(third).toEqual({ a: { items: [{ done: false }, { done: true }] }, b: { items: [{ done: false }] } });
    expect(second.b).toBe(first.b);
    expect(third.b).toBe(first.b);
    expect(third.a.items[1]).toBe(second.a.items[1]);
    expect(third.a).not.toBe(second.a);
  });

  test("events delivered one at a time (no batch) give one state update per delta", () => {
    const one = new Observable<Event>((subscriber) => {
      [START, ev.stateSnapshot({ n: 0 }), set(1), set(2), FINISH].forEach((event) => subscriber.next(event));
      subscriber.complete();
    });
    expect(run(one).map(label)).toEqual(['state {"n":0}', 'state {"n":1}', 'state {"n":2}', "done success"]);
  });

  test("the source ending in a batch of deltas (truncated) publishes them before the error", () => {
    expect(run(reads([START, ev.stateSnapshot({ n: 0 }), set(1), set(2)])).map(label)).toEqual([
      'state {"n":0}',
      'state {"n":2}',
      "error decode",
      "done failed",
    ]);
  });
});

describe("Session over an SSE body: the deltas of one read", () => {
  test("one state update for the read's run of deltas; the session's state is the last", () => {
    const deltas = Array.from({ length: 50 }, (_, i) => ev.stateDelta([{ op: "add", path: `/k${i}`, value: i }]));
    const body = [ev.runStarted("t", "r"), ev.stateSnapshot({}), ...deltas, ev.runFinished("t", "r")].map((event) => encodeSse(event)).join("");
    const session = new Session(new ReplayTransport(body), { threadId: "t" });
    const updates: Update[] = [];
    session.send("go").subscribe((update) => updates.push(update));
    const states = updates.filter((update) => update.kind === "state");
    expect(states).toHaveLength(2);
    expect(session.rawState).toEqual(Object.fromEntries(deltas.map((_, i) => [`k${i}`, i])));
    expect(updates[updates.length - 1]).toMatchObject({ kind: "done", end: { kind: "success" } });
  });
});
