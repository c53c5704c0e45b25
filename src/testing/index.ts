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
