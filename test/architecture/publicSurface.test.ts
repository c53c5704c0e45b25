/**
 * The public surface of every entry (docs/architecture.md § Public surface): the sorted export
 * names of each, checked in here, so that a change to what the package offers is a deliberate edit
 * of this list (and of the docs), never a side effect of a refactoring. `type X` marks a type-only
 * export. The entries are package.json's "exports" (checked against `ENTRIES` below); their
 * sources are what the snippets and the built bundles resolve.
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { ENTRIES } from "../docs/snippets";
import { entryExports } from "./entryExports";

const ROOT = path.resolve(__dirname, "../..");

// A hand-laid table, several names a line, read as a list: the formatter leaves it as it is.
// prettier-ignore
const SURFACE: Readonly<Record<string, readonly string[]>> = {
  "agui-rx": [
    "ActivityDeltaEvent", "ActivityMessage", "ActivitySnapshotEvent", "AddOperation",
    "type AgentCapabilities", "AgentCapabilitiesCodec", "AssistantMessage", "type AttributableEvent",
    "AudioInputContent", "BinaryInputContent", "CONNECT_MODE_HEADER", "type ChunkEvent", "type ConnectMode",
    "ContentSource", "Context", "CopyOperation", "CustomEvent", "DEFAULT_ACTIVITY_REPLACE",
    "DEFAULT_MAX_FRAME_BYTES", "DEFAULT_MAX_JSON_DEPTH", "DEFAULT_TEXT_ROLE", "DataSource",
    "type DebugOption", "DecodeError", "type DecodeErrorCode", "type DecodeEventOptions",
    "type DecodeSseEventOptions", "type DecodeSseOptions", "DecodeWarning", "type DecodeWarningCode",
    "type DecodeWarningContext", "DeveloperMessage", "Diagnostic", "type DiffOptions", "DocumentInputContent",
    "EVENT_TYPES", "Event", "type EventLogEntry", "type EventLogger", "type EventOf", "type EventOptions",
    "type EventType", "FileSource", "FunctionCall", "HEARTBEAT_HEADER", "HISTORY_OLDER_HEADER", "HISTORY_OLDEST_HEADER", "ImageInputContent", "type InBandReport", "InputContent",
    "Interrupt", "JsonPatch", "JsonPatchOperation", "JsonPointer", "type LogEventsOptions", "Message",
    "type MessageRole", "MessagesSnapshotEvent", "Metadata", "MoveOperation", "type NamedStructCodec",
    "type NamedUnionCodec", "type NormalizeChunksOptions", "type NormalizerOptions", "type NormalizerState",
    "type NormalizerStep", "PROTOCOL_VERSION", "PatchError", "ProtocolError", "type ProtocolErrorCode",
    "RESUMABLE_HEADER", "RawEvent", "ReasoningEncryptedValueEvent", "ReasoningEndEvent", "ReasoningMessage",
    "ReasoningMessageChunkEvent", "ReasoningMessageContentEvent", "ReasoningMessageEndEvent",
    "ReasoningMessageStartEvent", "ReasoningStartEvent", "RemoveOperation", "ReplaceOperation", "ResumeEntry",
    "RunAgentInput", "RunCancelledOutcome", "RunErrorEvent", "RunFinishedEvent", "RunFinishedOutcome",
    "RunInterruptOutcome", "RunStartedEvent", "RunSuccessOutcome", "type RunTrace", "SUBAGENT_EVENT_TYPES", "type SseControl",
    "type SseControlsOption", "type SseFrame", "SseIdField", "SseNamedFrame", "SseRetryField", "StateDeltaEvent",
    "StateSnapshotEvent", "type StateSpec", "StepFinishedEvent", "StepStartedEvent", "type StructCodec",
    "type StructOutput", "type StructType", "SubagentErrorEvent", "SubagentFinishedEvent",
    "SubagentFinishedOutcome", "SubagentStartedEvent", "SubagentSuccessOutcome", "SubagentSuspendedOutcome",
    "SystemMessage", "THINKING_EVENT_TYPES", "type TaggedUnionCodec", "type TaggedUnionType", "TestOperation",
    "TextInputContent", "TextMessageChunkEvent", "TextMessageContentEvent", "TextMessageEndEvent",
    "TextMessageRole", "TextMessageStartEvent", "ThinkingEndEvent", "type ThinkingEvent",
    "ThinkingStartEvent", "ThinkingTextMessageContentEvent", "ThinkingTextMessageEndEvent",
    "ThinkingTextMessageStartEvent", "TokenUsage", "type TooDeep", "Tool", "ToolCall", "ToolCallArgsEvent",
    "ToolCallChunkEvent", "ToolCallEndEvent", "ToolCallResultEvent", "ToolCallStartEvent", "ToolMessage",
    "UNATTRIBUTABLE_EVENT_TYPES", "UrlSource", "UserMessage", "type VerificationMode", "type VerifierState",
    "type VerifyEventsOptions", "VideoInputContent", "type WithDefaultCodec", "activityReplaces",
    "applyPatch", "decodeEvent", "decodeSse", "decodeSseFrames", "diff", "encodeSse", "ev", "eventCodecs",
    "findTooDeep", "initialNormalizerState", "initialVerifierState", "isDecodeWarning", "isDiagnostic",
    "isEmptyState", "isInBandReport", "isSseControl", "isSseNamedFrame", "isThinkingEvent", "logEvents", "normalizeChunks",
    "normalizeStep", "outcome", "runAgentInput", "runTraceOf", "selectStateEncoding", "stateEncodingStep", "stateSpec",
    "textMessageRole", "verifyEvents", "verifyStep", "withDefault", "withSubagentRunId",
  ],
  "agui-rx/server": [
    "ABANDONED_ERROR_CODE", "ActivityHandle", "type Agent", "AgentError", "AppendTally", "type Authorize", "type BeginOptions", "BranchGroup", "type ConnectFrame",
    "type ConnectMode", "type ConnectPlan", "type ConnectStream", "type ConnectStreamOptions", "type CorsOptions", "type Cursor", "DEFAULT_BODY_TIMEOUT_MS",
    "DEFAULT_ERROR_CODE", "DEFAULT_HEARTBEAT_MS", "DEFAULT_HIGH_WATER_MARK", "DEFAULT_IDLE_WRITE_TIMEOUT_MS", "DEFAULT_LEASE_MS", "DEFAULT_MAX_BODY_BYTES",
    "DEFAULT_MAX_BUFFERED_BYTES", "DEFAULT_MAX_PAGE_SIZE", "DEFAULT_MAX_TAIL_BYTES", "DEFAULT_TURN_BUDGET_MS", "EGRESS_RULE", "type FairTurns",
    "type FairTurnsOptions", "type FetchHandler", "ForkMarker", "type Frame", "type HandlerOptions", "type HistoryMode", "type HistoryQuery", "type HttpErrorBody",
    "type HttpErrorCode", "type IdSource", "type Identify", "IdleWriteError", "type IncomingOffer", "type InterruptFields", "type InterruptOutcome", "type ListQuery",
    "MEMORY_STORE_DEFAULTS", "type MemoryStore", "type MemoryStoreOptions", "type MemoryStoreStats", "MessageHandle", "type MessageOptions",
    "type OneThreadAccess", "OpenSpans", "type OtelAttributeValue", "type OtelAttributes", "type OtelContext", "type OtelContextManager", "type OtelCounter", "type OtelHistogram", "type OtelLink", "type OtelMeter", "type OtelMeterProvider", "type OtelMetricOptions", "type OtelObservable", "type OtelObservableResult", "type OtelPropagator", "type OtelSpan", "type OtelSpanContext", "type OtelSpanOptions", "type OtelSpanStatus", "type OtelTextMapGetter", "type OtelTextMapSetter", "type OtelTraceState", "type OtelTracer", "type OtelTracerProvider", "PROTOCOL_ERROR_CODE", "type PathMark", "RUN_TOO_LARGE_ERROR_CODE", "type ReadOptions", "type Ready", "ReasoningHandle",
    "type RecordRunOptions", "type ResumeRead", "type Routed", "type RunAgentOptions", "RunContext", "type RunContextHarness", "type RunFunction",
    "type RunOutcome", "type RunRequest", "type RunSource", "RunSummary", "RunSummaryStatus", "type RunTrace", "type RunWriter", "SERIALIZATION_ERROR_CODE",
    "SLOW_CONSUMER_CODE", "STORE_APPENDS_EVENT", "STREAM_ERROR_CODE", "type SelectAnswer", "SlowConsumerError", "type SnapshotRead", "SpanHandle", "StateAccess", "StateManager",
    "type StatePublish", "type StateSpec", "StepGuard", "type StopAnswer", "type StoreClock", "StoreError", "type StoreErrorCode",
    "type StoreErrorDetails", "type StoreScope", "type StoredEvent", "type StreamTurn", "type SubagentContext", "type SubagentOptions",
    "type SuccessOutcome", "TRUNCATED_ERROR_CODE", "type TailFrames", "type TelemetryOptions", "type ThreadAccess", "ThreadFold", "type ThreadListAccess", "type ThreadRead",
    "ThreadSnapshot", "type ThreadStore", "ToolCallHandle", "type ToolCallOptions", "type ToolResultOptions", "checkBatch", "checkEgress",
    "connectPrelude", "createHandler", "createRunContext", "fairTurns", "inProcessTransport", "interrupt", "interrupted", "isTerminal", "memoryStore",
    "openConnect", "planConnect", "randomIds", "recordRun", "run", "runTraceOf", "sequentialIds", "sharedTailFrames", "sharedTurns", "stateSpec", "steerText", "success",
    "systemClock", "tailFrames",
  ],
  "agui-rx/client": [
    "type AgentCapabilities", "type AskOptions", "type AskResult", "BranchGroup", "type BranchInfo", "type BranchSelectRequest", "type BranchSelectResult", "type CancelQueuedRequest",
    "type CancelQueuedResult", "type ChangeSource", "ClientError", "type ClientErrorDetails", "type ClientErrorKind", "type ClientTool",
    "type ClientToolDefinition", "ClientToolError", "type ClientToolErrorCode", "type ClientToolErrorOptions", "type ConnectOptions",
    "type ConnectRequest", "ConnectionNotice", "type ConnectionUpdate", "Context", "type CutOff", "DEFAULT_RECONNECT_ATTEMPTS", "type DebugOption",
    "type DecodeSseEventOptions", "DecodeWarning", "type DoneUpdate", "type ErrorUpdate", "Event", "type ExchangeTrace", "FALLBACK_FRAME_MS", "type Failure",
    "type HeadersOption", "HistoryPage", "HistoryRequest", "type HttpRoute", "HttpThreadsTransport", "HttpTransport", "type HttpTransportOptions",
    "type Hydration", "type InBandReport", "InProcessTransport", "Interrupt", "type InterruptUpdate", "type JsonSchema", "type JsonSchemaObject",
    "type JsonSchemaType", "MAX_RETRY_AFTER_MS", "Message", "type MessageChange", "MessagePreview", "type MessageUpdate", "type MessagesUpdate",
    "NOTHING_CUT_OFF", "type NamedStructCodec", "type OpenThreadOptions", "QueueNotice", "QueueNoticeItem", "QueueNoticeStatus", "QueuedMessage",
    "QueuedPolicy", "QueuedStatus", "type QueuedUpdate", "ReasoningMessage", "type ReasoningUpdate", "type ReconnectConfig", "type RenderFrame",
    "ReplayTransport", "ResumeEntry", "type RetryConfig", "RunAgentInput", "RunController", "type RunEnd", "type RunOptions", "type RunSnapshot",
    "type RunStatus", "type RunUpdate", "type RunningToolCall", "type SendOptions", "Session", "type SessionLike", "type SessionOptions",
    "type SessionSnapshot", "type SessionTelemetry", "type StateSpec", "type StateUpdate", "type StopRequest", "type StopResult", "type Subagent", "type SubagentChange",
    "type SubagentStatus", "type SubagentUpdate", "ThreadChanged", "ThreadDeleted", "ThreadList", "ThreadListEvent", "type ThreadListOptions",
    "type ThreadListSnapshot", "type ThreadNotice", "ThreadPage", "ThreadPatch", "type ThreadQuery", "ThreadQueueChanged", "type ThreadStreamItem",
    "type ThreadStreamOpened", "ThreadSummary", "type ThreadsTransport", "Tool", "type ToolCallContext", "type ToolSession", "type TracedSession", "type Transport",
    "type TransportRunOptions", "type TransportTrace", "UnfinishedParts", "type Update", "UserMessage", "WhileRunning", "type WireListener", "type WireTap", "applyEvents", "callsOf", "clientTool",
    "coalesceUpdates", "decodeEvents", "defaultRenderFrame", "isClientTool", "isConnectionNotice", "isQueueNoticeItem", "jsonSchemaOf", "mergeCutOff",
    "reconnectDelay", "sameBranchInfo", "sessionTicks", "stateSpec", "threadList", "waitForResponse",
  ],
  "agui-rx/client/telemetry": [
    "CLIENT_SPAN", "type ClientTelemetryOptions", "type ExchangeTrace", "type OtelAttributeValue", "type OtelAttributes", "type OtelContext",
    "type OtelLink", "type OtelSpan", "type OtelSpanContext", "type OtelSpanOptions", "type OtelSpanStatus", "type OtelTraceState",
    "type OtelTracer", "type SessionTelemetry", "type TracedSession", "clientTelemetry", "traceTarget",
  ],
  "agui-rx/node": [
    "type FetchHandler", "type NodeHandler", "type ServeOptions", "type Served", "serve", "toNodeHandler",
  ],
  "agui-rx/react": [
    "type ChangeSource", "type CutOff", "NOTHING_CUT_OFF", "type RenderFrame", "RunController", "type RunHandle",
    "type RunSnapshot", "type RunStatus", "type SessionLike", "type ThreadsHandle", "type ToolCallSource",
    "UnfinishedParts", "type UseSessionOptions", "defaultRenderFrame", "mergeCutOff", "sessionTicks", "useAgentState",
    "useBranches", "useClientTool", "useInterrupts", "useMessages", "useObserved", "useRun", "useRunningToolCalls", "useSession",
    "useSubagents", "useThreads",
  ],
  "agui-rx/inspector": [
    "AgentInspector", "type AgentInspectorProps", "DEFAULT_MAX_INSPECTED_EVENTS", "Event", "type EventScope", "type InspectedEvent", "Inspector",
    "type InspectorFinding", "type InspectorGroup", "type InspectorOptions", "type InspectorSnapshot", "type InspectorStage", "Interrupt", "JsonPatchOperation",
    "Message", "type MessageNode", "type RunEnd", "type StateChange", "type StreamFinding", "UserMessage", "type WireItem", "type WireListener", "type WireSource",
    "type WireTap", "groupEvents", "inspectSession", "isInspectorGroup", "messageTree", "stateDiffOf", "traceIdOf", "traceLinkOf", "wireOf",
  ],
  "agui-rx/angular": [
    "AGENT_SESSION", "type AgentView", "type ProvideAgentOptions", "type Threads", "injectAgent", "injectSession",
    "injectThreads", "provideAgent",
  ],
  "agui-rx/ai": [
    "type AiAgentOptions", "type AiCall", "DEFAULT_MAX_STEPS", "type ErrorDescriber", "type ErrorReport",
    "type ErrorSource", "type FullStreamSource", "INVALID_MESSAGES_CODE", "MAX_ERROR_MESSAGE_LENGTH",
    "MODEL_ABORTED_CODE", "MODEL_ERROR_CODE", "type ModelPrompt", "type OtelAttributeValue", "type OtelAttributes", "type OtelContext", "type OtelContextManager", "type OtelCounter", "type OtelHistogram", "type OtelLink", "type OtelMeter", "type OtelMeterProvider", "type OtelMetricOptions", "type OtelObservable", "type OtelObservableResult", "type OtelPropagator", "type OtelSpan", "type OtelSpanContext", "type OtelSpanOptions", "type OtelSpanStatus", "type OtelTextMapGetter", "type OtelTextMapSetter", "type OtelTraceState", "type OtelTracer", "type OtelTracerProvider", "type ProviderOptions", "RunSteering", "type StreamToRunOptions", "type TelemetryOptions", "aiAgent", "clientTools", "describeError", "providerName", "streamToRun",
    "toModelPrompt", "toTokenUsage",
  ],
  "agui-rx/redis": [
    "type CommandRoute", "DEFAULT_PREFIX", "type NodeRedisClient", "type NodeRedisCluster", "type NodeRedisPortOptions", "type OwnedConnection",
    "type OwnedSubscription", "REDIS_STORE_DEFAULTS", "type RedisConnection", "type RedisPort",
    "type RedisStore", "type RedisStoreOptions", "type RedisStoreSettings", "type RedisStoreStats",
    "type ReplicaAcknowledgement", "type ShardNotifications", "type ThreadKeys", "nodeRedisPort", "redisStore", "signalChannel", "threadKeys",
  ],
  "agui-rx/testing": [
    "IN_PROCESS_URL", "type InProcessEndpointOptions", "RECORDING_FORMAT", "type RecordSseOptions", "RecordedFrame", "Recording",
    "type RecordingReplay", "type ReplayOptions", "type ReplayPace", "collectUpdates", "describeUpdate", "inProcessEndpoint",
    "inProcessFetch", "marbleScheduler", "marbleValues", "readRecording", "recordSse", "replayRecording", "summarize", "transcript",
  ],
  "agui-rx/testing/ai": [
    "type Beat", "type FinishReason", "type ModelCall", "type ModelPart", "type ModelStreamResult", "type Rejection",
    "type ScriptedModelOptions", "type ScriptedStep", "type ScriptedUsage", "type ToolCallBeatOptions", "finish", "parts",
    "reasoning", "rejectCall", "scriptedModel", "stepParts", "streamError", "text", "toolCall",
  ],
};

test("every subpath of package.json's exports map is an entry checked here", () => {
  const pkg: unknown = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8"));
  const exportsMap = typeof pkg === "object" && pkg !== null ? Reflect.get(pkg, "exports") : undefined;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-argument -- package.json's exports map, read as JSON
  const subpaths = Object.keys(typeof exportsMap === "object" && exportsMap !== null ? exportsMap : {})
    .filter((subpath) => subpath !== "./package.json")
    .map((subpath) => (subpath === "." ? "agui-rx" : `agui-rx/${subpath.slice(2)}`))
    .sort();
  expect(subpaths).toEqual(Object.keys(ENTRIES).sort());
  expect(Object.keys(SURFACE).sort()).toEqual(subpaths);
});

/** Read once: one compiler program over all entries. */
const actual = entryExports(ROOT, ENTRIES);

describe("each entry exports exactly its public surface", () => {
  test.each(Object.keys(SURFACE))("%s", (entry) => {
    expect(actual[entry]).toEqual(SURFACE[entry]);
  });
});

test("internals stay out of every entry", () => {
  const everywhere = new Set(
    Object.values(actual)
      .flat()
      .map((name) => name.replace(/^type /, "")),
  );
  // The reducer's state and rules, the Session's parts, the handler's parts, the normalizer's lanes.
  for (const internal of [
    "ClientState",
    "MessageList",
    "mergeMessagesSnapshot",
    "mergeMetadata",
    "applyEvent",
    "followConnection",
    "hydrate",
    "routeOf",
    "toEventStream",
    "decodeState",
    "LaneKey",
    "RunPort",
    "RunCore",
  ]) {
    expect([internal, everywhere.has(internal)]).toEqual([internal, false]);
  }
});
