/** How a sent user message shows in its run's Update stream (docs/client.md#updates): as every other message streams, `started`, its text, `ended`. */
import type { UserMessage } from "../protocol/messages";
import type { Update } from "../thread/Update";

/**
 * The `message` updates of a user message the session appended at `index` (a `send`): `started`,
 * then its text as one `content` change (a transcript printer that prints `content` deltas prints
 * it too; the text parts of a multimodal message joined by line breaks, none for a message without
 * text), then `ended`. Each carries the whole message, as every `message` update does.
 *
 * @example
 * sentMessageUpdates(0, { id: "u1", role: "user", content: "hi" }).map((update) => update.change.kind); // ["started", "content", "ended"]
 */
export function sentMessageUpdates(index: number, message: UserMessage): readonly Extract<Update, { kind: "message" }>[] {
  const at = { kind: "message", index, id: message.id, message } as const;
  const text = textOf(message);
  return [
    { ...at, change: { kind: "started" } },
    ...(text === "" ? [] : [{ ...at, change: { kind: "content", delta: text } } as const]),
    { ...at, change: { kind: "ended" } },
  ];
}

function textOf(message: UserMessage): string {
  const { content } = message;
  if (typeof content === "string") return content;
  return content.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("\n");
}
