// The `agui-rx/server` entry: the agent contract, the run driver, the run context and its handles,
// the state encoding, the fetch-style HTTP handler, and the ThreadStore contract with its toolkit.
// Only the public surface (docs/architecture.md § Public surface): the handler's own parts
// (routing, capabilities, the SSE body, stop) and the driver's state decoding are internal.
export { run, type RunAgentOptions } from "./run";
export { inProcessTransport } from "./inProcessTransport";
export { checkEgress, EGRESS_RULE } from "./checkEgress";
export { success, interrupted, type Agent, type RunOutcome, type SuccessOutcome, type InterruptOutcome } from "./Agent";
export { interrupt, type InterruptFields } from "./interrupt";
export { AgentError, DEFAULT_ERROR_CODE, PROTOCOL_ERROR_CODE, SERIALIZATION_ERROR_CODE } from "./AgentError";
export { RunContext, type SubagentContext, type SubagentOptions } from "./RunContext";
export type { IncomingOffer } from "./IncomingOffer";
export { steerText } from "../protocol/steerText";
export { createRunContext, type RunContextHarness } from "./createRunContext";
export { randomIds, sequentialIds, type IdSource } from "./ids";
export { SpanHandle } from "./handles/SpanHandle";
export { MessageHandle, type MessageOptions } from "./handles/MessageHandle";
export { ToolCallHandle, type ToolCallOptions, type ToolResultOptions } from "./handles/ToolCallHandle";
export { ReasoningHandle } from "./handles/ReasoningHandle";
export { ActivityHandle } from "./handles/ActivityHandle";
export { StepGuard } from "./handles/StepGuard";
export { StateAccess } from "./handles/StateAccess";
export { StateManager, type StatePublish } from "../operators/StateManager";
export {
  createHandler,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_BODY_TIMEOUT_MS,
  DEFAULT_IDLE_WRITE_TIMEOUT_MS,
  type RunFunction,
  type RunSource,
  type RunRequest,
  type FetchHandler,
  type HandlerOptions,
  type Routed,
  type Authorize,
  type ThreadAccess,
  type OneThreadAccess,
  type ThreadListAccess,
  type Identify,
  type CorsOptions,
} from "./http/createHandler";
export { DEFAULT_MAX_PAGE_SIZE } from "./http/pageLimit";
// OpenTelemetry (docs/observability.md): the option, and the API's shapes it is typed with (an application passes the API's own objects).
export type { TelemetryOptions } from "../telemetry/TelemetryOptions";
export type * from "../telemetry/OtelApi";
export { runTraceOf, type RunTrace } from "../protocol/runTraceMeta";
export { DEFAULT_HIGH_WATER_MARK, DEFAULT_MAX_BUFFERED_BYTES, type Ready } from "./http/toEventStream";
export { SlowConsumerError, SLOW_CONSUMER_CODE } from "./http/SlowConsumerError";
export { tailFrames, sharedTailFrames, DEFAULT_MAX_TAIL_BYTES, type TailFrames, type Frame } from "./http/TailFrames";
export { IdleWriteError } from "./http/IdleWriteError";
export { fairTurns, sharedTurns, DEFAULT_TURN_BUDGET_MS, type FairTurns, type FairTurnsOptions, type StreamTurn } from "./http/fairTurns";
export type { HttpErrorBody, HttpErrorCode } from "./http/errorResponse";
export type { HistoryMode } from "./history/HistoryMode";
export { stateSpec, type StateSpec } from "../protocol/stateSpec";
export {
  ABANDONED_ERROR_CODE,
  DEFAULT_LEASE_MS,
  type ThreadStore,
  type RunWriter,
  type Cursor,
  type StoredEvent,
  type ThreadRead,
  type ResumeRead,
  type SnapshotRead,
  type StopAnswer,
  type SelectAnswer,
  type PathMark,
  type StoreScope,
  type BeginOptions,
  type ReadOptions,
  type ListQuery,
  type HistoryQuery,
} from "./store/ThreadStore";
export { ThreadSnapshot, RunSummary, RunSummaryStatus } from "../thread/ThreadSnapshot";
export { StoreError, type StoreErrorCode, type StoreErrorDetails } from "./store/StoreError";
export { systemClock, type StoreClock } from "./store/StoreClock";
export { ThreadFold } from "../thread/ThreadFold";
export type { BranchGroup, ForkMarker } from "../protocol/branchMeta";
export type { ConnectMode } from "../protocol/connectMode";
export { OpenSpans } from "../thread/OpenSpans";
export { checkBatch } from "./store/checkBatch";
export { isTerminal } from "../thread/isTerminal";
export { planConnect, connectPrelude, type ConnectFrame, type ConnectPlan, type ConnectStreamOptions } from "./store/connectStream";
export { openConnect, type ConnectStream } from "./store/openConnect";
export { recordRun, STREAM_ERROR_CODE, TRUNCATED_ERROR_CODE, type RecordRunOptions } from "./store/recordRun";
// A run's store work counted for its span (docs/observability.md#store-work).
export { AppendTally, STORE_APPENDS_EVENT } from "./store/AppendTally";
export {
  memoryStore,
  MEMORY_STORE_DEFAULTS,
  RUN_TOO_LARGE_ERROR_CODE,
  type MemoryStore,
  type MemoryStoreOptions,
  type MemoryStoreStats,
} from "./store/memory/memoryStore";
export { DEFAULT_HEARTBEAT_MS } from "./http/heartbeatInterval";
