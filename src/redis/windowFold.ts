/**
 * Whether the entries logged after the kept snapshot can be folded into the snapshot's last
 * messages only (a window) instead of all of them (docs/threads.md#redis-keys): a read with a
 * limit during a live run then costs what the window and the entries cost, not the thread's length.
 */
import type { Event } from "../protocol/events";
import type { Message } from "../protocol/messages";
import { isTerminal } from "../thread/isTerminal";
import type { LoggedEntry } from "./entries";

/**
 * The message ids the entries look up that the window does not hold, when folding the entries
 * into `window` gives the last messages folding them into the whole path would: the caller then
 * proves those ids absent from the messages before the window (`ids`), and the fold creates them
 * exactly as the whole fold would. `undefined` when the whole path must be read: a
 * MESSAGES_SNAPSHOT (it merges into every message), a run's end (its fold is kept as the thread:
 * that needs every message), a tool call the window holds no message for (tool call ids have no
 * index to prove them absent before the window), or an event this check does not know.
 *
 * Sound because messages before the window are never looked up otherwise: every other event
 * finds its message by id (in the window, or proven absent before it, so created alike), appends,
 * or inserts right after a window message; message and tool call ids stay unique in the path.
 *
 * @example
 * outsideWindow([{ id: "m9", role: "user", content: "Hi" }], entries); // ["a10"]: the live run's message, new to the window
 */
export function outsideWindow(window: readonly Message[], entries: readonly LoggedEntry[]): string[] | undefined {
  const inWindow = new Set(window.map((message) => message.id));
  const calls = new Set(window.flatMap((message) => (message.role === "assistant" ? (message.toolCalls ?? []).map((call) => call.id) : [])));
  const outside = new Set<string>();
  for (const { event } of entries) {
    const looked = lookups(event);
    if (looked === undefined || !looked.calls.every((id) => calls.has(id))) return undefined;
    for (const id of looked.messages) if (!inWindow.has(id)) outside.add(id);
  }
  return [...outside];
}

/** The message ids and tool call ids `event` looks up in the fold (src/thread/reducers), or `undefined` for an event that needs every message. */
function lookups(event: Event): { messages: readonly string[]; calls: readonly string[] } | undefined {
  if (isTerminal(event)) return undefined;
  switch (event.type) {
    case "TEXT_MESSAGE_START":
    case "TEXT_MESSAGE_CONTENT":
    case "TEXT_MESSAGE_END":
    case "REASONING_MESSAGE_START":
    case "REASONING_MESSAGE_CONTENT":
    case "REASONING_MESSAGE_END":
    case "ACTIVITY_SNAPSHOT":
    case "ACTIVITY_DELTA":
      return { messages: [event.messageId], calls: [] };
    case "TOOL_CALL_START":
    case "TOOL_CALL_ARGS":
    case "TOOL_CALL_END":
      // with its holder in the window the call is found there, and its parentMessageId is not looked at
      return { messages: [], calls: [event.toolCallId] };
    case "TOOL_CALL_RESULT":
      return { messages: [event.messageId], calls: [event.toolCallId] };
    case "REASONING_ENCRYPTED_VALUE":
      return event.subtype === "tool-call" ? { messages: [], calls: [event.entityId] } : { messages: [event.entityId], calls: [] };
    case "RUN_STARTED":
      // docs/rules.md#A15: the input's messages join the path unless it holds them already
      return { messages: (event.input?.messages ?? []).map((message) => message.id), calls: [] };
    case "STATE_SNAPSHOT":
    case "STATE_DELTA":
    case "STEP_STARTED":
    case "STEP_FINISHED":
    case "CUSTOM":
    case "RAW":
    case "REASONING_START":
    case "REASONING_END":
    case "SUBAGENT_STARTED":
    case "SUBAGENT_FINISHED":
    case "SUBAGENT_ERROR":
      return { messages: [], calls: [] };
    default:
      return undefined;
  }
}
