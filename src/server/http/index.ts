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
} from "./createHandler";
export {
  toEventStream,
  DEFAULT_HIGH_WATER_MARK,
  DEFAULT_MAX_BUFFERED_BYTES,
  type Ready,
  type EventSource,
  type EventStreamOptions,
  type CursorFrame,
} from "./toEventStream";
export { routeOf, type HandlerRoute } from "./routeOf";
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
