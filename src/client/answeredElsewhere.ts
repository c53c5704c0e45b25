/**
 * Two pages on one thread may both take up a client tool call the thread waits for; the first
 * answer the server records wins (docs/threads.md#pending-client-tools). These say when a follow-up
 * run's refusal means "another session answered first", and take the loser's answers back out.
 */
import type { Message, ToolMessage } from "../protocol/messages";
import type { ClientError } from "../thread/ClientError";
import type { MessageList } from "../thread/reducers/MessageList";

/**
 * Whether `error`, the refusal of a follow-up run (whose only new messages are its tool results),
 * says that another session moved the thread first: 409 `run-active` (its follow-up is running),
 * 409 `history-conflict` (the thread moved meanwhile), 422 `history-forged` (a tool result for a
 * call that is no longer pending: it was answered, or a newer run closed it). The code is read
 * from the JSON body's `error` member, which the server writes first, so a body cut short by the
 * excerpt still names it.
 *
 * @example
 * answeredElsewhere(new ClientError("http", "…", { status: 422, body: '{"error":"history-forged","message":"…"}' })); // true
 */
export function answeredElsewhere(error: ClientError): boolean {
  const code = error.kind === "http" ? /^\s*\{\s*"error"\s*:\s*"([a-z-]+)"/.exec(error.body ?? "")?.[1] : undefined;
  return error.status === 409 ? code === "run-active" || code === "history-conflict" : error.status === 422 && code === "history-forged";
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
