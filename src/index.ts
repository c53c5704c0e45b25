// The root entry: protocol vocabulary, wire codecs, JSON Patch and the pipeline's middle operators.
// Only the public surface (docs/architecture.md § Public surface): the THINKING_* mapping, the
// version comparison, the debug installer and the pointer helpers are internal.
export * from "./protocol/events";
export * from "./protocol/messages";
export * from "./protocol/outcomes";
export * from "./protocol/input";
export * from "./protocol/common";
export { ev, withSubagentRunId, outcome, runAgentInput, type EventOptions } from "./protocol/build";
export { stateSpec, isEmptyState, type StateSpec } from "./protocol/stateSpec";
export { isThinkingEvent } from "./protocol/thinking";
export { runTraceOf, type RunTrace } from "./protocol/runTraceMeta";
export { decodeEvent, type DecodeEventOptions } from "./wire/decodeEvent";
export { DecodeError, type DecodeErrorCode } from "./wire/DecodeError";
export { DecodeWarning, isDecodeWarning, type DecodeWarningCode, type DecodeWarningContext } from "./wire/DecodeWarning";
export { DEFAULT_MAX_JSON_DEPTH, findTooDeep, type TooDeep } from "./protocol/jsonDepth";
export { PROTOCOL_VERSION } from "./protocol/version";
export { DEFAULT_TEXT_ROLE, DEFAULT_ACTIVITY_REPLACE, textMessageRole, activityReplaces } from "./protocol/defaults";
export {
  ProtocolError,
  Diagnostic,
  isDiagnostic,
  isInBandReport,
  type InBandReport,
  type ProtocolErrorCode,
  type VerificationMode,
} from "./operators/ProtocolError";
export { encodeSse } from "./wire/encodeSse";
export { decodeSseFrames, DEFAULT_MAX_FRAME_BYTES, type SseFrame, type DecodeSseOptions, type SseControlsOption } from "./wire/decodeSseFrames";
export { SseIdField, SseRetryField, isSseControl, type SseControl } from "./wire/SseControl";
export { SseNamedFrame, isSseNamedFrame } from "./wire/SseNamedFrame";
export { AgentCapabilitiesCodec, type AgentCapabilities } from "./protocol/capabilities";
export { CONNECT_MODE_HEADER, RESUMABLE_HEADER, HISTORY_OLDER_HEADER, HISTORY_OLDEST_HEADER, type ConnectMode } from "./protocol/connectMode";
export { HEARTBEAT_HEADER } from "./protocol/heartbeat";
export { decodeSse, type DecodeSseEventOptions } from "./wire/decodeSse";
export { normalizeChunks, type NormalizeChunksOptions } from "./operators/normalizeChunks";
export { normalizeStep, initialNormalizerState, type NormalizerState, type NormalizerStep, type NormalizerOptions } from "./operators/normalize/normalizeStep";
export { verifyEvents, type VerifyEventsOptions } from "./operators/verifyEvents";
export { verifyStep, initialVerifierState, type VerifierState } from "./operators/verify/verifyStep";
export { selectStateEncoding, stateEncodingStep } from "./operators/selectStateEncoding";
export { logEvents, type EventLogger, type EventLogEntry, type LogEventsOptions, type DebugOption } from "./operators/logEvents";
export { applyPatch } from "./patch/apply";
export { PatchError } from "./patch/PatchError";
export { diff, type DiffOptions } from "./patch/diff";
export type { StructCodec, StructType, StructOutput, TaggedUnionCodec, TaggedUnionType } from "./protocol/codec";
export type { NamedStructCodec, NamedUnionCodec } from "./protocol/namedCodec";
export { withDefault, type WithDefaultCodec } from "./protocol/codec";
