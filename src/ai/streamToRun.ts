/** `streamToRun`: reads `streamText`'s full stream into a run through `applyPart`, holding the open spans between parts (docs/ai.md#model-agents). */
import type { TextStreamPart, ToolSet } from "ai";
import { AgentError } from "../server/AgentError";
import type { SuccessOutcome } from "../server/Agent";
import type { RunContext } from "../server/RunContext";
import { applyPart, type Ending, type PartMapping } from "./applyPart";
import { describeError, MODEL_ABORTED_CODE, type ErrorDescriber } from "./describeError";
import { closeStep, openSpans } from "./OpenSpans";

/**
 * Options of `streamToRun` (and, through it, of `aiAgent`).
 *
 * @example
 * streamToRun(ctx, result, { provider: "openai", steps: false, onError: (error) => ({ message: "The model is unavailable.", code: "MODEL_ERROR" }) });
 */
export interface StreamToRunOptions {
  /** What the client sees of a model or tool error; `describeError` by default (the provider's message, nothing else). */
  readonly onError?: ErrorDescriber | undefined;
  /** Whether each model step becomes STEP_STARTED/STEP_FINISHED (`step-1`, `step-2`, …); `true` by default. */
  readonly steps?: boolean | undefined;
  /** The provider name on usage entries and RAW events (`providerName(model)` gives it); the model name comes from each step's response. */
  readonly provider?: string | undefined;
  /**
   * Called for each `steering-message` part with its id: return `true` when it is a message of the
   * run's own (`ctx.offers$`) that you took (`offer.take()` records it), `false` to have the part
   * recorded as a user message here. `aiAgent` passes its `RunSteering`'s (docs/ai.md#steering).
   */
  readonly steered?: ((id: string) => boolean) | undefined;
}

/**
 * What `streamToRun` reads: a `streamText` result, or anything else with the same full stream.
 *
 * @example
 * const source: FullStreamSource = streamText({ model, prompt: "hi" });
 */
export interface FullStreamSource<TOOLS extends ToolSet = ToolSet> {
  readonly fullStream: AsyncIterable<TextStreamPart<TOOLS>>;
}

/**
 * Maps the whole of `result.fullStream` onto `ctx`'s handles, then resolves with the success
 * outcome to return from `Agent.run`; with `pendingToolCallIds` when the model called tools that
 * got no result (client tools: the client runs them and starts the next run). The table of what
 * each part becomes is in docs/ai.md. In short:
 *
 * - each model step is one assistant message (its text blocks and the `parentMessageId` of its
 *   tool calls), inside STEP_STARTED/STEP_FINISHED unless `steps: false`;
 * - reasoning becomes reasoning messages, with the provider metadata (signatures, encrypted
 *   content) as REASONING_ENCRYPTED_VALUE so the next run can send it back;
 * - tool input streams as TOOL_CALL_ARGS; results and tool errors become TOOL_CALL_RESULT;
 * - each `finish-step`'s usage is reported (`ctx.reportUsage`) for the terminal event;
 * - an `error` part (or the stream throwing) rejects with an `AgentError` built by `onError`, so
 *   the driver sends RUN_ERROR with the provider's message; the usage of finished steps stays.
 *
 * Pass the run's signal to `streamText` (`abortSignal: ctx.signal`): when the client goes away
 * the model call is aborted and this rejects with the abort reason, which the driver swallows. An
 * abort from elsewhere rejects with an `AgentError` coded `MODEL_ABORTED`. The stream is read at
 * the client's pace (`ctx.ready()` between parts).
 *
 * @example
 * const agent: Agent = {
 *   async run(ctx) {
 *     const result = streamText({ model, prompt: ctx.lastUserText() ?? "", abortSignal: ctx.signal });
 *     return streamToRun(ctx, result, { provider: providerName(model) });
 *   },
 * };
 */
export async function streamToRun<S, TOOLS extends ToolSet = ToolSet>(
  ctx: RunContext<S>,
  result: FullStreamSource<TOOLS>,
  options: StreamToRunOptions = {},
): Promise<SuccessOutcome> {
  const mapping: PartMapping = {
    onError: options.onError ?? describeError,
    steps: options.steps ?? true,
    provider: options.provider,
    steered: options.steered,
  };
  const spans = openSpans<S>();
  // Whether an error comes from reading the stream (a model failure) or from writing a part (ours).
  let reading = true;
  try {
    for await (const part of result.fullStream) {
      reading = false;
      const ending = applyPart(part, spans, ctx, mapping);
      if (ending !== undefined) throw endingError(ending, ctx, mapping);
      await ctx.ready();
      reading = true;
    }
  } catch (error) {
    if (ctx.signal.aborted) throw ctx.signal.reason;
    throw reading ? endingError({ kind: "error", error }, ctx, mapping) : error;
  }
  closeStep(spans);
  const pending = [...spans.awaitingResult];
  return pending.length > 0 ? { type: "success", pendingToolCallIds: pending } : { type: "success" };
}

/** The error a stream that ended early rejects with: the run's own abort reason, or an `AgentError` for the driver's RUN_ERROR. */
function endingError<S>(ending: Ending, ctx: RunContext<S>, mapping: PartMapping): unknown {
  if (ctx.signal.aborted) return ctx.signal.reason;
  if (ending.kind === "abort") {
    return new AgentError(`the model call was aborted${ending.reason === undefined || ending.reason === "" ? "" : `: ${ending.reason}`}`, MODEL_ABORTED_CODE);
  }
  const report = mapping.onError(ending.error, { kind: "model" });
  return new AgentError(report.message, report.code, { cause: ending.error });
}
