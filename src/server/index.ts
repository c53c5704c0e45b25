// The `agui-rx/server` entry: the agent contract, the run driver, the run context and its handles,
// the state encoding, and the fetch-style HTTP handler.
export { run, type RunOptions } from "./run";
export { success, interrupted, interrupt, type Agent, type RunOutcome, type SuccessOutcome, type InterruptOutcome, type InterruptFields } from "./Agent";
export { AgentError, DEFAULT_ERROR_CODE, PROTOCOL_ERROR_CODE, SERIALIZATION_ERROR_CODE } from "./AgentError";
export { RunContext, SubagentContext, type MessageOptions, type ToolCallOptions, type SubagentOptions } from "./RunContext";
export { createRunContext, type RunContextHarness } from "./createRunContext";
export { decodeState, defaultState } from "./decodeState";
export { randomIds, sequentialIds, type IdSource } from "./ids";
export { SpanHandle } from "./handles/SpanHandle";
export { MessageHandle } from "./handles/MessageHandle";
export { ToolCallHandle, type ToolResultOptions } from "./handles/ToolCallHandle";
export { ReasoningHandle } from "./handles/ReasoningHandle";
export { ActivityHandle } from "./handles/ActivityHandle";
export { StepGuard } from "./handles/StepGuard";
export { StateAccess } from "./handles/StateAccess";
export { StateManager, type StatePublish } from "./StateManager";
export { createHandler, type RunFunction, type RunSource, type RunRequest, type FetchHandler, type HandlerOptions } from "./http/createHandler";
export { stateSpec, type StateSpec } from "../protocol/stateSpec";
