// The `agui-rx/react` entry: hooks over a client Session, built on useSyncExternalStore.
export { useSession, type UseSessionOptions } from "./useSession";
export { useMessages, useAgentState, useInterrupts, useSubagents } from "./sessionReads";
export { useRun, type RunHandle } from "./useRun";
export { useBranches } from "./useBranches";
export { useObserved } from "./useObserved";
// The framework-free view model lives in agui-rx/client (src/client/view); re-exported here so React
// code that imported it from this entry keeps working.
export { sessionTicks, defaultRenderFrame, type RenderFrame, type ChangeSource } from "../client/view/sessionTicks";
export { RunController, type RunStatus, type RunSnapshot, type SessionLike } from "../client/view/RunController";
export { UnfinishedParts, mergeCutOff, NOTHING_CUT_OFF, type CutOff } from "../client/view/UnfinishedParts";
export { useClientTool, useRunningToolCalls, type ToolCallSource } from "./useClientTool";
export { useThreads, type ThreadsHandle } from "./useThreads";
