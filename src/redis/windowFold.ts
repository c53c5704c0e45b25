/**
 * Whether the entries logged after the kept snapshot can be folded into the snapshot's last
 * messages only (a window) instead of all of them (docs/threads.md#redis-keys): a read with a
 * limit during a live run then costs what the window and the entries cost, not the thread's length.
 */
import type { Event } from "../protocol/events";
import type { Message } from "../protocol/messages";
import { isTerminal } from "../thread/isTerminal";
import type { ThreadSnapshot } from "../thread/ThreadSnapshot";
import type { LoggedEntry } from "./entries";

/**
 * What folding the entries into the window must prove absent from the messages before it: the
 * message ids and the tool call ids the entries look up that the window does not hold.
 *
 * @example
 * const outside: Outside = { messages: ["a10"], calls: ["call7"] };
 */
export type Outside = { readonly messages: readonly string[]; readonly calls: readonly string[] };

/**
 * The ids the entries look up that the window does not hold, when folding the entries into
 * `window` gives the last messages folding them into the whole path would: the caller then
 * proves those ids absent from the messages before the window (`ids`), and the fold creates them
 * exactly as the whole fold would. `undefined` when the whole path must be read: a
 * MESSAGES_SNAPSHOT (it merges into every message), a run's end (its fold is kept as the thread:
 * that needs every message), a RUN_STARTED (its state checkpoint, and a fork marker's cut of the
 * path, docs/threads.md#the-tree, count positions from the thread's start), an event on a tool call that neither the window holds nor an earlier
 * TOOL_CALL_START among the entries creates (it may be held before the window: the fold would
 * miss it), or an event this check does not know.
 *
 * Sound because messages before the window are never looked up otherwise: every other event
 * finds its message or tool call by id (in the window, or proven absent before it, so created
 * alike), appends, or inserts right after a window message; message and tool call ids stay unique
 * in the path. A TOOL_CALL_START on a new call looks up its parent (or the message named as the
 * call) and the call itself: all proven absent, it appends the same assistant message either way.
 *
 * @example
 * outsideWindow([{ id: "m9", role: "user", content: "Hi" }], entries); // { messages: ["a10"], calls: [] }: the live run's message, new to the window
 */
export function outsideWindow(window: readonly Message[], entries: readonly LoggedEntry[]): Outside | undefined {
  const inWindow = new Set(window.map((message) => message.id));
  const calls = new Set(window.flatMap((message) => (message.role === "assistant" ? (message.toolCalls ?? []).map((call) => call.id) : [])));
  const messages = new Set<string>();
  const created = new Set<string>();
  for (const { event } of entries) {
    const looked = lookups(event);
    if (looked === undefined) return undefined;
    if (event.type === "TOOL_CALL_START" && calls.has(event.toolCallId)) continue; // found where it is: nothing else is looked at
    for (const id of looked.calls) {
      if (calls.has(id)) continue;
      // only a TOOL_CALL_START creates a call the window lacks; before it, the call may be older than the window
      if (event.type !== "TOOL_CALL_START") return undefined;
      calls.add(id);
      created.add(id);
    }
    for (const id of looked.messages) if (!inWindow.has(id)) messages.add(id);
  }
  return { messages: [...messages], calls: [...created] };
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
      // a new call goes to its parent, else to a message named as the call (docs/rules.md#A4); a held one is found where it is
      return { messages: [...(event.parentMessageId === undefined ? [] : [event.parentMessageId]), event.toolCallId], calls: [event.toolCallId] };
    case "TOOL_CALL_ARGS":
    case "TOOL_CALL_END":
      return { messages: [], calls: [event.toolCallId] };
    case "TOOL_CALL_RESULT":
      return { messages: [event.messageId], calls: [event.toolCallId] };
    case "REASONING_ENCRYPTED_VALUE":
      return event.subtype === "tool-call" ? { messages: [], calls: [event.entityId] } : { messages: [event.entityId], calls: [] };
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

/**
 * `folded` (a window fold: the kept snapshot's messages from path position `before` on, with the
 * entries folded in) with the branch groups the whole fold names (docs/threads.md#the-tree). The fold
 * finds a group's shown sibling at its path position, which a window shifts by `before`: a
 * sibling starting in the window is read there, one starting before it is as `kept` named it
 * (messages before the window are never touched by a window fold, and no fork is among the entries:
 * `outsideWindow` refuses every RUN_STARTED). With nothing left out (`before` 0) it is `folded`.
 *
 * @example
 * const snapshot = windowGroups(fold.snapshot(), kept, messageCount - kept.messages.length);
 */
export function windowGroups(folded: ThreadSnapshot, kept: ThreadSnapshot, before: number): ThreadSnapshot {
  const tree = folded.branches;
  if (before === 0 || tree === undefined || folded === kept) return folded;
  const keptGroups = kept.branches?.groups ?? [];
  const groups = tree.forks.map((fork) => {
    const shown =
      fork.at >= before
        ? (folded.messages[fork.at - before]?.id ?? "")
        : (keptGroups.find((group) => group.after === fork.after)?.siblingIds[fork.selected] ?? "");
    return {
      after: fork.after,
      selected: fork.selected,
      siblingIds: fork.branches.map((branch) => (branch === null ? shown : (branch.messages[0]?.id ?? ""))),
    };
  });
  return { ...folded, branches: { ...tree, groups } };
}
