/** The error an agent throws to end its run with a chosen RUN_ERROR code. */

/**
 * The RUN_ERROR code for an error that is not an `AgentError` (a plain `Error`, a rejected promise, a thrown string).
 *
 * @example
 * if (event.type === "RUN_ERROR" && event.code === DEFAULT_ERROR_CODE) reportBug(event.message);
 */
export const DEFAULT_ERROR_CODE = "AGENT_ERROR";

/**
 * The RUN_ERROR code for a `ProtocolError` that escaped the agent (a bad write it did not catch).
 *
 * @example
 * if (event.type === "RUN_ERROR" && event.code === PROTOCOL_ERROR_CODE) reportBug(event.message);
 */
export const PROTOCOL_ERROR_CODE = "PROTOCOL";

/**
 * The RUN_ERROR code for a `RunAgentInput.state` that does not decode into the agent's state type (docs/rules.md#S4).
 *
 * @example
 * if (event.type === "RUN_ERROR" && event.code === SERIALIZATION_ERROR_CODE) session.resetState();
 */
export const SERIALIZATION_ERROR_CODE = "SERIALIZATION";

/**
 * An expected failure of an agent: thrown (or rejected) from `Agent.run`, it ends the run with
 * `RUN_ERROR { message, code }`. Any other thrown value ends it with code `"AGENT_ERROR"`.
 * `createRunContext` throws one with code `"SERIALIZATION"` for a state that does not decode.
 *
 * @example
 * throw new AgentError("the weather service is down", "UPSTREAM_UNAVAILABLE");
 */
export class AgentError extends Error {
  override readonly name = "AgentError";
  constructor(
    message: string,
    readonly code: string = DEFAULT_ERROR_CODE,
    options?: { readonly cause?: unknown },
  ) {
    super(message, options);
  }
}
