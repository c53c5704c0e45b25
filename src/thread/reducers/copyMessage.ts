/** A message that arrives whole (MESSAGES_SNAPSHOT, the RUN_STARTED echo) made into the session's own copy (docs/rules.md#A10, docs/rules.md#A15, docs/rules.md#A20). */
import type { Message } from "../../protocol/messages";
import { cloneJson, isJsonRecord } from "../../patch/json";
import { UNSAFE_METADATA_KEYS } from "./mergeMetadata";

/**
 * A deep copy of `message` that shares nothing with the event, with the metadata keys that could
 * reach an object prototype (`__proto__`, `constructor`, `prototype`) left out of its metadata and
 * of its tool calls' metadata: the same rule metadata merged from events follows (docs/rules.md#A20), so a key
 * refused on TEXT_MESSAGE_START is refused inside a snapshot too. `onRefused` hears of each key
 * left out. Cost: that of the copy.
 *
 * @example
 * copyMessage({ id: "u", role: "user", content: "hi", metadata: JSON.parse('{"__proto__":{"x":1}}') }, (key) => console.warn(key))
 * // { id: "u", role: "user", content: "hi", metadata: {} }; logs "__proto__"
 */
export function copyMessage(message: Message, onRefused: (key: string) => void): Message {
  const copy = cloneJson(message) as Message; // a deep copy of a Message is a Message
  dropUnsafeKeys(copy.metadata, onRefused);
  if (copy.role === "assistant" && copy.toolCalls !== undefined) for (const call of copy.toolCalls) dropUnsafeKeys(call.metadata, onRefused);
  return copy;
}

/** Removes the unsafe keys from a metadata object the caller owns (a fresh copy). */
function dropUnsafeKeys(metadata: unknown, onRefused: (key: string) => void): void {
  if (!isJsonRecord(metadata)) return;
  for (const key of Object.keys(metadata)) {
    if (!UNSAFE_METADATA_KEYS.has(key)) continue;
    delete metadata[key];
    onRefused(key);
  }
}
