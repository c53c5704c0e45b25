/**
 * Where a Session's edit or regenerate forks its path (docs/threads.md#edit-and-regenerate): the
 * message the new sibling follows, how much of the path stays, and what is posted.
 */
import type { Message, UserMessage } from "../../protocol/messages";
import { ClientError } from "../../thread/ClientError";

/**
 * One fork of the session's path: the path keeps its first `keep` messages (it is cut right after
 * `forkAfter`, `null`: before the first), then `sent` (an edit's new user message) is appended.
 * `head` is the first message the cut took away (the sibling being replaced), `undefined` when the
 * cut took nothing (a regenerate of a question that was never answered: a plain continuation).
 *
 * @example
 * const plan: ForkPlan = { forkAfter: "a1", keep: 2, head: "u2", sent: { id: "u2e", role: "user", content: "Paris instead" } };
 */
export interface ForkPlan {
  readonly forkAfter: string | null;
  readonly keep: number;
  readonly head: string | undefined;
  readonly sent?: UserMessage;
}

/**
 * An edit of the user message `messageId` of `path`: a sibling with the id `newId` and `content`,
 * after the message before it. A `config` ClientError when `messageId` is not on the path or is
 * not a user message.
 *
 * @example
 * editPlan([u1, a1, u2, a2], "u2", "Paris instead", "u2e"); // { forkAfter: "a1", keep: 2, head: "u2", sent: … }
 */
export function editPlan(path: readonly Message[], messageId: string, content: UserMessage["content"], newId: string): ForkPlan | ClientError {
  const at = path.findIndex((message) => message.id === messageId);
  if (at < 0) return new ClientError("config", `edit: expected the id of a message on the session's path, but "${messageId}" is not one`);
  const edited = path[at];
  if (edited.role !== "user") return new ClientError("config", `edit: expected a user message, but "${messageId}" is a ${edited.role} message`);
  const sent: UserMessage = { ...edited, id: newId, content };
  return { forkAfter: at === 0 ? null : path[at - 1].id, keep: at, head: edited.id, sent };
}

/**
 * A regenerate of the answer to the user message at or before `messageId` (the path's last user
 * message without it): the path is kept up to that user message. A `config` ClientError when
 * `messageId` is not on the path or no user message comes at or before it.
 *
 * @example
 * regeneratePlan([u1, a1, u2, a2], "a2"); // { forkAfter: "u2", keep: 3, head: "a2" }
 */
export function regeneratePlan(path: readonly Message[], messageId?: string): ForkPlan | ClientError {
  let from = path.length - 1;
  if (messageId !== undefined) {
    from = path.findIndex((message) => message.id === messageId);
    if (from < 0) return new ClientError("config", `regenerate: expected the id of a message on the session's path, but "${messageId}" is not one`);
  }
  let at = from;
  while (at >= 0 && path[at].role !== "user") at--;
  if (at < 0) {
    const where = messageId === undefined ? "on the session's path" : `at or before "${messageId}"`;
    return new ClientError("config", `regenerate: expected a user message ${where} to answer again, but there is none`);
  }
  return { forkAfter: path[at].id, keep: at + 1, head: path[at + 1]?.id };
}
