// The `agui-rx/react` entry: hooks over a client Session, built on useSyncExternalStore.
export { useSession, type UseSessionOptions } from "./useSession";
export { useMessages } from "./useMessages";
export { useAgentState } from "./useAgentState";
export { useRun, type RunHandle } from "./useRun";
export { useInterrupts } from "./useInterrupts";
export { useSubagents } from "./useSubagents";
export { useObserved } from "./useObserved";
export { sessionTicks, defaultRenderFrame, type RenderFrame, type ChangeSource } from "./sessionTicks";
export { RunController, type RunStatus, type RunSnapshot, type RunSource } from "./RunController";
export { UnfinishedParts, mergeCutOff, NOTHING_CUT_OFF, type CutOff } from "./UnfinishedParts";
export { useClientTool, useRunningToolCalls, type ToolCallSource } from "./useClientTool";
