import type { Event } from "../protocol/events";

/**
 * Encodes one event as one SSE frame, exactly `data: <compact JSON>\n\n` (docs/wire.md#6.3): one `data:`
 * line, LF line ends, no `event:`/`id:` fields, no comments. JSON escapes every line break inside
 * strings, so one line always suffices. The event is written as it is (keys in insertion order,
 * `undefined` members dropped); the `ev.*` builders already guarantee no `null` for an absent
 * optional member, so no per-event cleanup runs on this hot path. Throws what `JSON.stringify`
 * throws (a cycle or a `BigInt` inside a free-form payload).
 *
 * @example
 * encodeSse(ev.runStarted("t1", "r1"))
 * // 'data: {"type":"RUN_STARTED","threadId":"t1","runId":"r1"}\n\n'
 */
export function encodeSse(event: Event): string {
  return `data: ${JSON.stringify(event)}\n\n`;
}
