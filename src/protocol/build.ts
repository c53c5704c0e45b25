/**
 * Event builders: `ev.<camelCaseType>(…)` for every type this library may emit (all but the
 * deprecated `THINKING_*`). Required members are positional, optional ones go in `options`.
 * Builders fill defaults and drop `undefined`/`null` options, so their JSON never carries a
 * `null` for an absent optional member and always parses with `@ag-ui/core` 1.0.0's schemas.
 */
import type { JsonPatchOperation } from "./common";
import type { AttributableEvent, Event, EventOf, EventType } from "./events";
import type { Interrupt, RunFinishedOutcome, SubagentFinishedOutcome } from "./outcomes";
import type { RunAgentInput } from "./input";
import type { Message } from "./messages";

/**
 * The optional members of one event type, as builders accept them: the members its codec declares
 * optional, which are exactly the ones its interface marks `?`.
 *
 * @example
 * const options: EventOptions<"TOOL_CALL_START"> = { parentMessageId: "m1", subagentRunId: "sub-1" };
 */
export type EventOptions<T extends EventType> = Pick<EventOf<T>, OptionalKeys<EventOf<T>>>;

/** The keys of `T` whose members may be absent. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- `{} extends Pick<T, K>` holds exactly when K is optional
type OptionalKeys<T> = { [K in keyof T]-?: {} extends Pick<T, K> ? K : never }[keyof T];

/** Keeps only the options that carry a value. */
function present<O extends object>(options: O | undefined): Partial<O> {
  const out: Partial<O> = {};
  if (!options) return out;
  for (const key of Object.keys(options) as (keyof O)[]) {
    const value = options[key];
    if (value !== undefined && value !== null) out[key] = value;
  }
  return out;
}

const make = <T extends EventType>(type: T, required: Omit<EventOf<T>, "type" | keyof EventOptions<T>>, options?: EventOptions<T>): EventOf<T> =>
  ({ type, ...required, ...present(options) }) as EventOf<T>; // the members are exactly the codec's required + optional ones

/**
 * Builders for every event type this library emits: required members are positional, optional
 * ones go in the last argument; `null`/`undefined` options are left out.
 *
 * @example
 * ev.textMessageStart("m1")                        // { type: "TEXT_MESSAGE_START", messageId: "m1", role: "assistant" }
 * ev.toolCallStart("tc1", "search", { parentMessageId: "m1" })
 * ev.runFinished("t1", "r1", { outcome: outcome.success() })
 */
