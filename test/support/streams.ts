/**
 * Compact stream notation for tests (docs/rules.md#notation): `RS()`, `TMS("m1", "s1")`, `STF("tools")` …
 * return real events built with `ev.*`. The optional `tag` is the `subagentRunId`; leaving it out
 * means the parent agent, and `""` is a real subagent id. `label(event)` prints an event back in
 * the same notation, for test names and failure messages.
 *
 * Shared by several test suites: keep the signatures stable, add rather than change.
 */
import { ev, runAgentInput, withSubagentRunId, type EventOptions } from "../../src/protocol/build";
import type { AttributableEvent, Event, EventOf, EventType } from "../../src/protocol/events";
import type { Message } from "../../src/protocol/messages";

export const THREAD = "t1";
export const RUN = "r1";

function tagged<E extends AttributableEvent>(event: E, tag: string | undefined): E {
  return tag === undefined ? event : withSubagentRunId(event, tag);
}

// ─── Run lifecycle ───
export const RS = (options: { runId?: string; input?: Message[] } = {}): EventOf<"RUN_STARTED"> => {
  const runId = options.runId ?? RUN;
  return ev.runStarted(THREAD, runId, options.input ? { input: runAgentInput(THREAD, runId, { messages: options.input }) } : undefined);
};
/** RUN_FINISHED of run `runId` (default RUN): a run's RUN_STARTED and RUN_FINISHED agree on the runId (R7a). */
export const RF = (options: EventOptions<"RUN_FINISHED"> & { runId?: string } = {}): EventOf<"RUN_FINISHED"> => {
  const { runId = RUN, ...rest } = options;
  return ev.runFinished(THREAD, runId, rest);
};
export const RE = (message = "boom", options?: EventOptions<"RUN_ERROR">): EventOf<"RUN_ERROR"> => ev.runError(message, options);
export const STS = (name: string, tag?: string) => tagged(ev.stepStarted(name), tag);
export const STF = (name: string, tag?: string) => tagged(ev.stepFinished(name), tag);

// ─── Text ───
export const TMS = (id: string, tag?: string) => tagged(ev.textMessageStart(id), tag);
export const TMC = (id: string, tag?: string, delta = "x") => tagged(ev.textMessageContent(id, delta), tag);
export const TME = (id: string, tag?: string) => tagged(ev.textMessageEnd(id), tag);

// ─── Tool calls ───
export const TCS = (id: string, tag?: string, options: { parentMessageId?: string; name?: string } = {}) =>
  tagged(ev.toolCallStart(id, options.name ?? "f", options.parentMessageId === undefined ? undefined : { parentMessageId: options.parentMessageId }), tag);
export const TCA = (id: string, tag?: string, delta = "{}") => tagged(ev.toolCallArgs(id, delta), tag);
export const TCE = (id: string, tag?: string) => tagged(ev.toolCallEnd(id), tag);
export const TCR = (messageId: string, toolCallId: string, tag?: string) => tagged(ev.toolCallResult(messageId, toolCallId, "ok"), tag);

// ─── State, snapshots, activity, other ───
export const SS = (tag?: string, snapshot: unknown = { n: 1 }) => tagged(ev.stateSnapshot(snapshot), tag);
export const SD = (tag?: string) => tagged(ev.stateDelta([{ op: "replace", path: "/n", value: 2 }]), tag);
export const MS = (...messages: Message[]): EventOf<"MESSAGES_SNAPSHOT"> => ev.messagesSnapshot(messages);
export const AS = (id: string, tag?: string, options: { replace?: boolean } = {}) =>
  tagged(ev.activitySnapshot(id, "PLAN", { steps: [] }, { replace: options.replace ?? true }), tag);
export const AD = (id: string, tag?: string) => tagged(ev.activityDelta(id, "PLAN", [{ op: "add", path: "/steps/-", value: "a" }]), tag);
export const CUS = (tag?: string) => tagged(ev.custom("note", 1), tag);
export const RAW = (tag?: string) => tagged(ev.raw({ foreign: true }), tag);

// ─── Reasoning ───
export const RST = (id: string, tag?: string) => tagged(ev.reasoningStart(id), tag);
export const RMS = (id: string, tag?: string) => tagged(ev.reasoningMessageStart(id), tag);
export const RMC = (id: string, tag?: string, delta = "hm") => tagged(ev.reasoningMessageContent(id, delta), tag);
export const RME = (id: string, tag?: string) => tagged(ev.reasoningMessageEnd(id), tag);
export const REND = (id: string, tag?: string) => tagged(ev.reasoningEnd(id), tag);
export const REV = (subtype: "tool-call" | "message", entityId: string, tag?: string) => tagged(ev.reasoningEncryptedValue(subtype, entityId, "opaque"), tag);

// ─── Subagents (the id is the subagent's identity, not a tag) ───
export const SAS = (id: string, options: EventOptions<"SUBAGENT_STARTED"> & { name?: string } = {}) => {
  const { name = "worker", ...rest } = options;
  return ev.subagentStarted(id, name, rest);
};
export const SAF = (id: string, options?: EventOptions<"SUBAGENT_FINISHED">) => ev.subagentFinished(id, options);
export const SAE = (id: string, message = "failed", options?: EventOptions<"SUBAGENT_ERROR">) => ev.subagentError(id, message, options);

