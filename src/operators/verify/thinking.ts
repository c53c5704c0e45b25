/**
 * The deprecated THINKING_* events (docs/rules.md#reasoning, docs/rules.md#R23): no ids, no tags, one thinking step per run
 * at a time and at most one thinking message inside it. `normalizeChunks()` maps them to
 * REASONING_* upstream; these checks serve a verifier used alone.
 */
import type { ThinkingEvent } from "../../protocol/events";
import type { ProtocolError } from "../ProtocolError";
import { fail } from "./report";
import type { RunScope } from "./VerifierState";

/**
 * Checks a THINKING_* event against the run's thinking step and message and, only if it passes,
 * records its effect.
 *
 * @example
 * checkThinking(run, { type: "THINKING_TEXT_MESSAGE_START" }); // ProtocolError docs/rules.md#R23 with no step active
 */
export function checkThinking(run: RunScope, event: ThinkingEvent): ProtocolError | undefined {
  switch (event.type) {
    case "THINKING_START":
      if (run.thinkingStep) return fail("thinking", "R23", event, "THINKING_START while a thinking step is active; expected THINKING_END first");
      run.thinkingStep = true;
      return undefined;
    case "THINKING_END":
      if (!run.thinkingStep) return fail("thinking", "R23", event, "THINKING_END, but no thinking step is active; expected THINKING_START first");
      run.thinkingStep = false;
      run.thinkingMessage = false;
      return undefined;
    case "THINKING_TEXT_MESSAGE_START":
      if (!run.thinkingStep)
        return fail("thinking", "R23", event, "THINKING_TEXT_MESSAGE_START, but no thinking step is active; expected THINKING_START first");
      if (run.thinkingMessage)
        return fail("thinking", "R23", event, "THINKING_TEXT_MESSAGE_START while a thinking message is open; expected THINKING_TEXT_MESSAGE_END first");
      run.thinkingMessage = true;
      return undefined;
    case "THINKING_TEXT_MESSAGE_CONTENT":
    case "THINKING_TEXT_MESSAGE_END":
      if (!run.thinkingMessage)
        return fail("thinking", "R23", event, `${event.type}, but no thinking message is open; expected THINKING_TEXT_MESSAGE_START first`);
      if (event.type === "THINKING_TEXT_MESSAGE_END") run.thinkingMessage = false;
      return undefined;
    default:
      event satisfies never; // every THINKING_* type has its case
      return undefined;
  }
}
