/**
 * Task-board runs over HTTP for the reconnect and multi-instance tests: one conversation turn
 * through a Session (its updates, messages and state afterwards), following a turn's updates as
 * they come, and the comparison of a cut turn with an uncut one.
 */
import { lastValueFrom, tap, toArray, type Observable } from "rxjs";
import { Session } from "../../src/client/Session";
import type { HttpTransport } from "../../src/client/transports/HttpTransport";
import type { Update } from "../../src/thread/Update";
import { boardSpec, type Board } from "../../examples/task-board/board";
import { counter } from "../client/support";
import { canonicalIds } from "../http/durable/support";

/** Two tool calls, a researcher subagent in a step, state edits, streamed text: every kind of frame the board sends. */
export const COMMAND = "add buy milk; add call mom; research rxjs; done 1";

/** What one turn left behind. */
export interface BoardTurn {
  readonly updates: Update<Board>[];
  readonly messages: Session<Board>["messages"];
  readonly state: unknown;
}

/**
 * Sends `command` on a fresh session of `threadId` through `transport` and reads the turn to its end.
 *
 * @example
 * const { updates, messages, state } = await boardTurn(transport, "t1");
 */
export async function boardTurn(transport: HttpTransport, threadId: string, command = COMMAND, onUpdate?: (update: Update<Board>) => void): Promise<BoardTurn> {
  const session = new Session<Board>(transport, { threadId, state: boardSpec, newId: counter("u") });
  const updates = await lastValueFrom(
    session.send(command).pipe(
      tap((update) => onUpdate?.(update)),
      toArray(),
    ),
  );
  return { updates, messages: session.messages, state: session.rawState };
}

/** The updates without the connection notices a reconnect adds. */
export function withoutConnection(updates: readonly Update<Board>[]): Update<Board>[] {
  return updates.filter((update) => update.kind !== "connection");
}

/** Ids (which each run mints at random) replaced by their order of appearance, so two equal runs compare equal. */
export function comparable(value: unknown): string {
  return JSON.stringify(canonicalIds(value));
}

/**
 * Follows `updates` into `into`, resolving when they complete with the time of the last one (and
 * rejecting on an error, which a Session never sends).
 *
 * @example
 * const ended = follow(session.send(COMMAND), updates, (update) => update.kind === "message" && kill());
 */
export function follow(
  updates: Observable<Update<Board>>,
  into: Update<Board>[],
  onUpdate: (update: Update<Board>) => void = () => undefined,
): Promise<number> {
  return new Promise<number>((resolve, reject) =>
    updates.subscribe({
      next: (update) => {
        into.push(update);
        onUpdate(update);
      },
      error: reject,
      complete: () => resolve(Date.now()),
    }),
  );
}

/**
 * Checks a turn whose connection was cut against the uncut `reference`: no error, one `done` and
 * last, the same messages and state; then tells how it recovered. A turn cut after its first frame
 * resumed through Last-Event-ID, so its updates are exactly the reference's (`"exact"`). Only a
 * turn cut before its first frame may differ: nothing of it was applied before the cut (just the
 * user's own message), and it was rebuilt from the thread's compacted snapshot (`"rebuilt"`).
 *
 * @example
 * if (checkCutTurn(`run ${i}`, turn, reference) === "exact") exact++;
 */
export function checkCutTurn(context: string, turn: BoardTurn, reference: BoardTurn): "exact" | "rebuilt" {
  const { updates, messages, state } = turn;
  expect({ context, errors: updates.filter((update) => update.kind === "error") }).toEqual({ context, errors: [] });
  expect({ context, dones: updates.filter((update) => update.kind === "done").length, last: updates[updates.length - 1].kind }).toEqual({
    context,
    dones: 1,
    last: "done",
  });
  expect({ context, messages: comparable(messages), state }).toEqual({ context, messages: comparable(reference.messages), state: reference.state });
  const seen = withoutConnection(updates);
  if (comparable(seen) === comparable(reference.updates)) return "exact";
  const beforeCut = updates.slice(
    0,
    updates.findIndex((update) => update.kind === "connection"),
  );
  // The user's own message only: its start, its content and its end (docs/client.md#updates).
  const described = beforeCut.map((update) => (update.kind === "message" ? `${update.message.role} ${update.change.kind}` : update.kind));
  expect({ context, beforeCut: described }).toEqual({ context, beforeCut: ["user started", "user content", "user ended"] });
  expect({ context, rebuiltFrom: seen[beforeCut.length]?.kind }).toEqual({ context, rebuiltFrom: "messages" });
  return "rebuilt";
}
