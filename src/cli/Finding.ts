/** What `agui-rx check` reports: one finding per problem, with the stage that found it, its rule id and the event index. */

/**
 * The stage that found a problem, in pipeline order. Open, so that new checks slot in: a stage
 * added here is printed and counted like the others.
 *
 * - `http`: the response was not a 2xx `text/event-stream` (rule `status` or `content-type`);
 * - `transport`: the request or the body failed, or timed out (rule `network`, `timeout`);
 * - `sse`: the SSE framing failed (rule: the `DecodeError` code, e.g. `frame-too-large`);
 * - `decode`: a frame's data is not an event (rule: `json`, `unknown-type`, `invalid-event`, `not-an-event`, …);
 * - `normalize`: `normalizeChunks()` rejected a chunk (rule `C*`, docs/rules.md#chunks);
 * - `verify`: `verifyEvents()` rejected an event (rule `R*`, docs/rules.md#order);
 * - `apply`: the client could not apply an accepted event (rule: the error's code or kind, e.g. `patch`);
 * - `run-end`: the stream ended without RUN_FINISHED or RUN_ERROR (rule `E8`, docs/rules.md#E8).
 */
export type Stage = "http" | "transport" | "sse" | "decode" | "normalize" | "verify" | "apply" | "run-end";

/** `error`: the endpoint broke a rule. `warning`: something a client strips or tolerates, but worth fixing. */
export type Severity = "error" | "warning";

/**
 * One problem: where (`index`, the 0-based position of the SSE data frame it is about; absent when
 * it is about the response as a whole), which rule, and a message saying what was expected and
 * what arrived.
 *
 * @example
 * const finding: Finding = { severity: "error", stage: "verify", rule: "R15", index: 3, message: "TEXT_MESSAGE_CONTENT for m9, which was never started" };
 */
export interface Finding {
  readonly severity: Severity;
  readonly stage: Stage;
  readonly rule: string;
  readonly index?: number;
  /** The type of the event at `index`, when the frame decoded. */
  readonly eventType?: string;
  readonly message: string;
}

/** How the run ended, as far as the checker could tell. */
export type RunOutcome =
  | { readonly kind: "finished"; readonly outcome: string }
  | { readonly kind: "error"; readonly message: string; readonly code?: string }
  | { readonly kind: "none" };

/**
 * Everything one check found: the findings in stream order, how many data frames arrived, and how
 * the run ended.
 *
 * @example
 * const report = await checkEndpoint("http://127.0.0.1:8000/", "hello");
 * process.exitCode = exitCodeOf(report);
 */
export interface CheckReport {
  readonly url: string;
  readonly findings: readonly Finding[];
  readonly frames: number;
  readonly end: RunOutcome;
}

/**
 * The exit code for a report: 0 for no findings at all, 1 for any (warnings included: a
 * conformance checker flags what a lenient client would hide).
 *
 * @example
 * process.exitCode = exitCodeOf(report);
 */
export function exitCodeOf(report: CheckReport): number {
  return report.findings.length === 0 ? 0 : 1;
}
