/**
 * What an agent says it can do (`GET {url}/capabilities`, docs/durability.md#stores-and-routes): `AgentCapabilities` as
 * `@ag-ui/core` 1.0.0 types it, one io-ts codec per part. Every member is optional; unknown ones
 * are stripped when decoding, as everywhere in this library (AG-UI 1.1), except under `custom`,
 * the extension point.
 */
import * as t from "io-ts";
import { list, struct } from "./codec";
import { Metadata } from "./common";
import { Tool } from "./input";

const flags = <K extends string>(name: string, keys: readonly K[]) =>
  struct(name, {}, Object.fromEntries(keys.map((key) => [key, t.boolean])) as Record<K, t.BooleanC>); // the object built from `keys` has exactly those keys

/** Who the agent is. */
export const IdentityCapabilities = /* @__PURE__ */ struct(
  "IdentityCapabilities",
  {},
  { name: t.string, type: t.string, description: t.string, version: t.string, provider: t.string, documentationUrl: t.string, metadata: Metadata },
);
/** How it can be reached; `resumable`: a cut stream continues from its `Last-Event-ID` (`POST {url}/connect`). */
export const TransportCapabilities = /* @__PURE__ */ flags("TransportCapabilities", ["streaming", "websocket", "httpBinary", "pushNotifications", "resumable"]);
/** Tools it provides (`items`) and how it calls them. */
export const ToolsCapabilities = /* @__PURE__ */ struct(
  "ToolsCapabilities",
  {},
  { supported: t.boolean, items: list(Tool), parallelCalls: t.boolean, clientProvided: t.boolean },
);
/** Output formats. */
export const OutputCapabilities = /* @__PURE__ */ struct("OutputCapabilities", {}, { structuredOutput: t.boolean, supportedMimeTypes: list(t.string) });
/** State and memory. */
export const StateCapabilities = /* @__PURE__ */ flags("StateCapabilities", ["snapshots", "deltas", "memory", "persistentState"]);
/** One subagent it may invoke. */
export const SubagentInfo = /* @__PURE__ */ struct("SubagentInfo", { name: t.string }, { description: t.string });
/** Multi-agent coordination. */
export const MultiAgentCapabilities = /* @__PURE__ */ struct(
  "MultiAgentCapabilities",
  {},
  { supported: t.boolean, delegation: t.boolean, handoffs: t.boolean, subagents: list(SubagentInfo) },
);
/** Reasoning output. */
export const ReasoningCapabilities = /* @__PURE__ */ flags("ReasoningCapabilities", ["supported", "streaming", "encrypted"]);
/** Media it accepts and produces. */
export const MultimodalCapabilities = /* @__PURE__ */ struct(
  "MultimodalCapabilities",
  {},
  {
    input: flags("MultimodalInputCapabilities", ["image", "audio", "video", "pdf", "file"]),
    output: flags("MultimodalOutputCapabilities", ["image", "audio"]),
  },
);
/** Code execution. */
export const ExecutionCapabilities = /* @__PURE__ */ struct(
  "ExecutionCapabilities",
  {},
  { codeExecution: t.boolean, sandboxed: t.boolean, maxIterations: t.number, maxExecutionTime: t.number },
);
/** Human in the loop. */
export const HumanInTheLoopCapabilities = /* @__PURE__ */ flags("HumanInTheLoopCapabilities", [
  "supported",
  "approvals",
  "interventions",
  "feedback",
  "interrupts",
  "approveWithEdits",
]);

/** The codec of {@link AgentCapabilities}. */
export const AgentCapabilitiesCodec = /* @__PURE__ */ struct(
  "AgentCapabilities",
  {},
  {
    identity: IdentityCapabilities,
    transport: TransportCapabilities,
    tools: ToolsCapabilities,
    output: OutputCapabilities,
    state: StateCapabilities,
    multiAgent: MultiAgentCapabilities,
    reasoning: ReasoningCapabilities,
    multimodal: MultimodalCapabilities,
    execution: ExecutionCapabilities,
    humanInTheLoop: HumanInTheLoopCapabilities,
    custom: t.UnknownRecord,
  },
);

/**
 * An agent's capabilities, the shape of `@ag-ui/core` 1.0.0's `AgentCapabilities`.
 *
 * @example
 * const capabilities: AgentCapabilities = { identity: { name: "task-board" }, transport: { streaming: true, resumable: true } };
 */
export interface AgentCapabilities extends t.TypeOf<typeof AgentCapabilitiesCodec> {}
