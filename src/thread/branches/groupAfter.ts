/** Which sibling group a message of a path belongs to (docs/threads.md#the-tree), the same rule on the server and in the client. */
import type { Message } from "../../protocol/messages";

/** A path read by position (the reducer's `MessageList`, or an array through `pathOf`). */
export interface PathView {
  readonly length: number;
  at(index: number): Message;
}

/**
 * The id of the message the group of the message at `position` follows (`null`: the thread's
 * start). A user message's group follows the message before it (its edits are its siblings); any
 * other message belongs to the answer of the nearest user message before it, and an answer's
 * group follows that user message (regenerated answers are its siblings). A message before any
 * user message (a seeded system prompt) groups like a user message.
 *
 * @example
 * groupAfter(pathOf([u1, a1, t1]), 2); // "u1": the tool result is part of u1's answer
 */
export function groupAfter(path: PathView, position: number): string | null {
  if (path.at(position).role !== "user") {
    for (let index = position - 1; index >= 0; index--) if (path.at(index).role === "user") return path.at(index).id;
  }
  return position === 0 ? null : path.at(position - 1).id;
}

/**
 * An array as a `PathView`.
 *
 * @example
 * groupAfter(pathOf(session.messages), 3);
 */
export function pathOf(messages: readonly Message[]): PathView {
  return { length: messages.length, at: (index) => messages[index] };
}
