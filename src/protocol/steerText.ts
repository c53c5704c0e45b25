/** The text of a message that can be steered into a live run (docs/queue.md#policies: text only for steering). */
import type { UserMessage } from "./messages";

/**
 * The text a steer carries: the content itself when it is a string, the text parts joined in order
 * when every part is text; `undefined` when any part is not text (an image, audio, a file …), which
 * cannot be a steer: the handler answers it 422 `steer-not-text`, and a run never takes one.
 *
 * @example
 * steerText({ id: "u2", role: "user", content: "Shorter, please" }); // "Shorter, please"
 * steerText({ id: "u3", role: "user", content: [{ type: "text", text: "in " }, { type: "text", text: "French" }] }); // "in French"
 * steerText({ id: "u4", role: "user", content: [{ type: "image", source: { type: "url", value: "https://example.com/a.png" } }] }); // undefined
 */
export function steerText(message: UserMessage): string | undefined {
  const { content } = message;
  if (typeof content === "string") return content;
  let text = "";
  for (const part of content) {
    if (part.type !== "text") return undefined;
    text += part.text;
  }
  return text;
}
