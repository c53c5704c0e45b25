/**
 * The example's model when no provider key is set: the AI SDK's own `MockLanguageModelV4`, whose
 * every call plans a turn from the prompt (`planTurn`) and streams it as a provider would:
 * reasoning, then the text word by word, then the tool call with its arguments, at a humane pace.
 * So `npm run ai-chat` works on a fresh machine with no network and no key.
 */
import { simulateReadableStream } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { planTurn, type ModelCall, type Turn } from "./planTurn";

type StreamResult = Awaited<ReturnType<MockLanguageModelV4["doStream"]>>;
/** One model-level stream part (what a provider's `doStream` yields). */
export type ModelPart = StreamResult["stream"] extends ReadableStream<infer P> ? P : never;

/** The pause between two streamed parts by default: about the pace of a fast model. */
export const DEFAULT_DELAY_MS = 30;

/** How many calls the mock keeps in `doStreamCalls` (it keeps every call; a long-running server must not). */
const KEPT_CALLS = 20;

/** Options of {@link scriptedChatModel}. */
export interface ScriptedChatModelOptions {
  /** Milliseconds between two parts; `null` streams without any timer (tests). 30 by default. */
  readonly delayMs?: number | null;
}

/**
 * A mock model that answers the example's chat: weather questions call the server tool
 * `get_weather`, time questions call the client tool `get_local_time`, and tool results are read
 * back as an answer (see `planTurn`). Provider `scripted`, model id `scripted-chat`; each call
 * reports a small token usage (words in, words out). `doStreamCalls` holds the last 20 calls.
 * Stateless across calls: one model serves any number of threads.
 *
 * @example
 * const agent = createChatAgent({ model: scriptedChatModel({ delayMs: null }) });
 */
export function scriptedChatModel(options: ScriptedChatModelOptions = {}): MockLanguageModelV4 {
  const delayMs = options.delayMs === undefined ? DEFAULT_DELAY_MS : options.delayMs;
  if (delayMs !== null && !(Number.isFinite(delayMs) && delayMs >= 0)) {
    throw new TypeError(`expected delayMs to be a number of milliseconds, 0 or more, or null, but got ${String(delayMs)}`);
  }
  const model: MockLanguageModelV4 = new MockLanguageModelV4({
    provider: "scripted",
    modelId: "scripted-chat",
    doStream: async (call: ModelCall): Promise<StreamResult> => {
      if (model.doStreamCalls.length > KEPT_CALLS) model.doStreamCalls.splice(0, model.doStreamCalls.length - KEPT_CALLS);
      const turn = planTurn(
        call.prompt,
        (call.tools ?? []).map((offered) => offered.name),
      );
      // Ids from the prompt's length: it grows with every step of a thread, so a tool call id is
      // unique within its thread (what the client answers with), also across server restarts.
      const parts = turnParts(turn, `${call.prompt.length}`, wordsIn(call));
      return { stream: simulateReadableStream({ chunks: parts, initialDelayInMs: delayMs, chunkDelayInMs: delayMs }) };
    },
  });
  return model;
}

/**
 * A turn as the parts a provider streams: stream start, a reasoning block, the text a word per
 * delta, the tool call's arguments in two deltas and the final call, then finish with usage.
 * `n` makes the ids of this call unique (the tool call id is what the client answers with).
 *
 * @example
 * turnParts({ kind: "answer", thinking: "Easy.", text: "Hello there." }, "1", 3).map((part) => part.type);
 * // ["stream-start", "reasoning-start", "reasoning-delta", "reasoning-end", "text-start", "text-delta", "text-delta", "text-end", "finish"]
 */
export function turnParts(turn: Turn, n: string, inputWords: number): ModelPart[] {
  const parts: ModelPart[] = [{ type: "stream-start", warnings: [] }];
  const reasoningId = `reasoning-${n}`;
  parts.push(
    { type: "reasoning-start", id: reasoningId },
    ...words(turn.thinking).map((delta): ModelPart => ({ type: "reasoning-delta", id: reasoningId, delta })),
    { type: "reasoning-end", id: reasoningId },
  );
  const textId = `text-${n}`;
  parts.push({ type: "text-start", id: textId }, ...words(turn.text).map((delta): ModelPart => ({ type: "text-delta", id: textId, delta })), {
    type: "text-end",
    id: textId,
  });
  if (turn.kind === "call") {
    const id = `call-${n}`;
    const input = JSON.stringify(turn.input);
    const half = Math.ceil(input.length / 2);
    parts.push(
      { type: "tool-input-start", id, toolName: turn.toolName },
      { type: "tool-input-delta", id, delta: input.slice(0, half) },
      { type: "tool-input-delta", id, delta: input.slice(half) },
      { type: "tool-input-end", id },
      { type: "tool-call", toolCallId: id, toolName: turn.toolName, input },
    );
  }
  const reasoning = words(turn.thinking).length;
  const text = words(turn.text).length;
  parts.push({
    type: "finish",
    finishReason: turn.kind === "call" ? { unified: "tool-calls", raw: "tool_calls" } : { unified: "stop", raw: "stop" },
    usage: {
      inputTokens: { total: inputWords, noCache: inputWords, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: reasoning + text, text, reasoning },
    },
  });
  return parts;
}

/** The text in deltas of one word each, with the space after it (joined, they are the text). */
function words(text: string): string[] {
  return text.match(/\s*\S+\s*/g) ?? [];
}

/** A rough input token count: the words of the prompt's text. */
function wordsIn(call: ModelCall): number {
  let count = 0;
  for (const message of call.prompt) {
    if (typeof message.content === "string") count += words(message.content).length;
    else for (const part of message.content) if (part.type === "text") count += words(part.text).length;
  }
  return count;
}
