/** Which tool calls a finished run leaves for the client, and which of them the session executes itself (docs/wire.md#4.10, docs/tools.md § which calls). */
import type { Message, ToolCall } from "../../protocol/messages";
import type { ClientTool } from "./clientTool";
import type { ExecutableToolCall } from "./executeToolCalls";

/**
 * A tool call waiting for a result, and the assistant message that holds it.
 *
 * @example
 * const left: PendingToolCall = { call, messageId: "assistant-1" };
 */
export interface PendingToolCall {
  readonly call: ToolCall;
  readonly messageId: string;
}

/**
 * What `pendingClientToolCalls` reads.
 *
 * @example
 * const input: PendingToolCallsInput = { messages: session.messages, tools, pendingToolCallIds: outcome.pendingToolCallIds };
 */
export interface PendingToolCallsInput {
  /** The conversation after the run. */
  readonly messages: readonly Message[];
  /** The session's client tools by name. */
  readonly tools: ReadonlyMap<string, ClientTool>;
  /** `pendingToolCallIds` of the run's success outcome, when it carried one. */
  readonly pendingToolCallIds?: readonly string[];
  /**
   * The assistant messages the run created or extended (the ids its message updates named), for
   * the fallback; the whole conversation when absent.
   */
  readonly runMessageIds?: ReadonlySet<string>;
}

/**
 * The calls left for the client, split by who answers them.
 *
 * @example
 * const { execute, leftForApplication } = pendingClientToolCalls(input);
 */
export interface PendingToolCalls {
  /** Calls of known client tools, in conversation order: the session executes these. */
  readonly execute: readonly ExecutableToolCall[];
  /** Calls of tools the session does not know: left for the application, as plain tools are. */
  readonly leftForApplication: readonly PendingToolCall[];
  /** `pendingToolCallIds` entries that name no tool call of the conversation (a producer's mistake; nothing can answer them). */
  readonly unknownIds: readonly string[];
}

/**
 * Finds the calls a finished run leaves for the client. With `pendingToolCallIds` (the 1.0.0
 * success outcome), exactly the calls it names; otherwise every call of the run's assistant
 * messages (`runMessageIds`, or all messages) that no tool message answers. Either way a call
 * that already has a tool message is never answered twice, and calls keep the conversation's
 * order. Calls whose name is one of `tools` are to execute; the rest are left for the
 * application. Pure: reads its input, changes nothing.
 *
 * @example
 * pendingClientToolCalls({ messages, tools: new Map([["get_time", getTime]]) });
 * // { execute: [{ call, messageId, tool: getTime }], leftForApplication: [], unknownIds: [] }
 */
export function pendingClientToolCalls(input: PendingToolCallsInput): PendingToolCalls {
  const { messages, tools, pendingToolCallIds, runMessageIds } = input;
  const answered = new Set<string>();
  for (const message of messages) if (message.role === "tool") answered.add(message.toolCallId);
  const named = pendingToolCallIds === undefined ? undefined : new Set(pendingToolCallIds);
  const found = new Set<string>();
  const execute: ExecutableToolCall[] = [];
  const leftForApplication: PendingToolCall[] = [];
  for (const message of messages) {
    if (message.role !== "assistant" || message.toolCalls === undefined) continue;
    if (named === undefined && runMessageIds !== undefined && !runMessageIds.has(message.id)) continue;
    for (const call of message.toolCalls) {
      if (named !== undefined && !named.has(call.id)) continue;
      if (found.has(call.id)) continue; // one entry per call, even if two messages hold its id
      found.add(call.id);
      if (answered.has(call.id)) continue;
      const tool = tools.get(call.function.name);
      if (tool === undefined) leftForApplication.push({ call, messageId: message.id });
      else execute.push({ call, messageId: message.id, tool });
    }
  }
  const unknownIds = named === undefined ? [] : [...named].filter((id) => !found.has(id));
  return { execute, leftForApplication, unknownIds };
}
