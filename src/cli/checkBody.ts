/** The checking half of `agui-rx check`: an SSE body in, every finding of decoding, normalization, verification and apply out. */
import { filter, from, map, tap, type Observable } from "rxjs";
import * as E from "../protocol/either";
import {
  DecodeError,
  DecodeWarning,
  Diagnostic,
  decodeEvent,
  isDecodeWarning,
  decodeSseFrames,
  normalizeChunks,
  verifyEvents,
  type DecodeSseOptions,
  type Event,
} from "../index";
import { ClientError, applyEvents, type ErrorUpdate } from "../client/index";
import type { Finding, RunOutcome, Severity } from "./Finding";

/** What one body produced. */
export interface BodyCheck {
  readonly findings: readonly Finding[];
  /** How many SSE data frames arrived. */
  readonly frames: number;
  readonly end: RunOutcome;
}

/**
 * The severity of an `error` update of the apply pass, by its kind. One place, so a new kind (the
 * non-fatal warnings of stripped unknown members, say) is decided here. Unlisted kinds are errors.
 */
const SEVERITY_OF_KIND: Readonly<Record<string, Severity>> = { warning: "warning" };

/**
 * Checks one response body, given as text or UTF-8 chunks, and resolves when it ends (never
 * rejects): each SSE data frame is parsed and decoded on its own (`decodeSseFrames`, `decodeEvent`),
 * so one bad frame is reported and the next is still checked; the events go through
 * `normalizeChunks()` and `verifyEvents()` in report mode, whose diagnostics become findings at
 * the index of the frame being processed; the accepted events are then applied as a client would
 * (`applyEvents()`), and what fails there (a patch that does not apply) is a finding too. A stream
 * with no RUN_FINISHED or RUN_ERROR is reported as truncated (docs/rules.md#E8).
 *
 * @example
 * const { findings } = await checkBody(of('data: {"type":"TEXT_MESSAGE_CONTENT","messageId":"m9","delta":"x"}\n\n'));
 * // findings: R1 at #0 (the first event must be RUN_STARTED), E8 (no terminal event)
 */
export function checkBody(body$: Observable<string | Uint8Array>, options: DecodeSseOptions = {}): Promise<BodyCheck> {
  return new Promise((resolve) => {
    const findings: Finding[] = [];
    const accepted: { readonly index: number; readonly event: Event }[] = [];
    let frames = 0;
    /** The frame being processed: the operators are synchronous, so what they emit belongs to it. */
    let current: { index: number; type?: string } = { index: -1 };
    let end: RunOutcome = { kind: "none" };

    const decoded$ = body$.pipe(
      decodeSseFrames(options),
      map((frame): Event | undefined => {
        current = { index: frames };
        frames += 1;
        const result = decodeData(frame.data, (warning) => findings.push(warningFinding(warning, current.index)));
        if (E.isLeft(result)) {
          const { code, eventType, message } = result.left;
          findings.push({ severity: "error", stage: "decode", rule: code, index: current.index, ...typeOf({ type: eventType }), message });
          return undefined;
        }
        current.type = result.right.type;
        if (end.kind === "none") end = outcomeOf(result.right);
        return result.right;
      }),
      filter((event): event is Event => event !== undefined),
    );

    const finish = (): void => {
      if (end.kind === "none") {
        findings.push({
          severity: "error",
          stage: "run-end",
          rule: "E8",
          message: `the stream ended after ${frames} frames without RUN_FINISHED or RUN_ERROR (truncated)`,
        });
      }
      findings.push(...applyFindings(accepted));
      resolve({ findings: sortByIndex(findings), frames, end });
    };

    decoded$.pipe(normalizeChunks({ mode: "report" }), verifyEvents({ mode: "report" })).subscribe({
      next: (item) => {
        if (isDecodeWarning(item)) {
          findings.push(warningFinding(item, current.index)); // not fed here (decodeData reports them), but the operators pass them on
        } else if (Diagnostic.isInstance(item)) {
          const { error } = item;
          const stage = error.code === "chunk" ? "normalize" : "verify";
          findings.push({ severity: "error", stage, rule: error.rule, index: current.index, ...typeOf(current), message: error.message });
        } else accepted.push({ index: current.index, event: item });
      },
      error: (error: unknown) => {
        findings.push(streamFailure(error, current.index + 1));
        finish();
      },
      complete: finish,
    });
  });
}

/** A stripped unknown property or member (AG-UI 1.1): a warning, at the frame it was stripped from. */
function warningFinding(warning: DecodeWarning, index: number): Finding {
  return { severity: "warning", stage: "decode", rule: warning.code, index, eventType: warning.eventType, message: warning.message };
}

/** A frame's data: JSON, then an event; what decoding strips is told to `onWarning`. */
function decodeData(data: string, onWarning: (warning: DecodeWarning) => void): E.Either<DecodeError, Event> {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch (cause) {
    const why = cause instanceof Error ? cause.message : String(cause);
    const quoted = data.length > 80 ? `${data.slice(0, 80)}…` : data;
    return E.left(new DecodeError("json", `the frame's data is not JSON (${why}): ${JSON.stringify(quoted)}`));
  }
  return decodeEvent(json, { onWarning });
}

function outcomeOf(event: Event): RunOutcome {
  if (event.type === "RUN_FINISHED") return { kind: "finished", outcome: event.outcome?.type ?? "success" };
  if (event.type === "RUN_ERROR")
    return event.code === undefined ? { kind: "error", message: event.message } : { kind: "error", message: event.message, code: event.code };
  return { kind: "none" };
}

function typeOf(current: { type?: string | undefined }): { eventType?: string } {
  return current.type === undefined ? {} : { eventType: current.type };
}

/** The source failing: bad framing (`sse`) or the connection (`transport`). */
function streamFailure(error: unknown, index: number): Finding {
  if (DecodeError.isInstance(error)) return { severity: "error", stage: "sse", rule: error.code, index, message: error.message };
  if (ClientError.isInstance(error)) return { severity: "error", stage: "transport", rule: error.code ?? error.kind, message: error.message };
  return { severity: "error", stage: "transport", rule: "network", message: error instanceof Error ? error.message : String(error) };
}

/**
 * The apply pass: the accepted events through the client's reducer. Protocol errors cannot occur
 * (only accepted events come here), RUN_ERROR is how the run ended rather than a finding, and a
 * missing terminal event was reported as docs/rules.md#E8 already.
 */
function applyFindings(accepted: readonly { readonly index: number; readonly event: Event }[]): Finding[] {
  const findings: Finding[] = [];
  let current: { index: number; type?: string } = { index: -1 };
  let sourceEnded = false;
  from(accepted)
    .pipe(
      tap({
        next: ({ index, event }) => (current = { index, type: event.type }),
        complete: () => (sourceEnded = true),
      }),
      map(({ event }) => event),
      applyEvents(),
      filter((update): update is ErrorUpdate => update.kind === "error"),
    )
    .subscribe(({ error }) => {
      if (error.kind === "run" || (error.kind === "decode" && sourceEnded)) return;
      const severity = SEVERITY_OF_KIND[error.kind] ?? "error";
      findings.push({ severity, stage: "apply", rule: error.code ?? error.kind, index: current.index, ...typeOf(current), message: error.message });
    });
  return findings;
}

/** Stream order; findings about the whole response (no index) last, in the order they were found. */
function sortByIndex(findings: readonly Finding[]): Finding[] {
  return findings
    .map((finding, order) => ({ finding, order }))
    .sort((a, b) => (a.finding.index ?? Infinity) - (b.finding.index ?? Infinity) || a.order - b.order)
    .map(({ finding }) => finding);
}
