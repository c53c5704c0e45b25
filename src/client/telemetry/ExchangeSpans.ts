/**
 * The spans of one Session exchange (docs/observability.md#client): the run as the user saw it,
 * its follow-up runs, and its client tool executions.
 */
import type { Subscription } from "rxjs";
import type { OtelAttributes, OtelContext, OtelLink, OtelSpan, OtelTracer } from "../../telemetry/OtelApi";
import type { Telemetry } from "../../telemetry/Telemetry";
import { nonRecordingSpan } from "../../telemetry/nonRecordingSpan";
import type { RunEnd, Update } from "../../thread/Update";
import type { ExchangeTrace, TracedSession } from "../SessionTelemetry";
import type { RunningToolCall } from "../tools/RunningToolCalls";

/** The span names and attributes the client records; `agui_rx.*` are ours, the rest the generative-AI conventions' (v1.41.0, as the server's: src/server/tracing/traceConventions.ts). */
export const CLIENT_SPAN = {
  run: "invoke_agent",
  join: "agui_rx.connect",
  tool: "execute_tool",
  conversationId: "gen_ai.conversation.id",
  operation: "gen_ai.operation.name",
  toolName: "gen_ai.tool.name",
  toolCallId: "gen_ai.tool.call.id",
  toolType: "gen_ai.tool.type",
  errorType: "error.type",
  runId: "agui_rx.run.id",
  outcome: "agui_rx.run.outcome",
  roundtrip: "agui_rx.run.roundtrip",
  followUps: "agui_rx.client.follow_ups",
  reconnects: "agui_rx.client.reconnects",
  timeToFirstEvent: "agui_rx.client.time_to_first_event_ms",
  joined: "agui_rx.client.joined",
} as const;

/** OpenTelemetry's span kinds and status codes, as numbers (the API's enums). */
const INTERNAL = 0;
const CLIENT = 2;
const ERROR = 2;

/** One run's span and what is measured on it. */
interface RunSpan {
  readonly span: OtelSpan;
  readonly context: OtelContext;
  readonly startedAt: number;
  firstEvent: boolean;
  reconnects: number;
  ended: boolean;
}

/** What an exchange's spans are made with. */
export interface ExchangeSpansOptions {
  readonly tracer: OtelTracer;
  readonly telemetry: Telemetry;
  readonly session: TracedSession;
  readonly joined: boolean;
  /** Whether a request to this URL may carry the trace context (`traceTarget`). */
  readonly mayCarry: (url: string) => boolean;
  /** Milliseconds of a monotonic clock (`performance.now`). */
  readonly now: () => number;
}

/**
 * One exchange's trace (`ExchangeTrace`). The exchange's span (`invoke_agent`, kind client; a
 * `connect`'s is `agui_rx.connect`) starts with it, as the child of the active context, and ends at
 * its `done` with the outcome (or `unsubscribed`); each follow-up run of the client tool loop is
 * an `invoke_agent` child of it, linked to the run whose calls it answers; each client tool call
 * executed is an `execute_tool {name}` child of the run whose calls it answers. The requests of a
 * run carry that run's span as their `traceparent`. Every call is guarded: a tracer that throws
 * leaves the exchange untouched.
 *
 * @example
 * const trace = new ExchangeSpans({ tracer, telemetry, session, joined: false, mayCarry: traceTarget(), now: () => performance.now() });
 */
export class ExchangeSpans implements ExchangeTrace {
  private readonly root: RunSpan;
  private current: RunSpan;
  private readonly tools = new Map<string, OtelSpan>();
  private readonly watching: Subscription;

  constructor(private readonly options: ExchangeSpansOptions) {
    const { session, joined } = options;
    this.root = this.startRun(joined ? CLIENT_SPAN.join : CLIENT_SPAN.run, options.telemetry.active(), {
      [CLIENT_SPAN.joined]: joined,
    });
    this.current = this.root;
    this.watching = session.runningToolCalls$.subscribe((calls) => guard(() => this.toolCalls(calls)));
  }

  /** The trace context of the run in flight, for a request to `url` that may carry it. */
  headers(url: string): Readonly<Record<string, string>> | undefined {
    return guard(() => {
      if (!this.options.mayCarry(url)) return undefined;
      const headers: Record<string, string> = {};
      this.options.telemetry.inject(this.current.context, headers);
      return headers;
    });
  }

  /** A transport item of the run in flight: the first event is the time to first event (and a RUN_STARTED names the run). */
  readonly items = (item: unknown): void => {
    const run = this.current;
    if (run.firstEvent || !isEvent(item)) return;
    guard(() => {
      run.firstEvent = true;
      const elapsed = this.options.now() - run.startedAt;
      run.span.setAttribute(CLIENT_SPAN.timeToFirstEvent, elapsed);
      run.span.addEvent("agui_rx.first_event", { "agui_rx.event.type": item.type });
      if (item.type === "RUN_STARTED" && typeof item.runId === "string" && run === this.root) run.span.setAttribute(CLIENT_SPAN.runId, item.runId);
    });
  };

  /** An update of the exchange. */
  next(update: Update<unknown>): void {
    guard(() => {
      switch (update.kind) {
        case "connection":
          return this.connection(update.status, update.attempt);
        case "run":
          return this.followUp(update.runId, update.roundtrip);
        case "message":
          if (update.change.kind === "toolResult") this.toolAnswered(update.change.toolCallId, "error" in update.message && update.message.error !== undefined);
          return;
        case "error":
          return this.error(update.error);
        case "done":
          return this.done(update.end);
        default:
          return;
      }
    });
  }

