/**
 * One run's spans, made from its events (docs/observability.md#traces): `invoke_agent` for the
 * run, a child per step, `execute_tool` per tool call, `invoke_agent` per subagent. One tracker
 * for every kind of source: the driver `run()` feeds it what its agent writes, the HTTP handler
 * feeds it a run function's stream; neither calls it at all when no tracer is there.
 */
import type { Event, EventOf } from "../../protocol/events";
import type { RunAgentInput } from "../../protocol/input";
import { withRunTrace, type RunTrace } from "../../protocol/runTraceMeta";
import type { TokenUsage } from "../../protocol/common";
import type { OtelAttributes, OtelContext, OtelSpan, OtelTracer } from "../../telemetry/OtelApi";
import type { Telemetry } from "../../telemetry/Telemetry";
import { ATTR, OPERATION, SPAN_KIND, STATUS_ERROR, type RunSpanOutcome } from "./traceConventions";

/**
 * The context key that marks a context as inside the run span of a run id, so that a `run()`
 * subscribed by a handler that already traces that run (a routed run function that calls `run()`)
 * does not start a second `invoke_agent` for it.
 */
const RUN_KEY = Symbol.for("agui-rx run span");

/** The most characters of one content attribute (`recordContent`): content is large, a span should not be. */
export const CONTENT_LIMIT = 64 * 1024;

/** An open span and the context its children start in. */
interface Open {
  readonly span: OtelSpan;
  readonly context: OtelContext;
}

/** A step's span, by its name (STEP_FINISHED names the step it ends). */
interface OpenStep extends Open {
  readonly name: string;
}

/** The run's top level or one subagent invocation: its span, and its steps still open, innermost last. */
interface OpenScope extends Open {
  readonly steps: OpenStep[];
}

/** A tool call's span, with its arguments as they stream (kept only with `recordContent`). */
interface OpenTool extends Open {
  args: string;
}

/**
 * The span tracker of one run. Every method swallows what the tracer throws: the first throw ends
 * the spans still open and turns the tracker off, and the run goes on untouched.
 *
 * @example
 * const spans = RunSpans.start(telemetry, input, parentContext, agent.name);
 * const traced = spans === undefined ? event : spans.observe(event); // RUN_STARTED gains its trace in metadata
 */
export class RunSpans {
  private readonly root: OpenScope;
  private readonly subagents = new Map<string, OpenScope>();
  private readonly tools = new Map<string, OpenTool>();
  /** Text each message wrote (`recordContent` only), by message id, in order. */
  private readonly output = new Map<string, string>();
  private outputChars = 0;
  private events = 0;
  private bytes = 0;
  private holds = 0;
  /** How the run ended, once its terminal event (or the end of its stream) was seen. */
  private outcome: RunSpanOutcome | undefined;
  private ended = false;
  private broken = false;

  private constructor(
    private readonly tracer: OtelTracer,
    private readonly telemetry: Telemetry,
    private readonly input: RunAgentInput,
    span: OtelSpan,
    parent: OtelContext,
  ) {
    this.root = { span, context: telemetry.withSpan(parent, span).setValue(RUN_KEY, input.runId), steps: [] };
  }

  /**
   * Starts the run's span (`invoke_agent {agentName}`) as a child of `parent`'s span, or returns
   * `undefined` when there is no tracer, the tracer threw, or the span does not record (sampled
   * out: its children would not record either, so nothing per event is worth doing).
   */
  static start(telemetry: Telemetry, input: RunAgentInput, parent: OtelContext, agentName?: string): RunSpans | undefined {
    try {
      const tracer = telemetry.tracer();
      if (tracer === undefined) return undefined;
      const attributes: Record<string, string | boolean> = {
        [ATTR.genAiOperationName]: OPERATION.invokeAgent,
        [ATTR.genAiConversationId]: input.threadId,
        [ATTR.runId]: input.runId,
        [ATTR.runResumed]: (input.resume?.length ?? 0) > 0,
      };
      if (agentName !== undefined) attributes[ATTR.genAiAgentName] = agentName;
      if (input.parentRunId !== undefined) attributes[ATTR.parentRunId] = input.parentRunId;
      if (telemetry.recordContent) {
        attributes[ATTR.genAiInputMessages] = capped(jsonOf(input.messages));
        if (input.state !== undefined) attributes[ATTR.runState] = capped(jsonOf(input.state));
      }
      const name = agentName === undefined ? OPERATION.invokeAgent : `${OPERATION.invokeAgent} ${agentName}`;
      const span = tracer.startSpan(name, { kind: SPAN_KIND.internal, attributes }, parent);
      if (!span.isRecording()) {
        span.end();
        return undefined;
      }
      return new RunSpans(tracer, telemetry, input, span, parent);
    } catch {
      return undefined; // a tracer that throws never breaks a run
    }
  }

