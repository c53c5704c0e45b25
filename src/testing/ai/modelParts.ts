/**
 * The AI SDK's model-level types the scripted model is written in, derived from its own mock
 * (`@ai-sdk/provider`, where they are declared, is the SDK's dependency, not ours).
 */
import type { MockLanguageModelV4 } from "ai/test";

/** What a model's `doStream` resolves with. */
export type ModelStreamResult = Awaited<ReturnType<MockLanguageModelV4["doStream"]>>;

/**
 * One model-level stream part, what a provider's `doStream` yields (`text-delta`, `tool-call`, `finish`, …).
 *
 * @example
 * const part: ModelPart = { type: "text-delta", id: "t1", delta: "Hi" };
 */
export type ModelPart = ModelStreamResult["stream"] extends ReadableStream<infer P> ? P : never;

/**
 * What a model's `doStream` is called with: the prompt, the tools offered, the abort signal, ….
 *
 * @example
 * const lastRole = (call: ModelCall) => call.prompt.at(-1)?.role;
 */
export type ModelCall = Parameters<MockLanguageModelV4["doStream"]>[0];

/**
 * Why a step finished, as the SDK names it (`stop`, `tool-calls`, `length`, `content-filter`, `error`, `other`).
 *
 * @example
 * const reason: FinishReason = "length";
 */
export type FinishReason = Extract<ModelPart, { type: "finish" }>["finishReason"]["unified"];
