// The HTTP layer of `agui-rx/server`: the fetch-style handler and the pieces it is made of.
export {
  createHandler,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_BODY_TIMEOUT_MS,
  DEFAULT_IDLE_WRITE_TIMEOUT_MS,
  type FetchHandler,
  type HandlerOptions,
  type RunFunction,
  type RunRequest,
  type RunSource,
  type Routed,
  type Authorize,
  type ThreadAccess,
  type OneThreadAccess,
  type ThreadListAccess,
  type Identify,
  type CorsOptions,
} from "./createHandler";
export { DEFAULT_MAX_PAGE_SIZE } from "./pageLimit";
export {
  toEventStream,
  DEFAULT_HIGH_WATER_MARK,
  DEFAULT_MAX_BUFFERED_BYTES,
  type Ready,
  type EventSource,
  type EventStreamOptions,
  type CursorFrame,
  type DataFrame,
} from "./toEventStream";
export { routeOf, resourceOf, type HandlerRoute, type RouteMatch, type Resource } from "./routeOf";
export { capabilitiesOf } from "./serveCapabilities";
export { endOnStop } from "./endOnStop";
export { closeOpenSpans } from "../../thread/closeOpenSpans";
export { SlowConsumerError, SLOW_CONSUMER_CODE } from "./SlowConsumerError";
export { tailFrames, sharedTailFrames, DEFAULT_MAX_TAIL_BYTES, type TailFrames, type Frame } from "./TailFrames";
export { IdleWriteError } from "./IdleWriteError";
export { fairTurns, sharedTurns, DEFAULT_TURN_BUDGET_MS, type FairTurns, type FairTurnsOptions, type StreamTurn } from "./fairTurns";
export { errorResponse, type HttpErrorBody, type HttpErrorCode } from "./errorResponse";
export { acceptsEventStream } from "./acceptsEventStream";
export { isJsonMediaType } from "./isJsonMediaType";
export { DEFAULT_HEARTBEAT_MS } from "./heartbeatInterval";
