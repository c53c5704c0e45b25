// The `agui-rx/client` entry: the session, its Update stream, the apply stage and the transports.
export { Session, type SessionOptions, type RunOptions, type SessionSnapshot } from "./Session";
export { applyEvents, type ApplyEventsOptions } from "./applyEvents";
export { applyEvent } from "./reducers/applyEvent";
export { ClientState } from "./reducers/ClientState";
export { MessageList } from "./reducers/MessageList";
export { mergeMessagesSnapshot } from "./reducers/mergeMessagesSnapshot";
export { mergeMetadata, type MergedMetadata } from "./reducers/mergeMetadata";
export { ClientError, type ClientErrorKind, type ClientErrorDetails } from "./ClientError";
export type {
  Update,
  MessageUpdate,
  MessagesUpdate,
  StateUpdate,
  ReasoningUpdate,
  InterruptUpdate,
  SubagentUpdate,
  ErrorUpdate,
  DoneUpdate,
  MessageChange,
  RunEnd,
  Subagent,
  SubagentStatus,
  SubagentChange,
} from "./Update";
export type { Transport, TransportRunOptions } from "./transports/Transport";
export { ReplayTransport } from "./transports/ReplayTransport";
export { InProcessTransport } from "./transports/InProcessTransport";
export { HttpTransport, type HttpTransportOptions, type HeadersOption } from "./transports/HttpTransport";
export { decodeEvents } from "./transports/decodeEvents";
export { stateSpec, type StateSpec } from "../protocol/stateSpec";
export { coalesceUpdates, UpdateBatch, FALLBACK_FRAME_MS } from "./coalesceUpdates";
