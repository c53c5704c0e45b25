/**
 * A run whose stream is answered with a snapshot after events of it were already applied (a
 * restart, docs/durability.md#stores-and-routes) ends with the uncut run's messages in the uncut
 * order, wherever the cuts fell. The task-board run of the concurrent-cuts test (two tool calls,
 * a researcher subagent, then `complete_task`, whose result the reducer puts right after the other
 * results, before the researcher's message), cut at every frame boundary: the client first got
 * either the run's own events up to there (a resume whose cursor the store no longer kept) or the
 * thread's compacted prelude at that point cut before its last frame (a `/connect` that was cut
 * inside its prelude, so it has no `id:` to resume from), then the server's prelude at every later
 * point and the rest of the run. The preludes are the server's own (`ThreadFold` and
 * `connectPrelude`, what `/connect` sends); the client is a Session, as in the HTTP tests.
 */
import { from, lastValueFrom, tap, toArray, type Observable } from "rxjs";
import { createTaskBoardAgent } from "../../examples/task-board/agent";
import { boardSpec, type Board } from "../../examples/task-board/board";
import type { Event } from "../../src/protocol/events";
import type { RunAgentInput } from "../../src/protocol/input";
import type { Message } from "../../src/protocol/messages";
import { run } from "../../src/server/run";
import { connectPrelude } from "../../src/server/store/connectStream";
import { ThreadFold } from "../../src/thread/ThreadFold";
import { Session } from "../../src/client/Session";
import { ConnectionNotice } from "../../src/client/transports/ConnectionNotice";
import type { Transport } from "../../src/client/transports/Transport";
import type { DecodeWarning } from "../../src/wire/DecodeWarning";
import { COMMAND } from "../support/boardTurns";
import { counter } from "./support";

type Item = Event | DecodeWarning | ConnectionNotice;

/** A transport whose run answers with `answer(input)`, as a reconnecting HttpTransport hands its items on. */
class ScriptedTransport implements Transport {
  constructor(private readonly answer: (input: RunAgentInput) => Observable<Item>) {}
  run(input: RunAgentInput): Observable<Item> {
    return this.answer(input);
  }
}

/** One turn of the board on a fresh session (the same ids every time: the session's and the recorded run's). */
async function turn(answer: (input: RunAgentInput) => Observable<Item>) {
  const session = new Session<Board>(new ScriptedTransport(answer), { threadId: "board", state: boardSpec, newId: counter("u") });
  const updates = await lastValueFrom(session.send(COMMAND).pipe(toArray()));
  return { updates, messages: session.messages, state: session.rawState };
}

/** The reconnect after a cut, answered with a snapshot: `restart` once events of the run were applied. */
function reconnected(restart: boolean): Item[] {
  return [new ConnectionNotice("reconnecting", 1), new ConnectionNotice("connected", 1, restart)];
}

/** The uncut run's events as the server logs them (its RUN_STARTED with the posted input, as the store folds it). */
const logged: Event[] = [];
/** `preludes[k]`: what `/connect` sends for the thread right after `logged[k]` (the server's own fold and prelude). */
let preludes: Event[][] = [];
let reference: Awaited<ReturnType<typeof turn>>;

beforeAll(async () => {
  reference = await turn((input) =>
    run(createTaskBoardAgent(), input).pipe(tap((event) => logged.push(event.type === "RUN_STARTED" ? { ...event, input } : event))),
  );
  const fold = new ThreadFold("board");
  preludes = logged.map((event, index) => {
    fold.apply(event, `c${index}`);
    const snapshot = fold.snapshot();
    if (snapshot === undefined) throw new Error(`expected a snapshot after event ${index}`);
    return connectPrelude(snapshot, { reconnect: true });
  });
});

/** The messages a prelude's MESSAGES_SNAPSHOT holds. */
function snapshotOf(prelude: readonly Event[]): readonly Message[] {
  const snapshot = prelude.find((event) => event.type === "MESSAGES_SNAPSHOT");
  if (snapshot?.type !== "MESSAGES_SNAPSHOT") throw new Error("expected a prelude with a MESSAGES_SNAPSHOT");
  return snapshot.messages;
}

/**
 * Whether `later` puts a message that `earlier` lacks before one it has: then merging `later`
 * into a list built as `earlier` (docs/rules.md#A10: held messages keep their place, new ones are
 * appended) would give another order than `later`'s.
 */
function insertsBefore(earlier: readonly Message[], later: readonly Message[]): boolean {
  const held = new Set(earlier.map((message) => message.id));
  const firstNew = later.findIndex((message) => !held.has(message.id));
  return firstNew >= 0 && later.slice(firstNew).some((message) => held.has(message.id));
}

test("the uncut reference run ends as the concurrent-cuts test's, complete_task's result before the researcher's message", () => {
  expect(reference.updates.filter((update) => update.kind === "error")).toEqual([]);
  expect(reference.updates[reference.updates.length - 1]).toEqual({ kind: "done", end: { kind: "success", result: { tasks: 2 } } });
  const shape = reference.messages.map((message) => (message.subagentRunId === undefined ? message.role : `subagent ${message.role}`));
  expect(shape).toEqual(["user", "assistant", "tool", "tool", "tool", "subagent assistant", "assistant"]);
  const last = preludes[preludes.length - 1];
  expect(snapshotOf(last)).toEqual(reference.messages);
});

test.each<[string, (k: number) => Item[]]>([
  // a resume whose cursor the store no longer kept: the run's own events, then a snapshot answer
  ["the run's own events", (k) => logged.slice(0, k + 1)],
  // cut before the run's first frame, then a /connect cut inside its prelude: no id: was received, so the next answer is a snapshot too
  ["a /connect prelude cut before its last frame", (k) => [...reconnected(false), ...preludes[k].slice(0, -1)]],
])("first %s up to every frame boundary, then a snapshot at every later one: the uncut messages in the uncut order, and state", async (_first, firstStream) => {
  const failures: string[] = [];
  let reordering = 0;
  for (let k = 0; k < logged.length - 1; k++) {
    for (let j = k; j < logged.length; j++) {
      if (insertsBefore(snapshotOf(preludes[k]), snapshotOf(preludes[j]))) reordering++;
      const items = [...firstStream(k), ...reconnected(true), ...preludes[j], ...logged.slice(j + 1)];
      const { updates, messages, state } = await turn(() => from(items));
      const errors = updates.flatMap((update) => (update.kind === "error" ? [update.error.message] : []));
      const last = updates[updates.length - 1];
      const order = JSON.stringify(messages) === JSON.stringify(reference.messages);
      if (errors.length > 0 || last?.kind !== "done" || !order || JSON.stringify(state) !== JSON.stringify(reference.state)) {
        failures.push(
          `cut after ${logged[k].type} (${k}), snapshot after ${logged[j].type} (${j}): ${errors.join("; ") || (order ? "state differs" : "messages differ")}`,
        );
      }
    }
  }
  // the sweep holds the cuts that broke: a later snapshot puts a message (complete_task's result) before one the client held (the researcher's)
  expect(reordering).toBeGreaterThan(0);
  expect({ failed: failures.length, first: failures.slice(0, 5) }).toEqual({ failed: 0, first: [] });
});
