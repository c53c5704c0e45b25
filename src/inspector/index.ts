// The `agui-rx/inspector` entry (docs/observability.md#inspector): the React inspector panel, and
// the framework-free model it draws, for pages that draw it themselves.
export { AgentInspector } from "./AgentInspector";
export type { AgentInspectorProps } from "./AgentInspectorProps";
export { Inspector, DEFAULT_MAX_INSPECTED_EVENTS, type InspectorOptions } from "../client/inspector/Inspector";
export type { InspectedEvent, EventScope, StateChange } from "../client/inspector/InspectedEvent";
export type { InspectorFinding, InspectorStage } from "../client/inspector/InspectorFinding";
export type { InspectorSnapshot, StreamFinding } from "../client/inspector/InspectorSnapshot";
export { groupEvents, isInspectorGroup, type InspectorGroup } from "../client/inspector/groupEvents";
export { messageTree, type MessageNode } from "../client/inspector/messageTree";
export { stateDiffOf } from "../client/inspector/stateDiffOf";
export { traceIdOf, traceLinkOf } from "../client/inspector/traceLink";
export { inspectSession } from "../client/inspector/inspectSession";
export { wireOf, type WireItem, type WireSource } from "../client/inspector/SessionWire";
export type { WireListener, WireTap } from "../client/transports/WireTap";
export type { RunEnd, Interrupt, UserMessage } from "../client/index";
export type { Event, Message } from "../client/index";
export type { JsonPatchOperation } from "../protocol/common";
