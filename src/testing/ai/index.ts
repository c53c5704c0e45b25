// The `agui-rx/testing/ai` entry (docs/testing.md#a-scripted-model): a scripted model for the AI
// SDK, on the SDK's own mock. Apart from `agui-rx/testing` because it imports `ai/test`.
export { scriptedModel, rejectCall, type ScriptedModelOptions, type ScriptedStep, type Rejection } from "./scriptedModel";
export { text, reasoning, toolCall, streamError, finish, parts, type Beat, type ScriptedUsage, type ToolCallBeatOptions } from "./beats";
export { stepParts } from "./stepParts";
export type { ModelPart, ModelCall, ModelStreamResult, FinishReason } from "./modelParts";