  /** The exchange is over (its `done`, or an unsubscription before it): whatever is still open ends. */
  finalize(): void {
    guard(() => {
      this.watching.unsubscribe();
      for (const span of this.tools.values()) span.end();
      this.tools.clear();
      this.endRun(this.current, "unsubscribed");
      this.endRun(this.root, "unsubscribed");
    });
  }

  private startRun(name: string, parent: OtelContext, attributes: OtelAttributes, links?: OtelLink[]): RunSpan {
    const { tracer, telemetry, session } = this.options;
    const span = tracer.startSpan(
      name,
      {
        kind: CLIENT,
        attributes: { [CLIENT_SPAN.operation]: "invoke_agent", [CLIENT_SPAN.conversationId]: session.threadId, ...attributes },
        ...(links === undefined ? {} : { links }),
      },
      parent,
    );
    return { span, context: telemetry.withSpan(parent, span), startedAt: this.options.now(), firstEvent: false, reconnects: 0, ended: false };
  }

  private connection(status: "reconnecting" | "connected", attempt: number): void {
    const run = this.current;
    if (status === "reconnecting") {
      run.reconnects++;
      run.span.setAttribute(CLIENT_SPAN.reconnects, run.reconnects);
      run.span.addEvent("agui_rx.reconnecting", { "agui_rx.attempt": attempt });
    } else run.span.addEvent("agui_rx.reconnected", { "agui_rx.attempt": attempt });
  }

  /** A follow-up run starts: the run before it ended `success`, its calls answered. */
  private followUp(runId: string, roundtrip: number): void {
    const previous = this.current;
    if (previous !== this.root) this.endRun(previous, "success");
    this.root.span.setAttribute(CLIENT_SPAN.followUps, roundtrip);
    this.current = this.startRun(CLIENT_SPAN.run, this.root.context, { [CLIENT_SPAN.runId]: runId, [CLIENT_SPAN.roundtrip]: roundtrip }, [
      { context: previous.span.spanContext() },
    ]);
  }

  /** The session's running calls changed: a call seen for the first time starts its span. */
  private toolCalls(calls: readonly RunningToolCall[]): void {
    for (const call of calls) {
      if (this.tools.has(call.toolCallId)) continue;
      const span = this.options.tracer.startSpan(
        `${CLIENT_SPAN.tool} ${call.toolName}`,
        {
          kind: INTERNAL,
          attributes: {
            [CLIENT_SPAN.operation]: CLIENT_SPAN.tool,
            [CLIENT_SPAN.toolName]: call.toolName,
            [CLIENT_SPAN.toolCallId]: call.toolCallId,
            [CLIENT_SPAN.toolType]: "function",
          },
        },
        this.current.context,
      );
      this.tools.set(call.toolCallId, span);
    }
  }

  /** A call's result was appended: its span ends, an error result as an error. */
  private toolAnswered(toolCallId: string, failed: boolean): void {
    const span = this.tools.get(toolCallId);
    if (span === undefined) return; // arguments that did not decode: the tool never ran
    if (failed) {
      span.setAttribute(CLIENT_SPAN.errorType, "tool_error");
      span.setStatus({ code: ERROR, message: "the tool answered with an error result" });
    }
    span.end();
    // kept in the map (ended) so that the same call seen again in the running list starts nothing
    this.tools.set(toolCallId, ENDED);
  }

  /** An error update: a warning is an event, anything else an exception event with the code the client shows. */
  private error(error: { readonly kind?: string; readonly code?: string; readonly message: string }): void {
    const type = error.code ?? error.kind ?? "error";
    if (error.kind === "warning") {
      this.current.span.addEvent("agui_rx.warning", { [CLIENT_SPAN.errorType]: type, "exception.message": error.message });
      return;
    }
    this.current.span.addEvent("exception", { "exception.type": type, "exception.message": error.message, [CLIENT_SPAN.errorType]: type });
  }

  private done(end: RunEnd): void {
    const outcome = end.kind;
    if (end.kind === "failed") {
      const type = end.code ?? "failed";
      for (const run of this.current === this.root ? [this.root] : [this.current, this.root]) {
        run.span.setAttribute(CLIENT_SPAN.errorType, type);
        run.span.setStatus({ code: ERROR, message: end.message });
      }
    }
    this.endRun(this.current, outcome);
    this.endRun(this.root, outcome);
  }

  private endRun(run: RunSpan, outcome: string): void {
    if (run.ended) return;
    run.ended = true;
    run.span.setAttribute(CLIENT_SPAN.outcome, outcome);
    run.span.end();
  }
}

/** A span that records nothing: a tool call whose span already ended. */
const ENDED: OtelSpan = nonRecordingSpan({ traceId: "", spanId: "", traceFlags: 0 });

/** An AG-UI event as a transport delivers it (notices and warnings have no `type`). */
function isEvent(item: unknown): item is { readonly type: string; readonly runId?: unknown } {
  return typeof item === "object" && item !== null && typeof (item as { type?: unknown }).type === "string";
}

/** Runs `fn`, swallowing what it throws: telemetry never breaks a run. */
function guard<T>(fn: () => T): T | undefined {
  try {
    return fn();
  } catch {
    return undefined;
  }
}
