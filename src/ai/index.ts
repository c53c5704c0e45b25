// The `agui-rx/ai` entry: an `Agent` from the Vercel AI SDK's `streamText` (optional peer `ai` 7.x),
// and the pieces it is made of, for users who call `streamText` themselves.
export { aiAgent, DEFAULT_MAX_STEPS, type AiAgentOptions, type AiCall } from "./aiAgent";
// Its `telemetry` option's type (docs/observability.md#ai-sdk), the one `agui-rx/server` exports too.
export type { TelemetryOptions } from "../telemetry/TelemetryOptions";
export type * from "../telemetry/OtelApi";
export { RunSteering } from "./RunSteering";
export { streamToRun, type StreamToRunOptions, type FullStreamSource } from "./streamToRun";
export { toModelPrompt, type ModelPrompt } from "./toModelPrompt";
export { clientTools } from "./clientTools";
export { toTokenUsage, providerName } from "./toTokenUsage";
export {
  describeError,
  MODEL_ERROR_CODE,
  MODEL_ABORTED_CODE,
  MAX_ERROR_MESSAGE_LENGTH,
  type ErrorDescriber,
  type ErrorReport,
  type ErrorSource,
} from "./describeError";
export { INVALID_MESSAGES_CODE, type ProviderOptions } from "./contentParts";
