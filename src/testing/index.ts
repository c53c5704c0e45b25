// The `agui-rx/testing` entry (docs/testing.md): what a user's tests need around a Session and an
// agent, for any test runner. It imports no runner, no Node API and not `ai`: the scripted model,
// which needs the AI SDK, is the `agui-rx/testing/ai` entry.
export { recordSse, type RecordSseOptions } from "./recordSse";
export { Recording, RecordedFrame, RECORDING_FORMAT, readRecording } from "./Recording";
export { replayRecording, type RecordingReplay, type ReplayOptions, type ReplayPace } from "./replayRecording";
export { inProcessEndpoint, inProcessFetch, IN_PROCESS_URL, type InProcessEndpointOptions } from "./inProcessEndpoint";
export { collectUpdates } from "./collectUpdates";
export { describeUpdate, summarize } from "./describeUpdate";
export { transcript } from "./transcript";
export { marbleScheduler } from "./marbleScheduler";
export { marbleValues } from "./marbleValues";
// The types the kit's signatures name, importable from here as from their own entries (test/architecture/signatureTypes.test.ts).
export type { Agent } from "../server/Agent";
export type { FetchHandler } from "../server/http/HandlerOptions";
export type { Event } from "../protocol/events";
export type { Message } from "../protocol/messages";
export type { RunAgentInput } from "../protocol/input";
export type { NamedStructCodec } from "../protocol/namedCodec";
export type { DecodeWarning } from "../wire/DecodeWarning";
export type { HttpTransport, HttpTransportOptions } from "../client/transports/HttpTransport";
export type { Transport, TransportRunOptions } from "../client/transports/Transport";
export type { Update } from "../thread/Update";