  /** Whether `context` is already inside the run span of `runId` (a handler traces that run). */
  static tracedIn(context: OtelContext, runId: string): boolean {
    return context.getValue(RUN_KEY) === runId;
  }

  /** The run span's context: the one the agent runs in, so that spans started inside are its children. */
  get context(): OtelContext {
    return this.root.context;
  }

  /** Runs `call` with the run span's context active (a no-op wrapper without a context manager). */
  enter<R>(call: () => R): R {
    return this.telemetry.with(this.root.context, call);
  }

  /** The run span's trace context, as the run's RUN_STARTED `metadata` carries it. */
  get trace(): RunTrace {
    const { traceId, spanId } = this.root.span.spanContext();
    return { traceId, spanId };
  }

  /**
   * Takes one event the run sends, in order, and returns it: RUN_STARTED with the run's trace
   * added to its `metadata` (docs/observability.md#traces), every other event as it is.
   */
  observe(event: Event): Event {
    if (this.broken) return event;
    try {
      return this.take(event);
    } catch {
      this.break();
      return event;
    }
  }

  /**
   * Keeps the run span open until the function returned is called, however the run ends before
   * it: the run's own response holds it while it sends, so that the bytes it sent are counted.
   */
  hold(): () => void {
    this.holds++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.holds--;
      if (this.outcome !== undefined && this.holds === 0) this.endRun();
    };
  }

  /** Counts bytes the run's own response sent. */
  addBytes(count: number): void {
    this.bytes += count;
  }

  /**
   * The run's stream ended; a run that sent no terminal event ends `cancelled` (its consumer went
   * away, or a stop) or `error` with `errorType` and `message` (the stream failed, or the run was
   * refused before it began). After a terminal: nothing.
   */
  streamEnded(outcome: "cancelled" | "error", errorType?: string, message = "the run's stream failed"): void {
    if (this.outcome !== undefined || this.broken) return;
    try {
      if (outcome === "error") this.markError(this.root.span, errorType ?? "_OTHER", message);
      this.finish(outcome);
    } catch {
      this.break();
    }
  }

  private take(event: Event): Event {
    this.events++;
    switch (event.type) {
      case "RUN_STARTED":
        return { ...event, metadata: withRunTrace(event.metadata, this.trace) };
      case "STEP_STARTED":
        this.openStep(event);
        return event;
      case "STEP_FINISHED":
        this.closeStep(event);
        return event;
      case "TOOL_CALL_START":
        this.openTool(event);
        return event;
      case "TOOL_CALL_ARGS": {
        const tool = this.telemetry.recordContent ? this.tools.get(event.toolCallId) : undefined;
        if (tool !== undefined && tool.args.length < CONTENT_LIMIT) tool.args += event.delta;
        return event;
      }
      case "TOOL_CALL_CHUNK":
        this.toolChunk(event);
        return event;
      case "TOOL_CALL_RESULT":
        this.closeTool(event);
        return event;
      case "SUBAGENT_STARTED":
        this.openSubagent(event);
        return event;
      case "SUBAGENT_FINISHED":
      case "SUBAGENT_ERROR":
        this.closeSubagent(event);
        return event;
      case "TEXT_MESSAGE_CONTENT":
        if (this.telemetry.recordContent && this.outputChars < CONTENT_LIMIT) {
          this.output.set(event.messageId, (this.output.get(event.messageId) ?? "") + event.delta);
          this.outputChars += event.delta.length;
        }
        return event;
      case "RUN_FINISHED":
        this.runFinished(event);
        return event;
      case "RUN_ERROR":
        this.markError(this.root.span, event.code ?? "_OTHER", event.message);
        this.usage(event.usage);
        this.finish("error");
        return event;
      default:
        return event;
    }
  }

  /** The scope an attributed event belongs to: its subagent's, or the run's top level. */
  private scopeOf(subagentRunId: string | undefined): OpenScope {
    return (subagentRunId === undefined ? undefined : this.subagents.get(subagentRunId)) ?? this.root;
  }

  /** Where a span opened in `scope` goes: under the scope's innermost open step, or the scope itself. */
  private parentIn(scope: OpenScope): Open {
    return scope.steps[scope.steps.length - 1] ?? scope;
  }

  private startChild(name: string, parent: Open, attributes: OtelAttributes): Open {
    const span = this.tracer.startSpan(name, { kind: SPAN_KIND.internal, attributes }, parent.context);
    return { span, context: this.telemetry.withSpan(parent.context, span) };
  }

  private openStep(event: EventOf<"STEP_STARTED">): void {
    const scope = this.scopeOf(event.subagentRunId);
    const open = this.startChild(`step ${event.stepName}`, this.parentIn(scope), { [ATTR.stepName]: event.stepName });
    scope.steps.push({ ...open, name: event.stepName });
  }

  private closeStep(event: EventOf<"STEP_FINISHED">): void {
    const { steps } = this.scopeOf(event.subagentRunId);
    for (let i = steps.length - 1; i >= 0; i--) {
      const step = steps[i];
      if (step?.name !== event.stepName) continue;
      steps.splice(i, 1);
      step.span.end();
      return;
    }
  }

  /**
   * A chunk (a run function's stream the handler does not normalize): the first that names a new
   * call opens its span, as TOOL_CALL_START would; its deltas are the arguments.
   */
  private toolChunk(event: EventOf<"TOOL_CALL_CHUNK">): void {
    const { toolCallId, toolCallName } = event;
    if (toolCallId === undefined) return;
    if (!this.tools.has(toolCallId) && toolCallName !== undefined) {
      this.openTool({ type: "TOOL_CALL_START", toolCallId, toolCallName, subagentRunId: event.subagentRunId });
    }
    const tool = this.telemetry.recordContent ? this.tools.get(toolCallId) : undefined;
    if (tool !== undefined && event.delta !== undefined && tool.args.length < CONTENT_LIMIT) tool.args += event.delta;
  }

  private openTool(event: EventOf<"TOOL_CALL_START">): void {
    const attributes = {
      [ATTR.genAiOperationName]: OPERATION.executeTool,
      [ATTR.genAiToolName]: event.toolCallName,
      [ATTR.genAiToolCallId]: event.toolCallId,
    };
    const open = this.startChild(`${OPERATION.executeTool} ${event.toolCallName}`, this.parentIn(this.scopeOf(event.subagentRunId)), attributes);
    this.tools.set(event.toolCallId, { ...open, args: "" });
  }

  private closeTool(event: EventOf<"TOOL_CALL_RESULT">): void {
    const tool = this.tools.get(event.toolCallId);
    if (tool === undefined) return;
    this.tools.delete(event.toolCallId);
    if (this.telemetry.recordContent) {
      this.toolArguments(tool);
      tool.span.setAttribute(ATTR.genAiToolCallResult, capped(typeof event.content === "string" ? event.content : jsonOf(event.content)));
    }
    tool.span.end();
  }

  private toolArguments(tool: OpenTool): void {
    if (tool.args.length > 0) tool.span.setAttribute(ATTR.genAiToolCallArguments, capped(tool.args));
  }

  private openSubagent(event: EventOf<"SUBAGENT_STARTED">): void {
    const byTool = event.parentToolCallId === undefined ? undefined : this.tools.get(event.parentToolCallId);
    const parent = byTool ?? this.parentIn(this.scopeOf(event.parentSubagentRunId));
    const attributes = {
      [ATTR.genAiOperationName]: OPERATION.invokeAgent,
      [ATTR.genAiAgentName]: event.name,
      [ATTR.genAiConversationId]: this.input.threadId,
      [ATTR.subagentRunId]: event.subagentRunId,
    };
    const open = this.startChild(`${OPERATION.invokeAgent} ${event.name}`, parent, attributes);
    this.subagents.set(event.subagentRunId, { ...open, steps: [] });
  }

  private closeSubagent(event: EventOf<"SUBAGENT_FINISHED" | "SUBAGENT_ERROR">): void {
    const scope = this.subagents.get(event.subagentRunId);
    if (scope === undefined) return;
    this.subagents.delete(event.subagentRunId);
    for (const step of scope.steps.reverse()) step.span.end();
    if (event.type === "SUBAGENT_ERROR") {
      scope.span.setAttribute(ATTR.subagentOutcome, "error");
      this.markError(scope.span, event.code ?? "_OTHER", event.message);
    } else {
      scope.span.setAttribute(ATTR.subagentOutcome, event.outcome?.type ?? "success");
    }
    scope.span.end();
  }

  private runFinished(event: EventOf<"RUN_FINISHED">): void {
    const outcome = event.outcome;
    if (outcome?.type === "interrupt") this.root.span.setAttribute(ATTR.runInterrupts, outcome.interrupts.length);
    if (outcome?.type === "success" && outcome.pendingToolCallIds !== undefined) {
      for (const id of outcome.pendingToolCallIds) this.tools.get(id)?.span.setAttribute(ATTR.toolCallLeftForClient, true);
    }
    this.usage(event.usage);
    this.finish(outcome?.type ?? "success");
  }

  /** The terminal's token usage, summed over its (provider, model) entries; provider and model when there is one. */
  private usage(usage: readonly TokenUsage[] | undefined): void {
    if (usage === undefined || usage.length === 0) return;
    let input: number | undefined;
    let output: number | undefined;
    for (const entry of usage) {
      if (entry.inputTokens !== undefined) input = (input ?? 0) + entry.inputTokens;
      if (entry.outputTokens !== undefined) output = (output ?? 0) + entry.outputTokens;
    }
    const { span } = this.root;
    if (input !== undefined) span.setAttribute(ATTR.genAiUsageInputTokens, input);
    if (output !== undefined) span.setAttribute(ATTR.genAiUsageOutputTokens, output);
    const only = usage.length === 1 ? usage[0] : undefined;
    if (only?.provider !== undefined) span.setAttribute(ATTR.genAiProviderName, only.provider);
    if (only?.model !== undefined) span.setAttribute(ATTR.genAiRequestModel, only.model);
  }

  private markError(span: OtelSpan, code: string, message: string): void {
    span.setAttribute(ATTR.errorType, code);
    span.recordException({ name: code, message });
    span.setStatus({ code: STATUS_ERROR, message });
  }

  /**
   * The run is over: what it left open ends (a tool call without a result was left for the
   * client: the run ended waiting on it), then the run span, unless a response still holds it.
   */
  private finish(outcome: RunSpanOutcome): void {
    this.outcome = outcome;
    for (const tool of this.tools.values()) {
      if (this.telemetry.recordContent) this.toolArguments(tool);
      tool.span.setAttribute(ATTR.toolCallLeftForClient, true);
      tool.span.end();
    }
    this.tools.clear();
    for (const scope of [...this.subagents.values()].reverse()) {
      for (const step of scope.steps.reverse()) step.span.end();
      scope.span.end();
    }
    this.subagents.clear();
    for (const step of this.root.steps.reverse()) step.span.end();
    this.root.steps.length = 0;
    if (this.holds === 0) this.endRun();
  }

  private endRun(): void {
    if (this.ended) return;
    this.ended = true;
    try {
      const { span } = this.root;
      span.setAttribute(ATTR.runOutcome, this.outcome ?? "cancelled");
      span.setAttribute(ATTR.runEvents, this.events);
      if (this.bytes > 0) span.setAttribute(ATTR.runBytes, this.bytes);
      if (this.output.size > 0) span.setAttribute(ATTR.genAiOutputMessages, capped(jsonOf(outputMessages(this.output))));
      span.end();
    } catch {
      this.broken = true;
    }
  }

  /** The tracer threw: end what is open (each on its own, as far as it lets us) and stop tracing this run. */
  private break(): void {
    this.broken = true;
    const open: Open[] = [...this.tools.values(), ...[...this.subagents.values()].flatMap((scope) => [...scope.steps, scope]), ...this.root.steps];
    for (const { span } of open) {
      try {
        span.end();
      } catch {
        // the tracer is broken; the run goes on
      }
    }
    this.tools.clear();
    this.subagents.clear();
    this.outcome ??= "error";
    if (this.holds === 0) this.endRun();
  }
}

/** The output text as the GenAI conventions' output messages: one assistant message per message id. */
function outputMessages(texts: ReadonlyMap<string, string>): unknown[] {
  return [...texts.values()].map((content) => ({ role: "assistant", parts: [{ type: "text", content }] }));
}

function jsonOf(value: unknown): string {
  try {
    return JSON.stringify(value) ?? "null";
  } catch {
    return '"[unserializable]"';
  }
}

function capped(text: string): string {
  return text.length <= CONTENT_LIMIT ? text : `${text.slice(0, CONTENT_LIMIT)}…`;
}
