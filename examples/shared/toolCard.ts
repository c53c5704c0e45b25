/** What a tool call card shows: the call's title, where it stands, its arguments and its result, readably. */
import type { ToolCall, ToolMessage } from "../../src/protocol/messages";
import { messageText } from "./messageText";
import { readableJson, toolTitle, type Readable } from "./readableJson";

/**
 * Where a call stands: waiting on its result while the run goes on (`running`), a client tool
 * call waiting for the user's answer on its card (`waiting`), answered (`done`, or `failed` when
 * the result says so), cut off by Stop (`stopped`), or left without an answer by a run that
 * ended (`unanswered`).
 */
export type ToolCardStatus = "running" | "waiting" | "done" | "failed" | "stopped" | "unanswered";

/** Everything a card draws; the same for the React and the Angular page. */
export interface ToolCardView {
  readonly id: string;
  /** The tool's name as the agent sent it (`add_task`). */
  readonly name: string;
  /** The name as a title (`Add task`). */
  readonly title: string;
  readonly status: ToolCardStatus;
  /** The status in words: "Running…", "Done", "Failed", "Stopped", "No result". */
  readonly statusLabel: string;
  readonly args: Readable;
  /** The result, once there is one. */
  readonly result: Readable | undefined;
}

/** What the card needs to know about the run around the call. */
export interface ToolCardContext {
  /** A run is active on the session (a call without a result may still get one). */
  readonly running: boolean;
  /** Stop cut this call off before its result (`useRun(session).cutOff.toolCallIds`). */
  readonly stopped: boolean;
  /** A client tool call the user answers on a card is waiting for them (one of `session.runningToolCalls`). */
  readonly waiting?: boolean;
}

const LABELS: Readonly<Record<ToolCardStatus, string>> = {
  running: "Running…",
  waiting: "Waiting for you",
  done: "Done",
  failed: "Failed",
  stopped: "Stopped",
  unanswered: "No result",
};

/**
 * The card for `call`, given its result message (if any) and the run around it. A result whose
 * JSON has `ok: false` or an `error` field reads as `failed` (the task board's `complete_task`
 * answers `{ ok: false, error }` for an unknown task).
 *
 * @example
 * toolCardView(call, results.get(call.id), { running: status === "running", stopped: cutOff.toolCallIds.has(call.id) });
 */
export function toolCardView(call: ToolCall, result: ToolMessage | undefined, context: ToolCardContext): ToolCardView {
  const args = readableJson(call.function.arguments);
  const shown = result === undefined ? undefined : readableJson(messageText(result));
  const status = statusOf(shown, result?.error, context);
  return { id: call.id, name: call.function.name, title: toolTitle(call.function.name), status, statusLabel: LABELS[status], args, result: shown };
}

function statusOf(result: Readable | undefined, error: string | undefined, context: ToolCardContext): ToolCardStatus {
  if (result !== undefined) return error !== undefined || saysFailed(result) ? "failed" : "done";
  if (context.stopped) return "stopped";
  if (context.waiting === true) return "waiting";
  return context.running ? "running" : "unanswered";
}

function saysFailed(result: Readable): boolean {
  if (result.kind !== "fields") return false;
  return result.fields.some((field) => (field.key === "ok" && field.value === "no") || field.key === "error");
}
