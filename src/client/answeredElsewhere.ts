/**
 * Two pages on one thread may both take up a client tool call the thread waits for; the first
 * answer the server records wins (docs/threads.md#pending-client-tools). These say when a follow-up
 * run's refusal means "another session answered first", and take the loser's answers back out.
 */
import type { Message, ToolMessage } from "../protocol/messages";
import type { ClientError } from "../thread/ClientError";
import type { MessageList } from "../thread/reducers/MessageList";

/**
 * The server's refusals of a follow-up run (whose only new messages are its tool results) that
 * mean another session moved the thread first: 409 `run-active` (its follow-up is running),
 * 409 `history-conflict` (the thread moved meanwhile), 422 `history-forged` (a tool result for a
 * call that is no longer pending: it was answered, or a newer run closed it).
 */
const MOVED_ON: ReadonlyMap<number, ReadonlySet<string>> = new Map([
  [409, new Set(["run-active", "history-conflict"])],
  [422, new Set(["history-forged"])],
]);

/**
 * Whether `error`, the refusal of a follow-up run, says that another session answered the calls
 * first (see `MOVED_ON`). The code is read from the JSON body's `error` member, which the server
 * writes first, so a body cut short by the excerpt still names it.
 *
 * @example
 * answeredElsewhere(new ClientError("http", "…", { status: 422, body: '{"error":"history-forged","message":"…"}' })); // true
 */
export function answeredElsewhere(error: ClientError): boolean {
  if (error.kind !== "http" || error.status === undefined || error.body === undefined) return false;
  const codes = MOVED_ON.get(error.status);
  const code = /^\s*\{\s*"error"\s*:\s*"([a-z-]+)"/.exec(error.body)?.[1];
  return codes !== undefined && code !== undefined && codes.has(code);
}

/**
 * Removes `answers` from the end of `list`, where the loop appended them; `undefined` (and the
 * list untouched) when they are not its last messages any more.
 *
 * @example
 * takeBackAnswers(store.messages, [toolMessage]); // the messages as they were before the answers
 */
export function takeBackAnswers(list: MessageList, answers: readonly ToolMessage[]): readonly Message[] | undefined {
  const start = list.length - answers.length;
  if (answers.length === 0 || start < 0) return undefined;
  for (let i = 0; i < answers.length; i++) if (list.at(start + i).id !== answers[i].id) return undefined;
  for (let i = 0; i < answers.length; i++) list.removeLast();
  return list.snapshot();
}
