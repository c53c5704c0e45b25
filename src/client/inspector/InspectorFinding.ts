/** What the inspector found wrong with a stream, at the event where it happened (docs/observability.md#inspector). */

/**
 * The stage that found a problem, in pipeline order (the stages of `agui-rx check`): `sse` the
 * framing (a frame over the size limit), `decode` a frame that is not an event (or material the
 * decoder stripped: a warning), `normalize` a refused chunk (docs/rules.md#chunks), `verify` an
 * ordering rule (docs/rules.md#order), `apply` an accepted event the client could not apply (a
 * patch that does not apply), `run-end` a stream that ended without RUN_FINISHED or RUN_ERROR
 * (docs/rules.md#E8), `transport` the stream failed.
 *
 * @example
 * const stage: InspectorStage = "verify";
 */
export type InspectorStage = "sse" | "decode" | "normalize" | "verify" | "apply" | "run-end" | "transport";

/**
 * One problem: its severity (`warning` for what a client strips or tolerates), the stage and rule
 * that found it (`R15`, `C3`, `json`, `patch`, `E8`, …) and a message saying what was expected and
 * what arrived. It is held by the event it is about (`InspectedEvent.findings`).
 *
 * @example
 * const finding: InspectorFinding = { severity: "error", stage: "verify", rule: "R15", message: "TEXT_MESSAGE_CONTENT for m9, which was never started" };
 */
export interface InspectorFinding {
  readonly severity: "error" | "warning";
  readonly stage: InspectorStage;
  readonly rule: string;
  readonly message: string;
}
