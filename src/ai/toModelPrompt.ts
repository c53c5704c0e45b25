/** The run's AG-UI messages (docs/wire.md#4.1) as the AI SDK's prompt: instructions and `ModelMessage[]` (docs/ai.md, "Messages"). */
import type { AssistantContent, ModelMessage, SystemModelMessage, ToolCallPart, ToolModelMessage, ToolResultPart } from "ai";
import type { AssistantMessage, Message, ReasoningMessage, ToolMessage, UserMessage } from "../protocol/messages";
import { AgentError } from "../server/AgentError";
import { INVALID_MESSAGES_CODE, providerOptionsOf, toolResultPart, userPart, type ProviderOptions } from "./contentParts";

/**
 * A prompt for `streamText`: `instructions` (the thread's system and developer messages, in
 * order) and the conversation itself.
 *
 * @example
 * const { instructions, messages } = toModelPrompt(ctx.messages);
 * streamText({ model, instructions, messages, abortSignal: ctx.signal });
 */
export interface ModelPrompt {
  readonly instructions: SystemModelMessage[];
  readonly messages: ModelMessage[];
}

type ReasoningPart = Extract<Exclude<AssistantContent, string>[number], { type: "reasoning" }>;
type AssistantPart = Exclude<AssistantContent, string>[number];

/** What a tool result needs from the call it answers. */
interface CallInfo {
  readonly toolName: string;
  readonly providerOptions: ProviderOptions | undefined;
}

/**
 * Converts a thread:
 * - `system` and `developer` → `instructions`, in order (the SDK refuses system messages inside
 *   `messages` by default, and several providers accept them only first; the SDK has no
 *   developer role, providers that have one map system to it themselves);
 * - `user` → a user message: string content as it is, text parts as text, image/audio/video/
 *   document/binary parts as file parts (data, URL, or a provider file reference);
 * - `assistant` → an assistant message: reasoning parts (from the reasoning messages just
 *   before it), its text, its tool calls with parsed arguments;
 * - `tool` → tool results, consecutive ones in one tool message: `error` as error text, JSON
 *   object/array content as JSON, other content as text, multimodal content as content parts;
 *   each carries its call's provider options, as the SDK's own results do;
 * - `reasoning` → a reasoning part of the next assistant message, with the provider options that
 *   `streamToRun` stored in its `encryptedValue`; dropped when no assistant message follows it
 *   before the next user message;
 * - `activity` → left out (UI state, not conversation).
 *
 * Names, metadata and `subagentRunId` are not sent. A part that cannot be given to the model,
 * or a tool result that answers no earlier tool call, throws an `AgentError` coded
 * `INVALID_MESSAGES` naming the message, before any model call.
 *
 * @example
 * toModelPrompt([{ id: "s", role: "system", content: "Be brief." }, { id: "u", role: "user", content: "Hi" }]);
 * // { instructions: [{ role: "system", content: "Be brief." }], messages: [{ role: "user", content: "Hi" }] }
 */
export function toModelPrompt(thread: readonly Message[]): ModelPrompt {
  const instructions: SystemModelMessage[] = [];
  const messages: ModelMessage[] = [];
  const calls = new Map<string, CallInfo>();
  let reasoning: ReasoningPart[] = [];
  for (const message of thread) {
    switch (message.role) {
      case "system":
      case "developer":
        instructions.push({ role: "system", content: message.content });
        break;
      case "user":
        reasoning = [];
        messages.push(userMessage(message));
        break;
      case "assistant": {
        const content = assistantContent(message, reasoning);
        reasoning = [];
        for (const call of message.toolCalls ?? [])
          calls.set(call.id, { toolName: call.function.name, providerOptions: providerOptionsOf(call.encryptedValue) });
        if (content.length > 0) messages.push({ role: "assistant", content });
        break;
      }
      case "tool": {
        const result = toolResult(message, calls);
        const last = messages.at(-1);
        if (last?.role === "tool") last.content.push(result);
        else messages.push(toolMessage(result));
        break;
      }
      case "reasoning":
        reasoning.push(reasoningPart(message));
        break;
      case "activity":
        break;
      default: {
        const unknown: never = message;
        return unknown;
      }
    }
  }
  return { instructions, messages };
}

function userMessage(message: UserMessage): ModelMessage {
  if (typeof message.content === "string") return { role: "user", content: message.content };
  return { role: "user", content: message.content.map((part, index) => userPart(part, { messageId: message.id, index })) };
}

function assistantContent(message: AssistantMessage, reasoning: readonly ReasoningPart[]): AssistantPart[] {
  const content: AssistantPart[] = [...reasoning];
  if (message.content !== undefined && message.content !== "") content.push({ type: "text", text: message.content });
  for (const call of message.toolCalls ?? []) {
    const part: ToolCallPart = { type: "tool-call", toolCallId: call.id, toolName: call.function.name, input: parseArguments(call.function.arguments) };
    const providerOptions = providerOptionsOf(call.encryptedValue);
    content.push(providerOptions === undefined ? part : { ...part, providerOptions });
  }
  return content;
}

/** Tool call arguments as the SDK's `input`: `""` is no arguments (`{}`), JSON is parsed, anything else is kept as the raw string. */
function parseArguments(text: string): unknown {
  if (text.trim() === "") return {};
  try {
    return JSON.parse(text);
  } catch {
    return text; // the model's own malformed arguments, sent back as they were
  }
}

function toolResult(message: ToolMessage, calls: ReadonlyMap<string, CallInfo>): ToolResultPart {
  const call = calls.get(message.toolCallId);
  if (call === undefined) {
    throw new AgentError(
      `message "${message.id}": expected a tool result for a tool call of an earlier assistant message, but no assistant message has the tool call "${message.toolCallId}"`,
      INVALID_MESSAGES_CODE,
    );
  }
  const part: ToolResultPart = { type: "tool-result", toolCallId: message.toolCallId, toolName: call.toolName, output: toolOutput(message) };
  return call.providerOptions === undefined ? part : { ...part, providerOptions: call.providerOptions };
}

function toolOutput(message: ToolMessage): ToolResultPart["output"] {
  if (message.error !== undefined) return { type: "error-text", value: message.error };
  const { content } = message;
  if (typeof content !== "string") {
    return { type: "content", value: content.map((part, index) => toolResultPart(part, { messageId: message.id, index })) };
  }
  if (content.startsWith("{") || content.startsWith("[")) {
    try {
      // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- JSON.parse yields only JSON values
      return { type: "json", value: JSON.parse(content) };
    } catch {
      return { type: "text", value: content }; // text that merely starts like JSON
    }
  }
  return { type: "text", value: content };
}

function toolMessage(first: ToolResultPart): ToolModelMessage {
  return { role: "tool", content: [first] };
}

function reasoningPart(message: ReasoningMessage): ReasoningPart {
  const providerOptions = providerOptionsOf(message.encryptedValue);
  return providerOptions === undefined ? { type: "reasoning", text: message.content } : { type: "reasoning", text: message.content, providerOptions };
}
