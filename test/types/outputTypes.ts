/**
 * The exported types that are OUTPUTS: values the library hands to the application (updates,
 * errors, store reads), which it reads and never builds. Their optional properties stay `?: T`, so
 * `"code" in end` narrows to a present value. Every other exported type, and every inline object
 * type of the published declarations, is an INPUT: each of its optional properties is written
 * `name?: T | undefined` (docs/packaging.md#optional-properties-and-undefined), which
 * test/types/optionalInputs.test.ts checks. A new output type is added here, with its reason.
 */
export const OUTPUT_TYPES: Readonly<Record<string, string>> = {
  // The AI SDK's own types, named by the scripted model (agui-rx/testing/ai): their optional properties are the SDK's to write.
  ModelCall: "the AI SDK's call options, as the mock model hands them to a step",
  ModelStreamResult: "the AI SDK's stream result, as a step returns it",
  // What a Session or the thread reducer reports.
  Update: "a Session's update stream",
  RunEnd: "how a run ended, read from an update",
  Subagent: "a subagent as the thread reducer sees it",
  SubagentStatus: "a subagent's end, read from the thread",
  ThreadNotice: "a notice on a thread's own events",
  SavedBranch: "a branch as the reducer keeps it",
  // Errors: their fields are read; their constructors take *Details/*Options inputs.
  ClientError: "an error's fields",
  ClientToolError: "an error's fields",
  StoreError: "an error's fields",
  DecodeWarning: "a warning the decoder reports",
  DecodeWarningContext: "where a decode warning was found",
  HttpErrorBody: "the JSON body of an HTTP refusal, as a client reads it",
  // What the wire and the stores yield.
  SseFrame: "a frame the SSE reader yields",
  EventLogEntry: "an entry logEvents hands to the logger",
  SnapshotRead: "what a store's read yields",
  ConnectFrame: "what a store's connect stream yields",
  ConnectStream: "what a store's connect yields",
  OpenStream: "the normalizer's view of an open stream",
  OpenerFields: "the fields the normalizer remembers of an opener",
  ThinkingIds: "the ids the THINKING_* mapping carries from step to step",
  ThinkingStep: "what one THINKING_* mapping step yields",
  // A structural description of node-redis's client: our code calls it, so its methods' parameters
  // are what we pass, and a user's client must accept them as they are.
  NodeRedisClient: "the shape a node-redis client must have (we call it)",
  NodeRedisCluster: "the shape a node-redis cluster client must have (we call it)",
};
