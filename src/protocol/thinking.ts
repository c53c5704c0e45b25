/** Maps the deprecated `THINKING_*` events to their `REASONING_*` equivalents (docs/wire.md#7). */
import type { Event, ThinkingEvent } from "./events";

/**
 * Ids implied by nesting: the open thinking span and the open thinking message, if any.
 *
 * @example
 * const ids: ThinkingIds = { spanId: "r1" };
 */
export interface ThinkingIds {
  readonly spanId?: string;
  readonly messageId?: string;
}

/**
 * What one mapping step yields: the reasoning event, the event to send before it if any, and the
 * ids after it.
 *
 * @example
 * const { closing, event, ids } = mapThinkingEvent({ type: "THINKING_END" }, { spanId: "r1", messageId: "m1" }, newId);
 * // closing: REASONING_MESSAGE_END(m1), event: REASONING_END(r1), ids: {}
 */
export interface ThinkingStep {
  /**
   * Sent before `event`: the REASONING_MESSAGE_END of a thinking message still open at
   * THINKING_END. docs/rules.md#R23 lets THINKING_END end the message with the step; in REASONING_* terms the
   * message must be ended explicitly, or it would still be open at RUN_FINISHED (docs/rules.md#R7, docs/rules.md#R22).
   */
  readonly closing?: Event;
  readonly event: Event;
  readonly ids: ThinkingIds;
}

/**
 * Maps one `THINKING_*` event to its `REASONING_*` equivalent, given the ids of the open span and
 * message; `newId` mints an id where the thinking event implies a fresh one. Pure: the caller keeps
 * `ids` between calls. `title` is dropped (no equivalent); timestamps and metadata carry over.
 *
 * A valid thinking sequence (docs/rules.md#R23) maps to a valid reasoning one (docs/rules.md#R22): THINKING_TEXT_MESSAGE_START
 * needs an active THINKING_START, so every REASONING_MESSAGE_START lands inside the REASONING_START
 * the step became; a THINKING_END that finds its message still open ends it first (`closing`).
 *
 * @example
 * mapThinkingEvent({ type: "THINKING_START" }, {}, () => "r1")
 * // { event: { type: "REASONING_START", messageId: "r1" }, ids: { spanId: "r1" } }
 */
export function mapThinkingEvent(event: ThinkingEvent, ids: ThinkingIds, newId: () => string): ThinkingStep {
  const base = carried(event);
  switch (event.type) {
    case "THINKING_START": {
      const spanId = newId();
      return { event: { type: "REASONING_START", messageId: spanId, ...base }, ids: { ...ids, spanId } };
    }
    case "THINKING_END": {
      const messageId = ids.spanId ?? newId();
      const event: Event = { type: "REASONING_END", messageId, ...base };
      if (ids.messageId === undefined) return { event, ids: {} };
      return {
        closing: { type: "REASONING_MESSAGE_END", messageId: ids.messageId, ...(event.timestamp === undefined ? {} : { timestamp: event.timestamp }) },
        event,
        ids: {},
      };
    }
    case "THINKING_TEXT_MESSAGE_START": {
      const messageId = newId();
      return { event: { type: "REASONING_MESSAGE_START", messageId, role: "reasoning", ...base }, ids: { ...ids, messageId } };
    }
    case "THINKING_TEXT_MESSAGE_CONTENT": {
      const messageId = ids.messageId ?? newId();
      return { event: { type: "REASONING_MESSAGE_CONTENT", messageId, delta: event.delta, ...base }, ids: { ...ids, messageId } };
    }
    case "THINKING_TEXT_MESSAGE_END": {
      const messageId = ids.messageId ?? newId();
      return { event: { type: "REASONING_MESSAGE_END", messageId, ...base }, ids: { spanId: ids.spanId } };
    }
  }
}

function carried(event: ThinkingEvent): { timestamp?: number; metadata?: Record<string, unknown> } {
  const out: { timestamp?: number; metadata?: Record<string, unknown> } = {};
  if (event.timestamp !== undefined) out.timestamp = event.timestamp;
  if (event.metadata !== undefined) out.metadata = event.metadata;
  return out;
}

/**
 * Whether an event is one of the deprecated `THINKING_*` types.
 *
 * @example
 * isThinkingEvent({ type: "THINKING_START" }) // true
 */
export function isThinkingEvent(event: Event): event is ThinkingEvent {
  return event.type.startsWith("THINKING_");
}
