/** The RunAgentInput a session sends (docs/rules.md#A21, docs/rules.md#A5): the conversation without activity messages, and the protocol version it speaks. */
import type { Context, RunAgentInput, Tool } from "../protocol/input";
import type { Message } from "../protocol/messages";
import type { ResumeEntry } from "../protocol/outcomes";
import { PROTOCOL_VERSION } from "../protocol/version";

/**
 * What one run's input is made of: the session's (or the run's) choices, already resolved.
 *
 * @example
 * const parts: RunInputParts = { threadId: "t1", runId: "r1", messages, state: {}, tools: [], context: [], forwardedProps: undefined, resume: undefined };
 */
export interface RunInputParts {
  readonly threadId: string;
  readonly runId: string;
  readonly messages: readonly Message[];
  readonly state: unknown;
  readonly tools: readonly Tool[];
  readonly context: readonly Context[];
  /** `undefined` is sent as `{}`. */
  readonly forwardedProps: unknown;
  /** Present only on a resume (docs/rules.md#I4). */
  readonly resume: readonly ResumeEntry[] | undefined;
}

/**
 * The outgoing RunAgentInput: activity messages left out (docs/rules.md#A21), arrays copied so the input never
 * aliases the session's lists, `protocolVersion` declared (docs/rules.md#A5, as `@ag-ui/client` 1.0.0 does).
 *
 * @example
 * runInput({ ...parts, messages: [user, activity] }).messages; // [user]
 */
export function runInput(parts: RunInputParts): RunAgentInput {
  const { resume } = parts;
  return {
    threadId: parts.threadId,
    runId: parts.runId,
    messages: parts.messages.filter((message) => message.role !== "activity"),
    tools: [...parts.tools],
    context: [...parts.context],
    state: parts.state,
    forwardedProps: parts.forwardedProps ?? {},
    ...(resume === undefined ? {} : { resume: [...resume] }),
    protocolVersion: PROTOCOL_VERSION,
  };
}
