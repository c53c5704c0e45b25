/**
 * What a scripted model step is made of (docs/testing.md#a-scripted-model): beats that read like
 * what the model does (thinks, says, calls a tool, fails, finishes), which `stepParts` turns into
 * the parts a provider streams.
 */
import type { FinishReason, ModelPart } from "./modelParts";

/**
 * A step's token usage as a test states it: plain counts. Left out, a step reports the words of
 * its prompt's text as input and its text and reasoning deltas as output.
 *
 * @example
 * const usage: ScriptedUsage = { input: 12, output: 5, reasoning: 2, cacheRead: 4 };
 */
export interface ScriptedUsage {
  readonly input?: number | undefined;
  readonly output?: number | undefined;
  readonly reasoning?: number | undefined;
  readonly cacheRead?: number | undefined;
}

/**
 * One beat of a step: text or reasoning in deltas, a tool call, an error part in the stream, the
 * finish (reason and usage), or raw model parts for what the beats do not say.
 *
 * @example
 * const step: Beat[] = [reasoning("Paris, ", "so Celsius."), toolCall("get_weather", { city: "Paris" })];
 */
export type Beat =
  | { readonly kind: "text"; readonly deltas: readonly string[] }
  | { readonly kind: "reasoning"; readonly deltas: readonly string[] }
  | { readonly kind: "tool-call"; readonly toolName: string; readonly input: unknown; readonly id?: string | undefined; readonly chunks: number }
  | { readonly kind: "error"; readonly error: unknown }
  | { readonly kind: "finish"; readonly reason?: FinishReason | undefined; readonly usage?: ScriptedUsage | undefined }
  | { readonly kind: "parts"; readonly parts: readonly ModelPart[] };

/**
 * The model says something, streamed as the given deltas (one text block).
 *
 * @example
 * text("Hello, ", "Ada!");
 */
export function text(...deltas: string[]): Beat {
  return { kind: "text", deltas };
}

/**
 * The model reasons, streamed as the given deltas (one reasoning block, before its answer).
 *
 * @example
 * reasoning("The user wants ", "a greeting.");
 */
export function reasoning(...deltas: string[]): Beat {
  return { kind: "reasoning", deltas };
}

/**
 * Options of `toolCall`.
 *
 * @example
 * toolCall("get_weather", { city: "Paris" }, { id: "call-1", chunks: 3 });
 */
export interface ToolCallBeatOptions {
  /** The call's id (default `call-<model call>-<n>`, unique within the model). */
  readonly id?: string | undefined;
  /** In how many deltas the arguments' JSON is streamed (default 2; at least 1). */
  readonly chunks?: number | undefined;
}

/**
 * The model calls `toolName` with `input` (its arguments, JSON-encoded and streamed in deltas,
 * then the final call). A step with a tool call finishes with reason `tool-calls` unless told.
 *
 * @example
 * toolCall("get_local_time", { timeZone: "Europe/Paris" });
 */
export function toolCall(toolName: string, input: unknown, options: ToolCallBeatOptions = {}): Beat {
  const chunks = options.chunks ?? 2;
  if (!(Number.isInteger(chunks) && chunks >= 1)) throw new TypeError(`toolCall: expected chunks to be a whole number, 1 or more, but got ${String(chunks)}`);
  return { kind: "tool-call", toolName, input, id: options.id, chunks };
}

/**
 * An `error` part in the stream, as a provider reports a failure mid-answer (the AI SDK hands it to
 * the agent's error handling); the step's stream ends after it, without a finish.
 *
 * @example
 * streamError(new Error("overloaded"));
 */
export function streamError(error: unknown): Beat {
  return { kind: "error", error };
}

/**
 * How the step finishes: its reason and usage (each defaulted when left out; see `ScriptedUsage`).
 * Without this beat a step finishes `stop`, or `tool-calls` when it called a tool.
 *
 * @example
 * finish({ reason: "length", usage: { input: 100, output: 4096 } });
 */
export function finish(options: { readonly reason?: FinishReason | undefined; readonly usage?: ScriptedUsage | undefined } = {}): Beat {
  return { kind: "finish", reason: options.reason, usage: options.usage };
}

/**
 * Model parts as they are, for what the other beats do not cover (a source, a file, provider metadata).
 *
 * @example
 * parts({ type: "source", sourceType: "url", id: "s1", url: "https://example.com" });
 */
export function parts(...modelParts: ModelPart[]): Beat {
  return { kind: "parts", parts: modelParts };
}