// ─── Chunks (expanded by normalizeChunks) ───
export const TXC = (options: EventOptions<"TEXT_MESSAGE_CHUNK"> = {}) => ev.textMessageChunk(options);
export const TLC = (options: EventOptions<"TOOL_CALL_CHUNK"> = {}) => ev.toolCallChunk(options);
export const RXC = (options: EventOptions<"REASONING_MESSAGE_CHUNK"> = {}) => ev.reasoningMessageChunk(options);

/** A message for MESSAGES_SNAPSHOT or RUN_STARTED.input; `toolCalls` (ids) only on assistant messages. */
export function msg(id: string, tag?: string, role: "assistant" | "user" | "reasoning" | "activity" = "assistant", toolCalls: string[] = []): Message {
  const owner = tag === undefined ? {} : { subagentRunId: tag };
  switch (role) {
    case "assistant":
      return {
        id,
        role,
        content: "",
        ...owner,
        ...(toolCalls.length
          ? { toolCalls: toolCalls.map((callId) => ({ id: callId, type: "function" as const, function: { name: "f", arguments: "{}" } })) }
          : {}),
      };
    case "user":
      return { id, role, content: "hi", ...owner };
    case "reasoning":
      return { id, role, content: "hm", ...owner };
    case "activity":
      return { id, role, activityType: "PLAN", content: {}, ...owner };
  }
}

/** A copy of `value` (an event or a message) with one member set to any value, even one its type forbids (field-sanity tests). */
export function withField<T extends object>(value: T, key: string, member: unknown): T {
  return { ...value, [key]: member };
}

/** A copy of `value` without one member, even a required one (field-sanity tests). */
export function withoutField<T extends object>(value: T, key: string): T {
  const copy = { ...value };
  Reflect.deleteProperty(copy, key);
  return copy;
}

const ABBREVIATIONS: Record<EventType, string> = {
  RUN_STARTED: "RS",
  RUN_FINISHED: "RF",
  RUN_ERROR: "RE",
  STEP_STARTED: "STS",
  STEP_FINISHED: "STF",
  TEXT_MESSAGE_START: "TMS",
  TEXT_MESSAGE_CONTENT: "TMC",
  TEXT_MESSAGE_END: "TME",
  TEXT_MESSAGE_CHUNK: "TXC",
  TOOL_CALL_START: "TCS",
  TOOL_CALL_ARGS: "TCA",
  TOOL_CALL_END: "TCE",
  TOOL_CALL_CHUNK: "TLC",
  TOOL_CALL_RESULT: "TCR",
  STATE_SNAPSHOT: "SS",
  STATE_DELTA: "SD",
  MESSAGES_SNAPSHOT: "MS",
  ACTIVITY_SNAPSHOT: "AS",
  ACTIVITY_DELTA: "AD",
  RAW: "RAW",
  CUSTOM: "CUS",
  REASONING_START: "RST",
  REASONING_MESSAGE_START: "RMS",
  REASONING_MESSAGE_CONTENT: "RMC",
  REASONING_MESSAGE_END: "RME",
  REASONING_MESSAGE_CHUNK: "RXC",
  REASONING_END: "REND",
  REASONING_ENCRYPTED_VALUE: "REV",
  SUBAGENT_STARTED: "SAS",
  SUBAGENT_FINISHED: "SAF",
  SUBAGENT_ERROR: "SAE",
  THINKING_START: "THINKING_START",
  THINKING_END: "THINKING_END",
  THINKING_TEXT_MESSAGE_START: "THINKING_TEXT_MESSAGE_START",
  THINKING_TEXT_MESSAGE_CONTENT: "THINKING_TEXT_MESSAGE_CONTENT",
  THINKING_TEXT_MESSAGE_END: "THINKING_TEXT_MESSAGE_END",
};

/** An event in compact notation: `TMS(m1@s1)`, `STF(tools)`, `SAS(s1)`, `RS`. */
export function label(event: Event): string {
  const name = ABBREVIATIONS[event.type];
  const get = (key: string): unknown => Reflect.get(event, key);
  const id = [get("messageId"), get("toolCallId"), get("stepName"), get("entityId")].find((v) => typeof v === "string");
  const tag = get("subagentRunId");
  const isLifecycle = event.type === "SUBAGENT_STARTED" || event.type === "SUBAGENT_FINISHED" || event.type === "SUBAGENT_ERROR";
  const parts: string[] = [];
  if (isLifecycle) parts.push(JSON.stringify(tag));
  else if (typeof id === "string") parts.push(id);
  if (!isLifecycle && tag !== undefined) parts.push(`@${JSON.stringify(tag)}`);
  return parts.length ? `${name}(${parts.join(" ")})` : name;
}

/** A whole stream in compact notation, comma-separated. */
export const labels = (events: readonly Event[]): string => events.map(label).join(", ");
