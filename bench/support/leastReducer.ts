/**
 * A bound, not a client: the least work the update contract asks of any client per event, for the
 * streams of the `text`, `chat` and `tools` workloads. The contract is the one of docs/seeds.md#seed-001:
 * one update per event, not per entity (forty text deltas are forty message updates), each carrying
 * the message as it now is, with untouched messages keeping their identity (issue #27's structural
 * sharing). This lane does just that after the floor's `JSON.parse`, and nothing else: no decoding
 * check, no verification, no metadata, no diagnostics, no Observable. How far it stands from the
 * floor is what no reducer can win back (docs/benchmarks.md#bounds).
 */
import type { Thread } from "./checkResult";
import { USER } from "./clientWorkloads";

/** A message as this lane holds it: the fields the generated streams set. */
interface LeastMessage {
  readonly id: string;
  readonly role: string;
  readonly content?: string;
  readonly toolCalls?: readonly LeastToolCall[];
}

interface LeastToolCall {
  readonly id: string;
  readonly type: "function";
  readonly function: { readonly name: string; readonly arguments: string };
}

/** What the lane emits per event: the message update's fields, as the Session's `message` update has them. */
export interface LeastUpdate {
  readonly kind: "message" | "messages" | "done";
  readonly index: number;
  readonly change: { readonly kind: string; readonly delta?: string };
  readonly message: LeastMessage | undefined;
}

/** The events this lane reads (parsed frames, or events the checked step passed): only the fields it uses. */
export interface LeastEvent {
  readonly type: string;
  readonly messageId: string;
  readonly toolCallId: string;
  readonly toolCallName: string;
  readonly delta: string;
  readonly messages: readonly LeastMessage[];
}

/**
 * The least lane's state: the messages so far and a lookup from message (or tool call) id to
 * position. `apply` takes one event (a parsed frame, or an event the checked step passed) and hands
 * the update it makes to `onUpdate`; `thread` is what was built. Throws on an event type outside the
 * text, chat and tools streams, and on a continuation for an id it never saw (the generated streams
 * hold neither).
 *
 * @example
 * const least = new LeastReducer(() => undefined);
 * for (const frame of body.split("\n\n")) if (frame.length > 0) least.apply(JSON.parse(frame.slice(6)) as LeastEvent);
 */
export class LeastReducer {
  private messages: LeastMessage[] = [USER];
  private readonly positions = new Map<string, number>([[USER.id, 0]]);

  constructor(private readonly onUpdate: (update: LeastUpdate) => void) {}

  /** The thread as it stands: the messages, and the empty state these streams leave. */
  thread(): Thread {
    return { messages: this.messages, state: {} };
  }

  /** Applies one event with the least work the update contract allows. */
  apply(event: LeastEvent): void {
    const messages = this.messages;
    switch (event.type) {
      case "TEXT_MESSAGE_START":
        // The generated streams open every text message as the assistant's.
        this.positions.set(event.messageId, messages.length);
        messages.push({ id: event.messageId, role: "assistant", content: "" });
        this.update("message", messages.length - 1, { kind: "started" });
        break;
      case "TEXT_MESSAGE_CONTENT": {
        const index = this.at(event.messageId);
        const message = messages[index];
        messages[index] = { id: message.id, role: message.role, content: message.content + event.delta };
        this.update("message", index, { kind: "content", delta: event.delta });
        break;
      }
      case "TOOL_CALL_START":
        this.positions.set(event.toolCallId, messages.length);
        messages.push({
          id: event.toolCallId,
          role: "assistant",
          toolCalls: [{ id: event.toolCallId, type: "function", function: { name: event.toolCallName, arguments: "" } }],
        });
        this.update("message", messages.length - 1, { kind: "toolCallStarted" });
        break;
      case "TOOL_CALL_ARGS": {
        const index = this.at(event.toolCallId);
        const message = messages[index];
        // The tools workload opens one message per call, so the call is the message's only one.
        const call = (message.toolCalls ?? [])[0];
        const extended: LeastToolCall = {
          id: call.id,
          type: call.type,
          function: { name: call.function.name, arguments: call.function.arguments + event.delta },
        };
        messages[index] = { id: message.id, role: message.role, toolCalls: [extended] };
        this.update("message", index, { kind: "toolCallArgs", delta: event.delta });
        break;
      }
      case "TEXT_MESSAGE_END":
        this.update("message", this.at(event.messageId), { kind: "ended" });
        break;
      case "TOOL_CALL_END":
        this.update("message", this.at(event.toolCallId), { kind: "toolCallEnded" });
        break;
      case "MESSAGES_SNAPSHOT":
        this.messages = event.messages.map((message) => ({ ...message }));
        this.positions.clear();
        this.messages.forEach((message, index) => this.positions.set(message.id, index));
        this.update("messages", -1, { kind: "snapshot" });
        break;
      case "RUN_STARTED":
        break;
      case "RUN_FINISHED":
        this.update("done", -1, { kind: "success" });
        break;
      default:
        throw new Error(`expected the events of the text, chat or tools workload, but got ${event.type}: the least lane applies only those`);
    }
  }

  private at(id: string): number {
    const index = this.positions.get(id);
    if (index === undefined) throw new Error(`expected a message or tool call ${id} started before its continuation, but there is none`);
    return index;
  }

  private update(kind: LeastUpdate["kind"], index: number, change: LeastUpdate["change"]): void {
    this.onUpdate({ kind, index, change, message: this.messages[index] });
  }
}

/**
 * Parses `body` as the floor does and applies each frame with a `LeastReducer`, starting from the
 * bench's user message; returns the thread built.
 *
 * @example
 * checkThread("least on text/20", leastThread(body, () => undefined), expected);
 */
export function leastThread(body: string, onUpdate: (update: LeastUpdate) => void): Thread {
  const least = new LeastReducer(onUpdate);
  for (const frame of body.split("\n\n")) if (frame.length > 0) least.apply(JSON.parse(frame.slice(6)) as LeastEvent);
  return least.thread();
}
