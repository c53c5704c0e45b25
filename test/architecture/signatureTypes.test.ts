/**
 * Every type an entry's public signatures name is importable from that entry
 * (docs/architecture.md § Public surface): a user of `agui-rx/client` who holds a `Message`, an
 * `Interrupt` or a `ResumeEntry` imports it from `agui-rx/client`. `agui-rx/client` holds to it
 * with no exception; the other entries' known gaps are listed below and may only shrink.
 */
import * as path from "node:path";
import { ENTRIES } from "../docs/snippets";
import { unexportedSignatureTypes } from "./signatureTypes";

const ROOT = path.resolve(__dirname, "../..");

// What the other entries' signatures name and they do not export yet: a ratchet. A fix removes
// its name here (the test fails until it does); a new gap fails the test. Many are the root
// entry's protocol types (`Event`, `Message`), which a server or AI user imports from `agui-rx`.
// prettier-ignore
const KNOWN_GAPS: Readonly<Record<string, readonly string[]>> = {
  "agui-rx": ["LaneKey", "OpenStream", "OptionalKeys", "ReasoningBlocks", "Result", "RunPhase", "RunScope", "StateManager", "StreamKind", "StreamThread", "Stripped", "ThinkingIds", "VerifierExpectations"],
  "agui-rx/server": ["AgentCapabilities", "CancelQueuedAnswer", "Closable", "Cursor", "DebugOption", "EnqueueAnswer", "EnqueueOptions", "Event", "EventOf", "HistoryPage", "Interrupt", "JsonPatchOperation", "Message", "NamedStructCodec", "ProtocolError", "QueueChange", "QueueEntryState", "QueuedMessage", "QueuedRun", "RunAgentInput", "RunFinishedOutcome", "RunReaders", "SelectResult", "SiblingHead", "SubagentFinishedOutcome", "ThreadListEvent", "ThreadPage", "ThreadPatch", "ThreadSummary", "TokenUsage", "UserMessage"],
  "agui-rx/client": [],
  // The Session's hooks it fills are agui-rx/client's contract: the updates, running calls and transport trace it hears are imported from there.
  "agui-rx/client/telemetry": ["RunningToolCall", "TransportTrace", "Update"],
  // The kit's signatures name the client's and the server's own types (a Transport, an Agent, an Update), which a test imports from those entries.
  "agui-rx/testing": ["Agent", "DecodeWarning", "Event", "FetchHandler", "HttpTransport", "HttpTransportOptions", "Message", "NamedStructCodec", "RunAgentInput", "Transport", "TransportRunOptions", "Update"],
  "agui-rx/react": ["BranchInfo", "CancelQueuedResult", "ClientError", "ClientTool", "QueuedMessage", "ResumeEntry", "RunEnd", "RunningToolCall", "SendOptions", "Session", "SessionOptions", "StopResult", "ThreadList", "ThreadListSnapshot", "Transport", "Update", "UserMessage"],
  "agui-rx/angular": ["BranchInfo", "CancelQueuedResult", "ClientError", "ClientTool", "CutOff", "Interrupt", "Message", "QueuedMessage", "RenderFrame", "ResumeEntry", "RunEnd", "RunSnapshot", "RunStatus", "RunningToolCall", "SendOptions", "Session", "Subagent", "ThreadList", "ThreadSummary", "UserMessage"],
  "agui-rx/ai": ["Agent", "Message", "RunContext", "StateSpec", "SuccessOutcome", "TokenUsage", "Tool"],
  "agui-rx/redis": ["StoreClock", "ThreadStore"],
};

const { unexported } = unexportedSignatureTypes(ROOT, ENTRIES);

/** The names each entry's signatures use and it does not export, sorted. */
function gapsOf(entry: string): string[] {
  return [...new Set(unexported.filter((gap) => gap.entry === entry).map((gap) => gap.named.replace(/ \(.*$/, "")))].sort();
}

test("agui-rx/client exports every type its signatures name (Message, Interrupt, ResumeEntry, …)", () => {
  expect(unexported.filter((gap) => gap.entry === "agui-rx/client")).toEqual([]);
});

test.each(Object.keys(ENTRIES))("%s names no type it does not export beyond its known gaps", (entry) => {
  expect(gapsOf(entry)).toEqual([...(KNOWN_GAPS[entry] ?? [])].sort());
});

test("the check is real: it finds a type a signature names that its entry leaves out", () => {
  // agui-rx/react's useRun returns a RunHandle whose `session` is the client's Session, which the react entry does not re-export.
  expect(unexported).toContainEqual({ entry: "agui-rx/react", exported: expect.any(String), named: "Session (src/client/Session.ts)" });
});
