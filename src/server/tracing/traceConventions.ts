/**
 * The names spans are given and the attributes put on them (docs/observability.md#traces).
 *
 * The generative-AI ones follow the OpenTelemetry semantic conventions **v1.41.0** (the
 * `gen_ai.*` attributes as `@opentelemetry/semantic-conventions` 1.45.0's incubating entry
 * defines them, since moved to the semantic-conventions-genai repository): "Semantic Conventions
 * for GenAI agent and framework spans" (`invoke_agent {gen_ai.agent.name}`, `execute_tool
 * {gen_ai.tool.name}`). The HTTP ones follow the stable HTTP server span conventions. They are
 * written here rather than imported because the package's own advice for instrumentation is to
 * copy incubating names (they change in minor releases), and because `@opentelemetry/api` and its
 * companions are optional peers this library never imports.
 */

/** The semantic conventions version the `gen_ai.*` names follow. */
export const GEN_AI_SEMCONV_VERSION = "1.41.0";

/** The prefix of this library's own span attributes. */
export const OWN_ATTRIBUTE_PREFIX = "agui_rx.";

/**
 * Attribute names, by the convention that defines them.
 *
 * @example
 * span.setAttribute(ATTR.genAiConversationId, input.threadId);
 */
export const ATTR = {
  // GenAI (v1.41.0)
  genAiOperationName: "gen_ai.operation.name",
  genAiConversationId: "gen_ai.conversation.id",
  genAiAgentName: "gen_ai.agent.name",
  genAiAgentId: "gen_ai.agent.id",
  genAiProviderName: "gen_ai.provider.name",
  genAiRequestModel: "gen_ai.request.model",
  genAiUsageInputTokens: "gen_ai.usage.input_tokens",
  genAiUsageOutputTokens: "gen_ai.usage.output_tokens",
  genAiToolName: "gen_ai.tool.name",
  genAiToolCallId: "gen_ai.tool.call.id",
  genAiToolType: "gen_ai.tool.type",
  /** Opt-in (content): the tool call's arguments as the model wrote them. */
  genAiToolCallArguments: "gen_ai.tool.call.arguments",
  /** Opt-in (content): the tool call's result. */
  genAiToolCallResult: "gen_ai.tool.call.result",
  /** Opt-in (content): the messages the run was given. */
  genAiInputMessages: "gen_ai.input.messages",
  /** Opt-in (content): the messages the run wrote. */
  genAiOutputMessages: "gen_ai.output.messages",
  errorType: "error.type",
  // HTTP server spans (stable)
  httpRequestMethod: "http.request.method",
  httpRoute: "http.route",
  httpResponseStatusCode: "http.response.status_code",
  httpResponseBodySize: "http.response.body.size",
  // Ours
  runId: "agui_rx.run.id",
  parentRunId: "agui_rx.run.parent_id",
  runOutcome: "agui_rx.run.outcome",
  runResumed: "agui_rx.run.resumed",
  runEvents: "agui_rx.run.events",
  runBytes: "agui_rx.run.bytes",
  runInterrupts: "agui_rx.run.interrupts",
  /** Opt-in (content): the state the run was given, as JSON. */
  runState: "agui_rx.run.state",
  stepName: "agui_rx.step.name",
  subagentRunId: "agui_rx.subagent.run_id",
  subagentOutcome: "agui_rx.subagent.outcome",
  toolCallLeftForClient: "agui_rx.tool_call.left_for_client",
} as const;

/** The values of `gen_ai.operation.name` this library uses. */
export const OPERATION = { invokeAgent: "invoke_agent", executeTool: "execute_tool" } as const;

/**
 * How a run ended, as `agui_rx.run.outcome` says: its RUN_FINISHED outcome, its RUN_ERROR, or,
 * for a stream that ended without a terminal event, `cancelled` (the consumer went away) or
 * `error` (the stream failed).
 *
 * @example
 * const outcome: RunSpanOutcome = "interrupt";
 */
export type RunSpanOutcome = "success" | "interrupt" | "cancelled" | "error";

/** OpenTelemetry's `SpanKind` values this library starts spans with. */
export const SPAN_KIND = { internal: 0, server: 1 } as const;

/** OpenTelemetry's `SpanStatusCode.ERROR`. */
export const STATUS_ERROR = 2;
