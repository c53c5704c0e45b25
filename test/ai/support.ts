/** Scripted models for the `agui-rx/ai` tests: the AI SDK's own `MockLanguageModelV4`, streams without delays. */
import { MockLanguageModelV4, simulateReadableStream } from "ai/test";
import type { ModelPart, ModelStreamResult as StreamResult } from "../../src/testing/ai";

// The model-level types, as the testing kit derives them from the SDK's mock (`@ai-sdk/provider` is not our dependency).
export type { ModelPart, StreamResult };

/** A model usage report: 10 input tokens (3 read from the cache), 5 output tokens (2 of them reasoning). */
export const USAGE = {
  inputTokens: { total: 10, noCache: 7, cacheRead: 3, cacheWrite: undefined },
  outputTokens: { total: 5, text: 3, reasoning: 2 },
} as const;

/** What `USAGE` becomes on the wire for one step (the mock's provider and model id). */
export const WIRE_USAGE = {
  provider: "mock-provider",
  model: "mock-model-id",
  inputTokens: 10,
  outputTokens: 5,
  totalTokens: 15,
  reasoningTokens: 2,
  cachedInputTokens: 3,
};

/** A stream result that yields `parts` with no delay at all (no timers). */
export function scripted(parts: readonly ModelPart[]): StreamResult {
  return { stream: simulateReadableStream({ chunks: [...parts], initialDelayInMs: null, chunkDelayInMs: null }) };
}

/** The finish part of a step. */
export function finish(reason: "stop" | "tool-calls" = "stop"): ModelPart {
  return { type: "finish", finishReason: { unified: reason, raw: reason }, usage: USAGE };
}

/** A text block as the three model parts. */
export function text(id: string, ...deltas: string[]): ModelPart[] {
  return [{ type: "text-start", id }, ...deltas.map((delta): ModelPart => ({ type: "text-delta", id, delta })), { type: "text-end", id }];
}

/** A streamed tool call: input start, the deltas, input end, then the final call. */
export function streamedCall(id: string, toolName: string, ...deltas: string[]): ModelPart[] {
  return [
    { type: "tool-input-start", id, toolName },
    ...deltas.map((delta): ModelPart => ({ type: "tool-input-delta", id, delta })),
    { type: "tool-input-end", id },
    { type: "tool-call", toolCallId: id, toolName, input: deltas.join("") },
  ];
}

/**
 * A mock model whose n-th call streams `steps[n]`; a call past the script fails the test loudly
 * (the agent called the model more often than the scenario says).
 */
export function scriptedModel(...steps: (readonly ModelPart[])[]): MockLanguageModelV4 {
  return scriptedModelWith({}, ...steps);
}

/**
 * `scriptedModel` with the mock's other options; `supportedUrls` tells the SDK which URLs the
 * model fetches itself (any other URL in a prompt the SDK would download: no network here).
 */
export function scriptedModelWith(options: { readonly supportedUrls?: Record<string, RegExp[]> }, ...steps: (readonly ModelPart[])[]): MockLanguageModelV4 {
  let call = 0;
  return new MockLanguageModelV4({
    ...options,
    doStream: async () => {
      const parts = steps[call++];
      if (parts === undefined) throw new Error(`the scenario scripts ${steps.length} model call(s), but the model was called ${call} times`);
      return scripted(parts);
    },
  });
}
