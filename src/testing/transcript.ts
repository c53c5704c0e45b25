/**
 * A conversation as lines of text (docs/testing.md#asserting-on-updates): who said what, which
 * tools were called with what and what they answered. For asserting on the end state of a thread
 * (`session.messages`) without spelling out ids.
 */
import type { Message } from "../protocol/messages";

/**
 * One line per message, in order: `user: <text>`, `assistant: <text>`, then a line per tool call
 * (`assistant → get_weather({"city":"Paris"})`), `tool get_weather: <result>` (`tool get_weather failed: <error>`
 * when the result says it failed), `reasoning: <text>`, `system: …`, `developer: …`,
 * `activity PLAN: <content JSON>`. Non-text user content reads as its part types (`[image]`).
 *
 * @example
 * transcript(session.messages); // ["user: Ada", "assistant: Hello, Ada!"]
 */
export function transcript(messages: readonly Message[]): string[] {
  const toolNames = new Map<string, string>();
  const lines: string[] = [];
  for (const message of messages) {
    switch (message.role) {
      case "assistant":
        if (message.content !== undefined && message.content !== "") lines.push(`assistant: ${message.content}`);
        for (const call of message.toolCalls ?? []) {
          toolNames.set(call.id, call.function.name);
          lines.push(`assistant → ${call.function.name}(${call.function.arguments})`);
        }
        break;
      case "tool": {
        const name = toolNames.get(message.toolCallId) ?? message.toolCallId;
        lines.push(message.error === undefined ? `tool ${name}: ${textOf(message.content)}` : `tool ${name} failed: ${message.error}`);
        break;
      }
      case "user":
        lines.push(`user: ${textOf(message.content)}`);
        break;
      case "activity":
        lines.push(`activity ${message.activityType}: ${JSON.stringify(message.content)}`);
        break;
      case "reasoning":
      case "system":
      case "developer":
        lines.push(`${message.role}: ${message.content}`);
        break;
      default:
        lines.push(unknownRole(message));
    }
  }
  return lines;
}

/** A message's content as text: the string, or its text parts with the other parts as `[type]`. */
function textOf(content: string | readonly { readonly type: string; readonly text?: string }[]): string {
  if (typeof content === "string") return content;
  return content.map((part) => (part.type === "text" && part.text !== undefined ? part.text : `[${part.type}]`)).join("");
}

/** A role a later version adds: its name (the message union is open for extension). */
function unknownRole(message: never): string {
  const role: unknown = Reflect.get(message, "role");
  return String(role);
}
