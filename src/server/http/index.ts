// The HTTP layer of `agui-rx/server`: the fetch-style handler and the pieces it is made of.
export {
  createHandler,
  DEFAULT_MAX_BODY_BYTES,
  type FetchHandler,
  type HandlerOptions,
  type RunFunction,
  type RunRequest,
  type RunSource,
  type Routed,
} from "./createHandler";
export { toEventStream, DEFAULT_HIGH_WATER_MARK, type Ready, type EventStreamOptions } from "./toEventStream";
export { errorResponse, type HttpErrorBody, type HttpErrorCode } from "./errorResponse";
export { acceptsEventStream } from "./acceptsEventStream";
export { isJsonMediaType } from "./isJsonMediaType";
