/** Messages and a thread's path for the branch tests: one builder per role, and a ClientState holding a path. */
import type { Message } from "../../../src/protocol/messages";
import { ClientState } from "../../../src/thread/reducers/ClientState";

export const user = (id: string, content = `said ${id}`): Message => ({ id, role: "user", content });
export const answer = (id: string, content = `answer ${id}`): Message => ({ id, role: "assistant", content });
export const asks = (id: string, callId: string): Message => ({
  id,
  role: "assistant",
  toolCalls: [{ id: callId, type: "function", function: { name: "lookup", arguments: "{}" } }],
});
export const result = (id: string, callId: string): Message => ({ id, role: "tool", toolCallId: callId, content: "found" });
export const thinking = (id: string): Message => ({ id, role: "reasoning", content: "thinking" });
export const activity = (id: string): Message => ({ id, role: "activity", activityType: "PLAN", content: { step: 1 } });
export const system = (id: string): Message => ({ id, role: "system", content: "Be brief." });

/** A client whose path is `messages` and whose state is `state`. */
export function clientWith(messages: readonly Message[], state: unknown = {}): ClientState<unknown> {
  const client = ClientState.untyped(state);
  for (const message of messages) client.messages.append(message);
  return client;
}

/** The ids of a client's path. */
export const pathIds = (client: ClientState<unknown>): string[] => client.messages.snapshot().map((message) => message.id);
