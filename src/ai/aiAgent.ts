/** `aiAgent`: an `Agent` whose run is one `streamText` call of the Vercel AI SDK over the run's thread and tools (docs/ai.md#model-agents). */
import { stepCountIs, streamText, type LanguageModel, type StopCondition, type SystemModelMessage, type ToolSet } from "ai";
import type { Context } from "../protocol/input";
import type { OtelContext } from "../telemetry/OtelApi";
import type { StateSpec } from "../protocol/stateSpec";
import type { Agent, SuccessOutcome } from "../server/Agent";
import type { RunContext } from "../server/RunContext";
import { Telemetry } from "../telemetry/Telemetry";
import type { TelemetryOptions } from "../telemetry/TelemetryOptions";
import { clientTools } from "./clientTools";
import type { ProviderOptions } from "./contentParts";
import type { ErrorDescriber } from "./describeError";
import { joinRun, modelTelemetry } from "./modelTelemetry";
import { RunSteering } from "./RunSteering";
import { streamToRun } from "./streamToRun";
import { toModelPrompt } from "./toModelPrompt";
import { providerName } from "./toTokenUsage";

/**
 * The options of one `streamText` call, as `aiAgent` builds them and `prepare` may change them.
 *
 * @example
 * const prepare = (ctx: RunContext, call: AiCall): AiCall => ({ ...call, temperature: 0 });
 */
export type AiCall = Parameters<typeof streamText>[0];

/**
 * Options of `aiAgent`.
 *
 * @example
 * const options: AiAgentOptions = { model: openai("gpt-4o"), system: "You are terse.", tools: { get_weather }, maxSteps: 5 };
 */
export interface AiAgentOptions<S = unknown> {
  /** The model: a provider's model object, or a gateway model id string. */
  readonly model: LanguageModel;
  /** The system prompt, sent before the thread's own system and developer messages. */
  readonly system?: string | undefined;
  /** Server tools (with `execute`): they run inside the run. They win over a client tool of the same name. */
  readonly tools?: ToolSet | undefined;
  /** The most model steps one run takes (one step per model call of the tool loop); 20 by default. */
  readonly maxSteps?: number | undefined;
  /** A stop condition of the SDK (`stepCountIs`, `hasToolCall`, …) instead of `maxSteps`. */
  readonly stopWhen?: StopCondition<ToolSet> | StopCondition<ToolSet>[] | undefined;
  /** Provider-specific options, passed to `streamText` as they are. */
  readonly providerOptions?: ProviderOptions | undefined;
  /**
   * Builds the call from the run: receives the context and the call `aiAgent` made (model,
   * instructions, messages, tools, stop condition, provider options, abort signal) and returns
   * the one to make. `ctx.signal` still aborts the call if the returned one has its own signal.
   */
  readonly prepare?: ((ctx: RunContext<S>, call: AiCall) => AiCall | Promise<AiCall>) | undefined;
  /** What the client sees of model and tool errors (see `describeError`, the default). */
  readonly onError?: ErrorDescriber | undefined;
  /** Whether model steps become STEP_STARTED/STEP_FINISHED; `true` by default. */
  readonly steps?: boolean | undefined;
  /** The agent's shared state, for a `prepare` or tools that read `ctx.state`. */
  readonly state?: StateSpec<S> | undefined;
  /** The agent's name: its run spans' (`invoke_agent {name}`) and the AI SDK telemetry's `functionId` (docs/observability.md#ai-sdk). */
  readonly name?: string | undefined;
  /**
   * What the AI SDK's own telemetry records of this agent's model calls (docs/observability.md#ai-sdk):
   * `recordContent: true` lets it record prompts, responses and tool arguments (`recordInputs`,
   * `recordOutputs`), which `aiAgent` turns off by default although the AI SDK records them
   * unless told not to; `tracer: false` turns its telemetry off for this agent. Its spans are made
   * by the integration registered with the AI SDK (`registerTelemetry(new OpenTelemetry())`,
   * `@ai-sdk/otel`), with that integration's tracer, as children of the run's span.
   */
  readonly telemetry?: TelemetryOptions | undefined;
}

/** The default of `maxSteps`, the AI SDK's own default for its tool-loop agent. */
export const DEFAULT_MAX_STEPS = 20;

