/**
 * Where the conversation's edit, regenerate, copy and version controls go (docs/threads.md#edit-and-regenerate),
 * shared by the React and the Angular page: a question (a user message) can be edited; an answer
 * (everything after a question up to the next one) can be copied and asked again, from the answer's
 * last assistant message. Each carries the version arrows of its sibling group.
 */
import type { Message } from "../../src/protocol/messages";
import { messageText } from "./messageText";

/**
 * What one message shows under it:
 * - `question`: a user message; Edit replaces its text with `text` in an editor. Its versions are
 *   its edits (its group is named by its own id).
 * - `answer`: the last top-level assistant message of an answer; Copy copies `text` (the answer's
 *   assistant texts), Regenerate asks `questionId` again. Its versions are the answers to that
 *   question (its group is named by `firstId`, the answer's first message).
 *
 * @example
 * const controls = turnControls(messages).get(message.id);
 * if (controls?.kind === "question") startEditing(controls.text);
 */
export type TurnControls =
  | { readonly kind: "question"; readonly messageId: string; readonly text: string }
  | { readonly kind: "answer"; readonly questionId: string; readonly firstId: string; readonly text: string };

/**
 * The controls of every message that has some, by message id. An answer before any question (a
 * seeded greeting) has none: there is nothing to ask again. An answer still without an assistant
 * message (only tool results so far) has none yet. A subagent's messages never carry them: the
 * answer's controls sit on the page's own assistant messages.
 *
 * @example
 * turnControls([u1, a1, tool1, a2]).get("a2"); // { kind: "answer", questionId: "u1", firstId: "a1", text: "…" }
 */
export function turnControls(messages: readonly Message[]): ReadonlyMap<string, TurnControls> {
  const controls = new Map<string, TurnControls>();
  let index = 0;
  while (index < messages.length) {
    const question = messages[index];
    if (question.role === "user") controls.set(question.id, { kind: "question", messageId: question.id, text: messageText(question) });
    let end = index + 1;
    while (end < messages.length && messages[end].role !== "user") end++;
    if (question.role === "user" && end > index + 1) {
      const answer = messages.slice(index + 1, end);
      const own = answer.filter((message) => message.role === "assistant" && message.subagentRunId === undefined);
      const last = own.at(-1);
      if (last !== undefined) {
        const text = own
          .map(messageText)
          .filter((part) => part !== "")
          .join("\n\n");
        controls.set(last.id, { kind: "answer", questionId: question.id, firstId: answer[0].id, text });
      }
    }
    index = end;
  }
  return controls;
}

/**
 * The group a message's version arrows move through: a question's own id, an answer's first message.
 *
 * @example
 * session.branches(groupMessageId(controls));
 */
export function groupMessageId(controls: TurnControls): string {
  return controls.kind === "question" ? controls.messageId : controls.firstId;
}

/**
 * The version arrows' text and what they may do: "2 / 3", previous and next when there is one.
 * `undefined` when the group has one version (no arrows then).
 *
 * @example
 * versionLabel({ index: 1, count: 3 }); // { text: "2 / 3", hasPrevious: true, hasNext: true }
 */
export function versionLabel(
  branches: { readonly index: number; readonly count: number } | undefined,
): { readonly text: string; readonly hasPrevious: boolean; readonly hasNext: boolean } | undefined {
  if (branches === undefined || branches.count < 2) return undefined;
  return { text: `${branches.index + 1} / ${branches.count}`, hasPrevious: branches.index > 0, hasNext: branches.index < branches.count - 1 };
}
