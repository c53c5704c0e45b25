/** The framework-free inspector model (docs/observability.md#inspector): a thread's stream, frame by frame, with the verifier's findings where they happened. */
import * as E from "../../protocol/either";
import type { Event } from "../../protocol/events";
import { QUEUE_NOTICE_EVENT } from "../../protocol/queueMeta";
import { checkedStep, initialCheckedState, type CheckedSink, type CheckedState } from "../../operators/checkedStep";
import type { ProtocolError } from "../../operators/ProtocolError";
import { applyEvent } from "../../thread/reducers/applyEvent";
import { ClientState } from "../../thread/reducers/ClientState";
import { decodeEvent } from "../../wire/decodeEvent";
import { encodeSse } from "../../wire/encodeSse";
import type { SseFrame } from "../../wire/SseFrame";
import { SseFrameReader } from "../../wire/SseFrameReader";
import type { WireItem } from "./SessionWire";
import type { EventScope, InspectedEvent, StateChange } from "./InspectedEvent";
import type { InspectorFinding } from "./InspectorFinding";
import type { InspectorSnapshot, StreamFinding } from "./InspectorSnapshot";
import { SseBlockSplitter } from "./SseBlockSplitter";
import { traceIdOf, traceLinkOf } from "./traceLink";
import { utf8Length } from "./utf8Length";

/**
 * Options of an `Inspector`.
 *
 * @example
 * const inspector = new Inspector({ maxEvents: 1000, traceLink: "https://tracing.example/trace/{traceId}" });
 */
export interface InspectorOptions {
  /** How many events are kept; the oldest go first, counted in `dropped`. Default 5,000. */
  readonly maxEvents?: number | undefined;
  /** The largest SSE block read, in characters; a larger one is a finding and is skipped. Default 1 MiB. */
  readonly maxFrameBytes?: number | undefined;
  /** The trace link template: `{traceId}` is replaced by the run's trace id. */
  readonly traceLink?: string | undefined;
  /** The clock for items fed without a time (ms). Default `Date.now`. */
  readonly now?: (() => number) | undefined;
}

/** The default of `InspectorOptions.maxEvents`. */
export const DEFAULT_MAX_INSPECTED_EVENTS = 5000;

const DEFAULT_MAX_BLOCK = 1024 * 1024;
const NO_FINDINGS: readonly InspectorFinding[] = Object.freeze([]);

/** Per stream: its own verifier, raw reader and scope, as the Session verifies each stream afresh. */
interface StreamState {
  readonly number: number;
  readonly checked: CheckedState;
  /** A late stream is verified from its next RUN_STARTED: what came before was not seen. */
  verifying: boolean;
  /** Bytes came for this stream: its `event` items repeat them and are not listed. */
  raw: boolean;
  frames: number;
  runOpen: boolean;
  ended: boolean;
  runId: string | undefined;
  readonly steps: string[];
  decoder: TextDecoder | undefined;
  readonly splitter: SseBlockSplitter;
}

/**
 * Watches AG-UI streams and keeps what a developer needs to see them: every frame with its time,
 * size, raw SSE text and event; the findings of the decoder, the chunk normalizer, the verifier
 * (report mode, the client `Session`'s own `checkedStep`) and the reducer (`applyEvent`) at the
 * event where they happened; the state before and after each change; the thread's messages; the
 * latest run's trace id. Fed from a Session (`inspectSession`, or `feed` with `wireOf(session)`'s items) or by hand
 * (`stream`, `chunk`, `frame`, `event`, `end`) for a stream read elsewhere (the `agui-rx inspect`
 * page). Pure: no timers, no I/O; nothing it is fed throws out of it.
 *
 * Memory is bounded: at most `maxEvents` events (the oldest dropped and counted), SSE blocks of at
 * most `maxFrameBytes`. The state is shared between events structurally (the reducer's
 * patches copy only what changed).
 *
 * `subscribe(listener)` and `getSnapshot()` fit React's `useSyncExternalStore`.
 *
 * @example
 * const inspector = new Inspector({ traceLink: "https://tracing.example/trace/{traceId}" });
 * const subscription = wireOf(session).subscribe((item) => inspector.feed(item));
 * inspector.getSnapshot().events.filter((event) => event.findings.length > 0);
 */
export class Inspector {
  private readonly max: number;
  private readonly maxBlock: number;
  private readonly template: string | undefined;
  private readonly now: () => number;
  private events: InspectedEvent[] = [];
  private streamFindings: StreamFinding[] = [];
  private dropped = 0;
  private seq = 0;
  private streamCount = 0;
  private current: StreamState | undefined;
  private thread = ClientState.untyped();
  private traceId: string | undefined;
  private readonly listeners = new Set<() => void>();
  private snapshot: InspectorSnapshot | undefined;

