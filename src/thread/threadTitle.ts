/**
 * What a thread list shows of a conversation (docs/threads.md#the-thread-list): a title taken from
 * the first user message and a preview of the last message, both plain text cut to a readable
 * length at a word boundary. Both stores use these, so a thread reads the same on either.
 */
import type { Message } from "../protocol/messages";
import type { MessagePreview } from "./threadList";

/** The longest default title, in characters (a sidebar row). */
export const TITLE_LENGTH = 60;

/** The longest preview of the last message, in characters. */
export const PREVIEW_LENGTH = 120;

/**
 * The default title of a thread: the text of its first user message with whitespace collapsed,
 * cut to `TITLE_LENGTH` characters at a word boundary (an ellipsis marks the cut), or `""` when no
 * user message has text yet.
 *
 * @example
 * defaultTitle([{ id: "u1", role: "user", content: "Plan a weekend in Lisbon" }]); // "Plan a weekend in Lisbon"
 */
export function defaultTitle(messages: readonly Message[]): string {
  for (const message of messages) {
    if (message.role !== "user") continue;
    const text = plainText(message);
    if (text !== "") return cut(text, TITLE_LENGTH);
  }
  return "";
}

/**
 * The preview of a thread's last message that has text (`undefined` when none has): its role and
 * its text cut to `PREVIEW_LENGTH` characters. Activity messages carry data, not text, and are passed over.
 *
 * @example
 * previewOf([{ id: "m1", role: "assistant", content: "Sure, here it is." }]); // { role: "assistant", preview: "Sure, here it is." }
 */
export function previewOf(messages: readonly Message[]): MessagePreview | undefined {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index];
    const text = plainText(message);
    if (text !== "") return { role: message.role, preview: cut(text, PREVIEW_LENGTH) };
  }
  return undefined;
}

/** A message's text with runs of whitespace collapsed to one space: its string content, or its text parts joined. */
function plainText(message: Message): string {
  switch (message.role) {
    case "activity":
      return "";
    case "assistant":
      return collapse(message.content ?? "");
    case "user":
    case "tool":
      return collapse(
        typeof message.content === "string" ? message.content : message.content.flatMap((part) => (part.type === "text" ? [part.text] : [])).join(" "),
      );
    case "developer":
    case "system":
    case "reasoning":
      return collapse(message.content);
    default: {
      const unexpected: never = message;
      return unexpected;
    }
  }
}

function collapse(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** `text` if it fits in `length` characters, else its longest prefix ending at a word boundary (or a hard cut for one long word) and an ellipsis. */
function cut(text: string, length: number): string {
  if (text.length <= length) return text;
  const hard = text.slice(0, length - 1);
  const space = hard.lastIndexOf(" ");
  return `${space > length / 2 ? hard.slice(0, space) : hard}…`;
}
