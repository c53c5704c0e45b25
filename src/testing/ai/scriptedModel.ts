/**
 * A scripted model for the AI SDK (docs/testing.md#a-scripted-model): the SDK's own
 * `MockLanguageModelV4`, whose n-th call streams the n-th step of a script, at once or at a pace.
 * What `aiAgent` or `streamText` does with it is exactly what it does with a provider.
 */
import { MockLanguageModelV4 } from "ai/test";
import { asyncScheduler, firstValueFrom, timer, type SchedulerLike } from "rxjs";
import type { Beat } from "./beats";
import type { ModelCall, ModelPart, ModelStreamResult } from "./modelParts";
import { stepParts } from "./stepParts";

/**
 * One step of a script: its beats, a `Rejection` (the call itself fails, as a provider's refused
 * request does), or a function of the call (its prompt, tools, …) that returns either.
 *
 * @example
 * const step: ScriptedStep = (call) => [text(`You said ${call.prompt.length} things.`)];
 */
export type ScriptedStep = readonly Beat[] | Rejection | ((call: ModelCall) => readonly Beat[] | Rejection);

/**
 * A model call that fails before any part: `doStream` rejects with `error`.
 *
 * @example
 * const step: Rejection = rejectCall(new Error("429 Too Many Requests"));
 */
export interface Rejection {
  readonly kind: "rejection";
  readonly error: unknown;
}

/**
 * A step whose call fails before streaming (`doStream` rejects with `error`): a refused request,
 * a network failure.
 *
 * @example
 * scriptedModel([rejectCall(new Error("401 invalid key"))]);
 */
export function rejectCall(error: unknown): Rejection {
  return { kind: "rejection", error };
}

/**
 * Options of `scriptedModel`.
 *
 * @example
 * scriptedModel(steps, { delayMs: 30, provider: "scripted", modelId: "demo" });
 */
export interface ScriptedModelOptions {
  /** Milliseconds before each part, timed on `scheduler`; `null` or absent: no timer at all (tests). */
  readonly delayMs?: number | null | undefined;
  /** Where the pause is timed (default `asyncScheduler`; inside `TestScheduler.run`, virtual time). */
  readonly scheduler?: SchedulerLike | undefined;
  /** The model's provider name, as usage reports name it (default the mock's `mock-provider`). */
  readonly provider?: string | undefined;
  /** The model id (default the mock's `mock-model-id`). */
  readonly modelId?: string | undefined;
  /** Once the script is used up, start it again from its first step (a demo that runs forever) instead of failing. */
  readonly loop?: boolean | undefined;
}

/**
 * The SDK's `MockLanguageModelV4` playing `steps`: call n streams step n (`stepParts`: stream
 * start, the beats, a finish with usage), or rejects for a `rejectCall` step. A call past the end
 * of the script rejects with an `Error` saying how many calls it scripted, so an agent that calls
 * the model once too often fails its test loudly (unless `loop`). Each call is kept in
 * `doStreamCalls` (the mock's own record: prompts, tools, settings) for assertions.
 * Throws a `TypeError` at once for a `delayMs` that is no duration.
 *
 * @example
 * const model = scriptedModel([
 *   [reasoning("A weather question."), toolCall("get_weather", { city: "Paris" })],
 *   [text("It is 21 °C in Paris.")],
 * ]);
 * const agent = aiAgent({ model, tools: { get_weather } });
 */
export function scriptedModel(steps: readonly ScriptedStep[], options: ScriptedModelOptions = {}): MockLanguageModelV4 {
  const delayMs = options.delayMs ?? null;
  if (delayMs !== null && !(Number.isFinite(delayMs) && delayMs >= 0)) {
    throw new TypeError(`scriptedModel: expected delayMs to be a number of milliseconds (0 or more) or null, but got ${String(delayMs)}`);
  }
  const scheduler = options.scheduler ?? asyncScheduler;
  let calls = 0;
  return new MockLanguageModelV4({
    ...(options.provider === undefined ? {} : { provider: options.provider }),
    ...(options.modelId === undefined ? {} : { modelId: options.modelId }),
    doStream: async (call: ModelCall): Promise<ModelStreamResult> => {
      const index = calls++;
      const scripted = steps[options.loop === true && steps.length > 0 ? index % steps.length : index];
      if (scripted === undefined) throw new Error(`scriptedModel: the script has ${steps.length} step(s), but the model was called ${index + 1} times`);
      const step = typeof scripted === "function" ? scripted(call) : scripted;
      if (isRejection(step)) throw step.error;
      return { stream: pacedStream(stepParts(step, index + 1, wordsIn(call)), delayMs, scheduler, call.abortSignal) };
    },
  });
}

function isRejection(step: readonly Beat[] | Rejection): step is Rejection {
  return !Array.isArray(step);
}

/** The parts as a stream: each after `delayMs` on `scheduler` (none at all for `null`); an aborted call ends it. */
function pacedStream(
  parts: readonly ModelPart[],
  delayMs: number | null,
  scheduler: SchedulerLike,
  signal: AbortSignal | undefined,
): ReadableStream<ModelPart> {
  let index = 0;
  return new ReadableStream<ModelPart>({
    async pull(controller) {
      const part = parts[index++];
      if (part === undefined) {
        controller.close();
        return;
      }
      if (delayMs !== null) await firstValueFrom(timer(delayMs, scheduler));
      if (signal?.aborted === true) controller.error(signal.reason);
      else controller.enqueue(part);
    },
  });
}

/** The words of a prompt's text: the default input usage of a step. */
function wordsIn(call: ModelCall): number {
  let count = 0;
  for (const message of call.prompt) {
    if (typeof message.content === "string") count += words(message.content);
    else for (const part of message.content) if (part.type === "text") count += words(part.text);
  }
  return count;
}

function words(text: string): number {
  return text.match(/\S+/g)?.length ?? 0;
}
