// The `agui-rx/client` entry: the session, its Update stream, the apply stage and the transports.
// Only the public surface (docs/architecture.md § Public surface); the reducer's state and rules
// (ClientState, MessageList, applyEvent, …) and the Session's building blocks are internal.
export { Session, type SessionOptions, type RunOptions, type ConnectOptions, type SessionSnapshot, type AskOptions, type AskResult } from "./Session";
export { applyEvents } from "./applyEvents";
// The protocol's types a Session's user holds (messages, interrupts and their answers, the input a
// transport sends, tools): the root entry's own declarations, named here so that every type in this
// entry's signatures is importable from it (test/architecture/signatureTypes.test.ts).
export type { Message, UserMessage, ReasoningMessage } from "../protocol/messages";
export type { Interrupt, ResumeEntry } from "../protocol/outcomes";
export type { RunAgentInput, Tool, Context } from "../protocol/input";
export type { Event } from "../protocol/events";
export type { AgentCapabilities } from "../protocol/capabilities";
export type { NamedStructCodec } from "../protocol/namedCodec";
export type { Failure } from "../protocol/describeFailure";
export type { InBandReport } from "../operators/ProtocolError";
export type { DebugOption } from "../operators/logEvents";
export type { DecodeWarning } from "../wire/DecodeWarning";
export type { DecodeSseEventOptions } from "../wire/decodeSse";
export { ClientError, type ClientErrorKind, type ClientErrorDetails } from "../thread/ClientError";
export type {
  Update,
  MessageUpdate,
  MessagesUpdate,
  StateUpdate,
  ReasoningUpdate,
  InterruptUpdate,
  SubagentUpdate,
  ErrorUpdate,
  ConnectionUpdate,
  RunUpdate,
  QueuedUpdate,
  DoneUpdate,
  MessageChange,
  RunEnd,
  Subagent,
  SubagentStatus,
  SubagentChange,
} from "../thread/Update";
export type {
  Transport,
  TransportRunOptions,
  ConnectRequest,
  StopRequest,
  StopResult,
  BranchSelectRequest,
  BranchSelectResult,
  ThreadNotice,
  CancelQueuedRequest,
  CancelQueuedResult,
  TransportTrace,
} from "./transports/Transport";
// The tap an inspector attaches (docs/observability.md#inspector): `Session.listenWire`'s listener, and what a transport is shown of its bytes.
export type { WireListener, WireTap } from "./transports/WireTap";
// Sending while the agent works (docs/queue.md#in-the-client): the queue notices a transport yields, and the wire's shapes.
export { QueueNoticeItem, isQueueNoticeItem } from "./transports/QueueNoticeItem";
export type { WhileRunning, QueuedPolicy, QueuedStatus, QueuedMessage, QueueNotice, QueueNoticeStatus } from "../protocol/queueMeta";
// Branches (docs/client.md#branches): where a message stands among its siblings, and the groups' wire shape.
export { sameBranchInfo, type BranchInfo } from "./branches/BranchGroups";
export type { BranchGroup } from "../protocol/branchMeta";
export { ConnectionNotice, isConnectionNotice } from "./transports/ConnectionNotice";
export { reconnectDelay, DEFAULT_RECONNECT_ATTEMPTS, type ReconnectConfig } from "./transports/reconnecting";
export type { RetryConfig } from "./transports/retryUnanswered";
export { MAX_RETRY_AFTER_MS } from "./transports/requestFailure";
export type { Hydration } from "./hydrate";
// Telemetry's contract (docs/observability.md#client): what a Session and a transport hand their trace; the tracing itself is agui-rx/client/telemetry.
export type { SessionTelemetry, ExchangeTrace, TracedSession } from "./SessionTelemetry";
export { ReplayTransport } from "./transports/ReplayTransport";
export { InProcessTransport } from "./transports/InProcessTransport";
export { HttpTransport, type HttpTransportOptions, type HeadersOption, type HttpRoute } from "./transports/HttpTransport";
export { decodeEvents } from "./transports/decodeEvents";
export { stateSpec, type StateSpec } from "../protocol/stateSpec";
export { coalesceUpdates, FALLBACK_FRAME_MS } from "./coalesceUpdates";
// Client tools (docs/tools.md): the definition, its errors and schema, and what views answer.
// The loop's building blocks (runToolCall, executeToolCalls, pendingClientToolCalls, resolveTools)
// stay internal: the Session runs them.
export { clientTool, isClientTool, type ClientTool, type ClientToolDefinition, type ToolCallContext, type ToolSession } from "./tools/clientTool";
export { ClientToolError, type ClientToolErrorCode, type ClientToolErrorOptions } from "./tools/ClientToolError";
export { jsonSchemaOf } from "./tools/jsonSchemaOf";
export type { JsonSchema, JsonSchemaObject, JsonSchemaType } from "./tools/JsonSchema";
export { waitForResponse } from "./tools/waitForResponse";
export { callsOf, type RunningToolCall } from "./tools/RunningToolCalls";
// The framework-free view model the React and Angular entries are built on (docs/ui.md): a session's
// run lifecycle, what a stop cut off, and its change ticks coalesced to the display's frame.
export { RunController, type RunStatus, type RunSnapshot, type SessionLike, type SendOptions } from "./view/RunController";
export { UnfinishedParts, mergeCutOff, NOTHING_CUT_OFF, type CutOff } from "./view/UnfinishedParts";
export { sessionTicks, defaultRenderFrame, type RenderFrame, type ChangeSource } from "./view/sessionTicks";
// The thread list of a server that owns threads (docs/threads.md#in-the-client): its own modules, so
// that a page without a list does not carry them; the wire shapes are the codecs' types.
export { threadList, ThreadList, type ThreadListOptions, type ThreadListSnapshot, type OpenThreadOptions } from "./threads/threadList";
export { HttpThreadsTransport } from "./threads/HttpThreadsTransport";
export type { ThreadsTransport, ThreadQuery, ThreadStreamItem, ThreadStreamOpened } from "./threads/ThreadsTransport";
export type {
  ThreadSummary,
  ThreadPage,
  ThreadPatch,
  ThreadListEvent,
  ThreadChanged,
  ThreadDeleted,
  MessagePreview,
  HistoryPage,
  HistoryRequest,
  ThreadQueueChanged,
} from "../thread/threadList";
