/**
 * Task-board runs over HTTP for the multi-instance tests: one conversation turn through a Session
 * (its updates, messages and state afterwards), the comparison with an uncut run, and the Redis
 * connections an instance holds.
 */
import { lastValueFrom, tap, toArray } from "rxjs";
import { Session } from "../../../src/client/Session";
import type { HttpTransport } from "../../../src/client/transports/HttpTransport";
import type { Update } from "../../../src/client/Update";
import { boardSpec, type Board } from "../../../examples/task-board/board";
import { counter } from "../../client/support";
import { canonicalIds } from "../../http/durable/support";
import type { TestClient } from "./clients";

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
  const updates = await lastValueFrom(session.send(command).pipe(tap((update) => onUpdate?.(update)), toArray()));
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
 * The connections the Redis server has open whose names belong to one instance: its command
 * client (named `clientName`) and the two the store opens (`agui-rx:<store>:reader`, `…:signals`).
 *
 * @example
 * expect(await connectionsOf(admin, "A", a.store)).toEqual(["A", "agui-rx:k3x9:reader", "agui-rx:k3x9:signals"]);
 */
export async function connectionsOf(admin: TestClient, clientName: string, store: string): Promise<string[]> {
  const list: unknown = await admin.sendCommand(["CLIENT", "LIST"]);
  if (typeof list !== "string") throw new Error(`expected CLIENT LIST to answer a string, but got ${typeof list}`);
  const names = list
    .split("\n")
    .map((line) => /(?:^| )name=(\S*)/.exec(line)?.[1] ?? "")
    .filter((name) => name === clientName || name.startsWith(`agui-rx:${store}:`));
  return names.sort();
}
