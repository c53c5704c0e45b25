/** The text of a message's content, which is a string or (user messages, tool results) a list of parts. */
import type { Message } from "../../src/protocol/messages";

/**
 * The message's text: its `content` when that is a string, the text parts joined with blank lines
 * when it is a list of parts (media parts have no text to show here), and `""` otherwise.
 *
 * @example
 * messageText({ id: "u1", role: "user", content: [{ type: "text", text: "hi" }] }) // "hi"
 */
export function messageText(message: Message): string {
  const content = message.content;
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return ""; // an activity message's content is a JSON object, not text
  const texts: string[] = [];
  for (const part of content) if (part.type === "text") texts.push(part.text);
  return texts.join("\n\n");
}