  constructor(options: InspectorOptions = {}) {
    const max = options.maxEvents ?? DEFAULT_MAX_INSPECTED_EVENTS;
    if (!(max >= 1)) throw new RangeError(`Inspector: expected maxEvents to be at least 1, got ${String(max)}`);
    this.max = Math.floor(max);
    this.maxBlock = options.maxFrameBytes ?? DEFAULT_MAX_BLOCK;
    this.template = options.traceLink;
    this.now = options.now ?? Date.now;
  }

  /** Hears of every change; returns the unsubscribe. */
  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  };

  /** What the inspector holds now: the same object until the next change. */
  readonly getSnapshot = (): InspectorSnapshot => {
    this.snapshot ??= this.makeSnapshot();
    return this.snapshot;
  };

  /** One item of `wireOf(session)`. */
  feed(item: WireItem): void {
    switch (item.kind) {
      case "stream":
        this.stream({ at: item.at });
        break;
      case "response":
        this.response();
        break;
      case "bytes":
        this.chunk(item.bytes, item.at);
        break;
      case "event":
        this.event(item.event, item.at);
        break;
      case "end":
        this.end(item.at, item.error);
        break;
    }
  }

  /**
   * A new stream begins (a run's or a join's response): it is verified afresh. `late` when its
   * start was not seen: it is verified from its next RUN_STARTED.
   */
  stream(start: { readonly at?: number | undefined; readonly late?: boolean | undefined } = {}): void {
    if (this.current !== undefined && !this.current.ended) this.end(start.at);
    this.current = this.newStream(start.late === true);
    this.changed();
  }

  /** A new HTTP body of the current stream begins (a reconnection): a block cut by the old one's end is lost, as SSE says. */
  response(): void {
    const stream = this.stream$();
    stream.splitter.reset();
    stream.decoder = undefined;
  }

  /** A piece of the current stream's raw SSE body (text, or UTF-8 bytes split anywhere). */
  chunk(piece: Uint8Array | string, at: number = this.now()): void {
    const stream = this.stream$();
    stream.raw = true;
    let text: string;
    if (typeof piece === "string") text = piece;
    else {
      stream.decoder ??= new TextDecoder("utf-8", { ignoreBOM: true });
      text = stream.decoder.decode(piece, { stream: true });
    }
    this.feedText(stream, text, at);
  }

  /** One whole SSE block (its lines and the blank line that ends it) of the current stream. */
  frame(raw: string, at: number = this.now()): void {
    const stream = this.stream$();
    stream.raw = true;
    this.block(stream, raw, at);
    this.changed();
  }

  /**
   * An event of the current stream, from a transport that read no bytes (in process, a replay):
   * its raw text is its SSE encoding. Ignored when the stream's bytes came (it repeats them).
   */
  event(event: Event, at: number = this.now()): void {
    const stream = this.stream$();
    if (stream.raw) return;
    let raw: string;
    try {
      raw = encodeSse(event);
    } catch {
      raw = "";
    }
    this.inspect(stream, { raw, rawSource: "encoded", at, bytes: utf8Length(raw) }, () => E.right(event));
    this.changed();
  }

  /**
   * The current stream ended (with `error`, why it failed, if it did): a run left open is a finding
   * (docs/rules.md#E8, naming `error`), and otherwise a failure is one about the transport.
   */
  end(at: number = this.now(), error?: string): void {
    const stream = this.current;
    if (stream === undefined || stream.ended) return;
    const rest = stream.splitter.finish();
    if (rest.trim() !== "") {
      this.addStreamFinding(stream, at, {
        severity: "error",
        stage: "sse",
        rule: "truncated",
        message: `the body ended inside a frame, which is lost: ${quote(rest)}`,
      });
    }
    stream.ended = true;
    if (stream.runOpen) {
      const why = error === undefined ? "" : `: ${error}`;
      this.addStreamFinding(stream, at, {
        severity: "error",
        stage: "run-end",
        rule: "E8",
        message: `the stream ended after ${stream.frames} frames without RUN_FINISHED or RUN_ERROR (truncated)${why}`,
      });
    } else if (error !== undefined) this.addStreamFinding(stream, at, { severity: "error", stage: "transport", rule: "transport", message: error });
    this.changed();
  }

  /** Forgets everything: events, findings, the thread's messages and state. */
  clear(): void {
    this.events = [];
    this.streamFindings = [];
    this.dropped = 0;
    this.thread = ClientState.untyped();
    this.traceId = undefined;
    if (this.current !== undefined) this.current = this.newStream(true);
    this.changed();
  }

  private newStream(late: boolean): StreamState {
    const number = this.streamCount++;
    const state: StreamState = {
      number,
      checked: initialCheckedState({ mode: "report" }),
      verifying: !late,
      raw: false,
      frames: 0,
      runOpen: false,
      ended: false,
      runId: undefined,
      steps: [],
      decoder: undefined,
      splitter: new SseBlockSplitter(
        this.maxBlock,
        (block) => this.block(state, block, this.blockTime),
        (start) =>
          this.record(state, { raw: `${start}…`, rawSource: "received", at: this.blockTime, bytes: this.maxBlock }, undefined, undefined, [
            { severity: "error", stage: "sse", rule: "frame-too-large", message: `an SSE frame passed ${this.maxBlock} characters; it was skipped` },
          ]),
      ),
    };
    return state;
  }

  /** The time of the text being split (the splitter calls back synchronously). */
  private blockTime = 0;

  private feedText(stream: StreamState, text: string, at: number): void {
    this.blockTime = at;
    stream.splitter.feed(text);
    this.changed();
  }

  /** The current stream, or an implicit late one when items come before any `stream`. */
  private stream$(): StreamState {
    if (this.current === undefined || this.current.ended) this.current = this.newStream(this.current === undefined);
    return this.current;
  }

  /** One raw block: parsed as SSE, its data decoded, then inspected. Blocks without data (comments, `retry:`) are not listed. */
  private block(stream: StreamState, raw: string, at: number): void {
    let frame: SseFrame | undefined;
    new SseFrameReader(
      Number.MAX_SAFE_INTEGER,
      (read) => (frame ??= read),
      () => false,
    ).feed(raw);
    if (frame === undefined) return;
    const found = frame;
    const bytes = utf8Length(raw);
    if (found.event === QUEUE_NOTICE_EVENT) {
      this.record(stream, { raw, rawSource: "received", at, bytes }, QUEUE_NOTICE_EVENT, undefined, NO_FINDINGS);
      stream.frames++;
      return;
    }
    const warnings: InspectorFinding[] = [];
    this.inspect(stream, { raw, rawSource: "received", at, bytes }, () => decodeData(found.data, warnings), warnings);
  }

  /** Decodes, verifies, applies and records one frame. */
  private inspect(
    stream: StreamState,
    wire: { readonly raw: string; readonly rawSource: "received" | "encoded"; readonly at: number; readonly bytes: number },
    decode: () => E.Either<InspectorFinding, Event>,
    warnings: InspectorFinding[] = [],
  ): void {
    stream.frames++;
    const decoded = decode();
    if (E.isLeft(decoded)) {
      this.record(stream, wire, undefined, undefined, [...warnings, decoded.left]);
      return;
    }
    const event = decoded.right;
    const findings = warnings;
    const scope = this.scopeOf(stream, event);
    let state: StateChange | undefined;
    if (!stream.verifying && event.type === "RUN_STARTED") stream.verifying = true;
    const accepted: Event[] = [];
    if (stream.verifying) {
      const sink: CheckedSink = {
        sent: (sent) => accepted.push(sent),
        refused: (error: ProtocolError) =>
          findings.push({ severity: "error", stage: error.code === "chunk" ? "normalize" : "verify", rule: error.rule, message: error.message }),
      };
      try {
        checkedStep(stream.checked, event, sink);
      } catch (error) {
        findings.push({ severity: "error", stage: "normalize", rule: "newId", message: error instanceof Error ? error.message : String(error) });
      }
    } else accepted.push(event);
    for (const next of accepted) {
      const before = this.thread.rawState;
      for (const update of applyEvent(this.thread, next)) {
        if (update.kind !== "error" || update.error.kind === "run") continue;
        findings.push({
          severity: update.error.kind === "warning" ? "warning" : "error",
          stage: "apply",
          rule: update.error.code ?? update.error.kind,
          message: update.error.message,
        });
      }
      if (this.thread.rawState !== before) state = { before: state?.before ?? before, after: this.thread.rawState };
      this.track(stream, next);
    }
    this.record(stream, wire, event.type, event, findings, scope, state);
  }

  /** The run, step and message or tool call `event` belongs to, as the stream stands before it. */
  private scopeOf(stream: StreamState, event: Event): EventScope {
    const fields = event as { readonly messageId?: unknown; readonly toolCallId?: unknown; readonly runId?: unknown; readonly stepName?: unknown };
    const runId = event.type === "RUN_STARTED" && typeof fields.runId === "string" ? fields.runId : stream.runId;
    const stepName =
      (event.type === "STEP_STARTED" || event.type === "STEP_FINISHED") && typeof fields.stepName === "string" ? fields.stepName : stream.steps.at(-1);
    const toolCallId = typeof fields.toolCallId === "string" ? fields.toolCallId : undefined;
    const messageId = toolCallId === undefined && typeof fields.messageId === "string" ? fields.messageId : undefined;
    return { runId, stepName, messageId, toolCallId };
  }

  /** What an accepted event opens or closes: the run, steps, the trace id. */
  private track(stream: StreamState, event: Event): void {
    switch (event.type) {
      case "RUN_STARTED": {
        stream.runId = event.runId;
        stream.runOpen = true;
        stream.steps.length = 0;
        const traceId = traceIdOf(event);
        if (traceId !== undefined) this.traceId = traceId;
        break;
      }
      case "RUN_FINISHED":
      case "RUN_ERROR":
        stream.runOpen = false;
        stream.steps.length = 0;
        break;
      case "STEP_STARTED":
        stream.steps.push(event.stepName);
        break;
      case "STEP_FINISHED": {
        const at = stream.steps.lastIndexOf(event.stepName);
        if (at >= 0) stream.steps.splice(at, 1);
        break;
      }
      default:
        break;
    }
  }

  private record(
    stream: StreamState,
    wire: { readonly raw: string; readonly rawSource: "received" | "encoded"; readonly at: number; readonly bytes: number },
    type: string | undefined,
    event: Event | undefined,
    findings: readonly InspectorFinding[],
    scope: EventScope = { runId: stream.runId },
    state?: StateChange,
  ): void {
    const index = stream.frames - 1;
    const entry: InspectedEvent = {
      seq: this.seq++,
      stream: stream.number,
      index,
      at: wire.at,
      bytes: wire.bytes,
      raw: wire.raw,
      rawSource: wire.rawSource,
      type,
      event,
      findings: findings.length === 0 ? NO_FINDINGS : findings,
      scope,
      ...(state === undefined ? {} : { state }),
    };
    this.events.push(entry);
    // Dropped in batches, so that keeping the cap costs O(1) per event on average.
    if (this.events.length > this.max + Math.ceil(this.max / 8)) this.trim();
    this.snapshot = undefined;
  }

  private trim(): void {
    const over = this.events.length - this.max;
    if (over > 0) {
      this.events = this.events.slice(over);
      this.dropped += over;
    }
    if (this.streamFindings.length > this.max) this.streamFindings = this.streamFindings.slice(-this.max);
  }

  private addStreamFinding(stream: StreamState, at: number, finding: InspectorFinding): void {
    this.streamFindings.push({ stream: stream.number, at, finding });
    this.snapshot = undefined;
  }

  private changed(): void {
    this.snapshot = undefined;
    for (const listener of this.listeners) listener();
  }

  private makeSnapshot(): InspectorSnapshot {
    this.trim();
    let errors = 0;
    let warnings = 0;
    const count = (finding: InspectorFinding): void => {
      if (finding.severity === "error") errors++;
      else warnings++;
    };
    for (const event of this.events) event.findings.forEach(count);
    for (const { finding } of this.streamFindings) count(finding);
    return {
      events: this.events.slice(),
      dropped: this.dropped,
      streamFindings: this.streamFindings.slice(),
      errors,
      warnings,
      messages: this.thread.messages.snapshot(),
      state: this.thread.rawState,
      traceId: this.traceId,
      traceLink: this.traceId === undefined || this.template === undefined ? undefined : traceLinkOf(this.template, this.traceId),
      streams: this.streamCount,
    };
  }
}

/** A frame's data to an event, as `agui-rx check` decodes it: JSON, then the codecs; what they strip is a warning. */
function decodeData(data: string, warnings: InspectorFinding[]): E.Either<InspectorFinding, Event> {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch (cause) {
    const why = cause instanceof Error ? cause.message : String(cause);
    return E.left({ severity: "error", stage: "decode", rule: "json", message: `the frame's data is not JSON (${why}): ${quote(data)}` });
  }
  const result = decodeEvent(json, {
    onWarning: (warning) => warnings.push({ severity: "warning", stage: "decode", rule: warning.code, message: warning.message }),
  });
  return E.isLeft(result) ? E.left({ severity: "error", stage: "decode", rule: result.left.code, message: result.left.message }) : result;
}

function quote(text: string): string {
  return JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text);
}
