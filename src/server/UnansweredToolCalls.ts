/**
 * The client tool calls a run leaves unanswered, for the success outcome's `pendingToolCallIds`
 * (docs/wire.md#4.10, docs/tools.md § the server's side): read off the events the run sends.
 */
import type { Event } from "../protocol/events";
import type { Tool } from "../protocol/input";

/**
 * Watches a run's outgoing events and keeps the calls to tools the client offered
 * (`input.tools`) that got no TOOL_CALL_RESULT in the run, in the order they started. Calls of
 * subagents count too: the client answers them all the same. Internal to `agui-rx/server`: the
 * driver feeds it every event it sends.
 *
 * @example
 * const calls = new UnansweredToolCalls(input.tools);
 * calls.observe(ev.toolCallStart("c1", "get_time"));
 * calls.ids(); // ["c1"]
 */
export class UnansweredToolCalls {
  private readonly offered: ReadonlySet<string>;
  private readonly unanswered = new Set<string>();
  /** Results may precede their call (docs/rules.md#R21): such a call is answered when it starts. */
  private readonly answered = new Set<string>();

  constructor(tools: readonly Tool[]) {
    this.offered = new Set(tools.map((tool) => tool.name));
  }

  /** Takes one event the run sent. */
  observe(event: Event): void {
    if (event.type === "TOOL_CALL_START") {
      if (this.offered.has(event.toolCallName) && !this.answered.has(event.toolCallId)) this.unanswered.add(event.toolCallId);
    } else if (event.type === "TOOL_CALL_RESULT") {
      this.answered.add(event.toolCallId);
      this.unanswered.delete(event.toolCallId);
    }
  }

  /** The unanswered client tool calls so far, in the order they started. */
  ids(): string[] {
    return [...this.unanswered];
  }
}
