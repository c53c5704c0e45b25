/**
 * The events that close what a verified stream left open (docs/rules.md#order: every span ends before the
 * run's terminal), from the openers `OpenSpans` keeps: how a stopped run function is ended
 * `RUN_FINISHED` cancelled with a valid stream, as the driver closes an agent's spans itself.
 */
import { ev, withSubagentRunId } from "../protocol/build";
import type { AttributableEvent, Event } from "../protocol/events";

/**
 * The closing events for `reopeners` (what `OpenSpans.reopeners()` returns: the openers of the
 * open spans and the run's subagent lifecycle, in the order they happened), innermost first: each
 * open text message, tool call, reasoning message, reasoning block and step gets its END (with
 * its opener's `subagentRunId`), and each subagent started and not yet finished or failed gets
 * SUBAGENT_FINISHED, after the spans opened inside it.
 *
 * @example
 * closeOpenSpans([ev.stepStarted("plan"), ev.textMessageStart("m1")]).map((event) => event.type);
 * // ["TEXT_MESSAGE_END", "STEP_FINISHED"]
 */
export function closeOpenSpans(reopeners: readonly Event[]): Event[] {
  const ended = new Set<string>();
  const closers: Event[] = [];
  for (let i = reopeners.length - 1; i >= 0; i--) {
    const opener = reopeners[i];
    const closer = closerOf(opener, ended);
    if (closer !== undefined) closers.push(closer);
  }
  return closers;
}

/** The END of one opener (tagged as its opener is), or `undefined` (a lifecycle end, which it records, or a subagent already over). */
function closerOf(opener: Event, ended: Set<string>): Event | undefined {
  const owner = "subagentRunId" in opener ? opener.subagentRunId : undefined;
  const tag = <E extends AttributableEvent>(closer: E): E => (typeof owner === "string" ? withSubagentRunId(closer, owner) : closer);
  switch (opener.type) {
    case "TEXT_MESSAGE_START":
      return tag(ev.textMessageEnd(opener.messageId));
    case "TOOL_CALL_START":
      return tag(ev.toolCallEnd(opener.toolCallId));
    case "REASONING_START":
      return tag(ev.reasoningEnd(opener.messageId));
    case "REASONING_MESSAGE_START":
      return tag(ev.reasoningMessageEnd(opener.messageId));
    case "STEP_STARTED":
      return tag(ev.stepFinished(opener.stepName));
    case "SUBAGENT_FINISHED":
    case "SUBAGENT_ERROR":
      ended.add(opener.subagentRunId);
      return undefined;
    case "SUBAGENT_STARTED":
      // Walking backwards, a subagent's own end (if any) was seen before its start.
      return ended.has(opener.subagentRunId) ? undefined : ev.subagentFinished(opener.subagentRunId);
    default:
      return undefined;
  }
}