export const ev = {
  runStarted: (threadId: string, runId: string, options?: EventOptions<"RUN_STARTED">) => make("RUN_STARTED", { threadId, runId }, options),
  runFinished: (threadId: string, runId: string, options?: EventOptions<"RUN_FINISHED">) => make("RUN_FINISHED", { threadId, runId }, options),
  runError: (message: string, options?: EventOptions<"RUN_ERROR">) => make("RUN_ERROR", { message }, options),
  stepStarted: (stepName: string, options?: EventOptions<"STEP_STARTED">) => make("STEP_STARTED", { stepName }, options),
  stepFinished: (stepName: string, options?: EventOptions<"STEP_FINISHED">) => make("STEP_FINISHED", { stepName }, options),

  textMessageStart: (messageId: string, options?: EventOptions<"TEXT_MESSAGE_START"> & { role?: EventOf<"TEXT_MESSAGE_START">["role"] | undefined }) => {
    const { role = "assistant", ...rest } = options ?? {};
    return make("TEXT_MESSAGE_START", { messageId, role }, rest);
  },
  textMessageContent: (messageId: string, delta: string, options?: EventOptions<"TEXT_MESSAGE_CONTENT">) =>
    make("TEXT_MESSAGE_CONTENT", { messageId, delta }, options),
  textMessageEnd: (messageId: string, options?: EventOptions<"TEXT_MESSAGE_END">) => make("TEXT_MESSAGE_END", { messageId }, options),
  textMessageChunk: (options: EventOptions<"TEXT_MESSAGE_CHUNK">) => make("TEXT_MESSAGE_CHUNK", {}, options),

  toolCallStart: (toolCallId: string, toolCallName: string, options?: EventOptions<"TOOL_CALL_START">) =>
    make("TOOL_CALL_START", { toolCallId, toolCallName }, options),
  toolCallArgs: (toolCallId: string, delta: string, options?: EventOptions<"TOOL_CALL_ARGS">) => make("TOOL_CALL_ARGS", { toolCallId, delta }, options),
  toolCallEnd: (toolCallId: string, options?: EventOptions<"TOOL_CALL_END">) => make("TOOL_CALL_END", { toolCallId }, options),
  toolCallChunk: (options: EventOptions<"TOOL_CALL_CHUNK">) => make("TOOL_CALL_CHUNK", {}, options),
  /** A tool's output; `content` is a string so Baseline peers accept it too. */
  toolCallResult: (messageId: string, toolCallId: string, content: string, options?: EventOptions<"TOOL_CALL_RESULT">) =>
    make("TOOL_CALL_RESULT", { messageId, toolCallId, content }, { ...options, role: options?.role ?? "tool" }),

  /** `undefined` is sent as `null`: JSON has no `undefined`, and the member must be present. */
  stateSnapshot: (snapshot: unknown, options?: EventOptions<"STATE_SNAPSHOT">) => make("STATE_SNAPSHOT", { snapshot: snapshot ?? null }, options),
  stateDelta: (delta: JsonPatchOperation[], options?: EventOptions<"STATE_DELTA">) => make("STATE_DELTA", { delta }, options),
  messagesSnapshot: (messages: Message[], options?: EventOptions<"MESSAGES_SNAPSHOT">) => make("MESSAGES_SNAPSHOT", { messages }, options),

  activitySnapshot: (
    messageId: string,
    activityType: string,
    content: Record<string, unknown>,
    options?: EventOptions<"ACTIVITY_SNAPSHOT"> & { replace?: boolean | undefined },
  ) => {
    const { replace = true, ...rest } = options ?? {};
    return make("ACTIVITY_SNAPSHOT", { messageId, activityType, content, replace }, rest);
  },
  activityDelta: (messageId: string, activityType: string, patch: JsonPatchOperation[], options?: EventOptions<"ACTIVITY_DELTA">) =>
    make("ACTIVITY_DELTA", { messageId, activityType, patch }, options),

  /** `undefined` is sent as `null`: JSON has no `undefined`, and the member must be present. */
  raw: (event: unknown, options?: EventOptions<"RAW">) => make("RAW", { event: event ?? null }, options),
  /** `undefined` is sent as `null`: JSON has no `undefined`, and the member must be present. */
  custom: (name: string, value: unknown, options?: EventOptions<"CUSTOM">) => make("CUSTOM", { name, value: value ?? null }, options),

  reasoningStart: (messageId: string, options?: EventOptions<"REASONING_START">) => make("REASONING_START", { messageId }, options),
  reasoningMessageStart: (messageId: string, options?: EventOptions<"REASONING_MESSAGE_START">) =>
    make("REASONING_MESSAGE_START", { messageId, role: "reasoning" }, options),
  reasoningMessageContent: (messageId: string, delta: string, options?: EventOptions<"REASONING_MESSAGE_CONTENT">) =>
    make("REASONING_MESSAGE_CONTENT", { messageId, delta }, options),
  reasoningMessageEnd: (messageId: string, options?: EventOptions<"REASONING_MESSAGE_END">) => make("REASONING_MESSAGE_END", { messageId }, options),
  reasoningMessageChunk: (options: EventOptions<"REASONING_MESSAGE_CHUNK">) => make("REASONING_MESSAGE_CHUNK", {}, options),
  reasoningEnd: (messageId: string, options?: EventOptions<"REASONING_END">) => make("REASONING_END", { messageId }, options),
  reasoningEncryptedValue: (
    subtype: EventOf<"REASONING_ENCRYPTED_VALUE">["subtype"],
    entityId: string,
    encryptedValue: string,
    options?: EventOptions<"REASONING_ENCRYPTED_VALUE">,
  ) => make("REASONING_ENCRYPTED_VALUE", { subtype, entityId, encryptedValue }, options),

  subagentStarted: (subagentRunId: string, name: string, options?: EventOptions<"SUBAGENT_STARTED">) =>
    make("SUBAGENT_STARTED", { subagentRunId, name }, options),
  subagentFinished: (subagentRunId: string, options?: EventOptions<"SUBAGENT_FINISHED">) => make("SUBAGENT_FINISHED", { subagentRunId }, options),
  subagentError: (subagentRunId: string, message: string, options?: EventOptions<"SUBAGENT_ERROR">) =>
    make("SUBAGENT_ERROR", { subagentRunId, message }, options),
} as const;

/**
 * Returns a copy of `event` attributed to the subagent invocation `subagentRunId`.
 * Only the 24 attributable event types accept it (docs/wire.md#1.5).
 *
 * @example
 * withSubagentRunId(ev.textMessageStart("m1"), "sub-1") // { …, subagentRunId: "sub-1" }
 */
export function withSubagentRunId<E extends AttributableEvent>(event: E, subagentRunId: string): E {
  return { ...event, subagentRunId };
}

/**
 * Outcome helpers for `RUN_FINISHED` and `SUBAGENT_FINISHED`.
 *
 * @example
 * ev.runFinished("t1", "r1", { outcome: outcome.interrupt([{ id: "i1", reason: "approval" }]) })
 * ev.subagentFinished("sub-1", { outcome: outcome.suspended(["i1"]) })
 */
export const outcome = {
  success: (): RunFinishedOutcome => ({ type: "success" }),
  interrupt: (interrupts: [Interrupt, ...Interrupt[]]): RunFinishedOutcome => ({ type: "interrupt", interrupts }),
  subagentSuccess: (): SubagentFinishedOutcome => ({ type: "success" }),
  suspended: (interruptIds?: string[]): SubagentFinishedOutcome => (interruptIds ? { type: "suspended", interruptIds } : { type: "suspended" }),
};

/**
 * A minimal valid `RunAgentInput` (no messages, tools or context); `fields` adds to it, and
 * `null`/`undefined` fields are left out.
 *
 * @example
 * runAgentInput("t1", "r1", { state: { count: 0 } })
 * // { threadId: "t1", runId: "r1", messages: [], tools: [], context: [], forwardedProps: {}, state: { count: 0 } }
 */
export function runAgentInput(threadId: string, runId: string, fields: Partial<Omit<RunAgentInput, "threadId" | "runId">> = {}): RunAgentInput {
  return { threadId, runId, messages: [], tools: [], context: [], forwardedProps: {}, ...present(fields) };
}

export type { Event };