/**
 * An agent backed by a model. Each run calls `streamText` with:
 * - `instructions`: `system`, then the request's `context` entries (one system message), then
 *   the thread's system and developer messages;
 * - `messages`: the rest of the thread (`toModelPrompt`);
 * - `tools`: the client's tools without `execute` (`clientTools(ctx.tools)`) and the server `tools`;
 * - `stopWhen`: `stepCountIs(maxSteps)` unless given; `providerOptions`; `abortSignal: ctx.signal`;
 * - `experimental_steering`: a steering object fed with the run's steered messages
 *   (`ctx.offers$`, docs/ai.md#steering): each reaches the model at the next step boundary and is
 *   recorded there (before that step's output) when the stream reports its `steering-message`;
 *   one the generation never delivers is left for a queued run;
 * - `telemetry`: the AI SDK's, recording no prompt or answer unless `telemetry.recordContent`,
 *   `functionId` the agent's `name`, its integrations run in the run's trace context
 *   (docs/observability.md#ai-sdk);
 * then `prepare` may change the call, and `streamToRun` maps the stream onto the run. The run
 * ends with success, carrying `pendingToolCallIds` when the model called client tools; with
 * RUN_ERROR (the provider's message, code `MODEL_ERROR`) when the model fails; and the usage of
 * every model step on the terminal event.
 *
 * @example
 * const agent = aiAgent({
 *   model: openai("gpt-4o"),
 *   system: "You answer questions about the weather.",
 *   tools: { get_weather: tool({ inputSchema: z.object({ city: z.string() }), execute: weather }) },
 * });
 * serve(createHandler(agent));
 */
export function aiAgent<S = unknown>(options: AiAgentOptions<S>): Agent<S> {
  const maxSteps = options.maxSteps ?? DEFAULT_MAX_STEPS;
  if (!Number.isInteger(maxSteps) || maxSteps < 1) throw new TypeError(`expected maxSteps to be a positive integer, but got ${String(options.maxSteps)}`);
  const telemetry = new Telemetry(options.telemetry);
  return {
    name: options.name,
    state: options.state,
    async run(ctx: RunContext<S>): Promise<SuccessOutcome> {
      // Read before the first await: the run's span is active here wherever the driver made it so.
      const runContext = telemetry.active();
      const steered = new RunSteering(ctx.offers$);
      try {
        return await generate(ctx, options, maxSteps, steered, { telemetry, runContext });
      } finally {
        steered.stop();
      }
    },
  };
}

/** One run's `streamText` call, mapped onto the run; steers reach it through `steered`. */
async function generate<S>(
  ctx: RunContext<S>,
  options: AiAgentOptions<S>,
  maxSteps: number,
  steered: RunSteering,
  trace: { readonly telemetry: Telemetry; readonly runContext: OtelContext },
): Promise<SuccessOutcome> {
  const prompt = toModelPrompt(ctx.messages);
  const instructions = [...systemOf(options.system), ...contextOf(ctx.context), ...prompt.instructions];
  const built: AiCall = {
    model: options.model,
    ...(instructions.length > 0 ? { instructions } : {}),
    messages: prompt.messages,
    tools: { ...clientTools(ctx.tools), ...options.tools },
    stopWhen: options.stopWhen ?? stepCountIs(maxSteps),
    ...(options.providerOptions === undefined ? {} : { providerOptions: options.providerOptions }),
    abortSignal: ctx.signal,
    onError: reportedThroughTheStream,
    experimental_steering: steered.steering,
    telemetry: modelTelemetry(options.telemetry, options.name),
  };
  // Started before the call, so messages steered before it reach its first step.
  steered.start();
  const call = options.prepare === undefined ? built : await options.prepare(ctx, built);
  const result = streamText({
    ...call,
    abortSignal: withRunSignal(ctx.signal, call.abortSignal),
    telemetry: joinRun(call.telemetry ?? call.experimental_telemetry, trace.runContext, trace.telemetry),
  });
  return streamToRun(ctx, result, {
    onError: options.onError,
    steps: options.steps,
    provider: providerName(call.model),
    steered: (id) => steered.delivered(id),
  });
}

function systemOf(system: string | undefined): SystemModelMessage[] {
  return system === undefined || system === "" ? [] : [{ role: "system", content: system }];
}

/** The request's context entries as one system message; nothing when there are none. */
function contextOf(context: readonly Context[]): SystemModelMessage[] {
  if (context.length === 0) return [];
  const entries = context.map((entry) => `${entry.description}:\n${entry.value}`).join("\n\n");
  return [{ role: "system", content: `Context from the application:\n\n${entries}` }];
}

/** The run's signal, joined with one `prepare` added, so the client going away still aborts the call. */
function withRunSignal(run: AbortSignal, added: AbortSignal | undefined): AbortSignal {
  return added === undefined || added === run ? run : AbortSignal.any([run, added]);
}

/**
 * `streamText`'s `onError`: the SDK's default prints every error to the console; here the error
 * reaches the run through the stream's `error` part (and RUN_ERROR), so nothing else is done.
 */
function reportedThroughTheStream(): void {
  return undefined;
}
