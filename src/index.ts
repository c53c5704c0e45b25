// The root entry: protocol vocabulary, wire codecs, JSON Patch and the pipeline's middle operators.
export * from "./protocol/events";
export * from "./protocol/messages";
export * from "./protocol/outcomes";
export * from "./protocol/input";
export * from "./protocol/common";
export { ev, withSubagentRunId, outcome, runAgentInput, type EventOptions } from "./protocol/build";
export { stateSpec, isEmptyState, type StateSpec } from "./protocol/stateSpec";
export { mapThinkingEvent, isThinkingEvent, type ThinkingIds, type ThinkingStep } from "./protocol/thinking";
export { decodeEvent } from "./wire/decodeEvent";
export { DecodeError, type DecodeErrorCode } from "./wire/DecodeError";
export { ProtocolError, Diagnostic, isDiagnostic, type ProtocolErrorCode, type VerificationMode } from "./operators/ProtocolError";
