/**
 * What the Session fuzz suites check after each run: the run-end invariants, and a model of what a
 * valid run must leave (text and reasoning contents, tool arguments), computed from the events alone.
 */
import type { Event } from "../../src/protocol/events";
import type { Message } from "../../src/protocol/messages";
import { lastValueFrom, toArray } from "rxjs";
import { Session } from "../../src/client/Session";
import type { Transport } from "../../src/client/transports/Transport";
import type { Update } from "../../src/thread/Update";
import { eventsOf, streams } from "../operators/verify/generate";
import { counter } from "./support";

/** One `send` over `transport`: the session and every update (rejects if the update stream errors). */
export async function runSession(transport: Transport): Promise<{ session: Session; updates: Update[] }> {
  const session = new Session(transport, { threadId: "t1", newId: counter("u") });
  const updates = await lastValueFrom(session.send("go").pipe(toArray())); // rejects if the stream errors
  return { session, updates };
}

export function expectRunEnd(updates: readonly Update[]): void {
  const dones = updates.filter((update) => update.kind === "done");
  expect(dones).toHaveLength(1);
  const last = updates[updates.length - 1];
  expect(last.kind).toBe("done");
  if (last.kind === "done" && last.end.kind === "failed") {
    const before = updates[updates.length - 2];
    expect(before.kind).toBe("error");
    if (before.kind === "error") expect(before.error.message).toBe(last.end.message);
  }
}

/** The events a session consumes: up to and including the first terminal (E9). */
export function firstRun(events: readonly Event[]): Event[] {
  const end = events.findIndex((event) => event.type === "RUN_FINISHED" || event.type === "RUN_ERROR");
  return end < 0 ? [...events] : events.slice(0, end + 1);
}

/** What a valid run must leave, computed from the events alone: text and reasoning contents, tool arguments. */
export function model(run: readonly Event[]): { texts: Map<string, string>; args: Map<string, string> } {
  const texts = new Map<string, string>();
  const args = new Map<string, string>();
  for (const event of run) {
    if (event.type === "TEXT_MESSAGE_START" || event.type === "REASONING_MESSAGE_START") texts.set(event.messageId, texts.get(event.messageId) ?? "");
    if (event.type === "TEXT_MESSAGE_CONTENT" || event.type === "REASONING_MESSAGE_CONTENT")
      texts.set(event.messageId, (texts.get(event.messageId) ?? "") + event.delta);
    if (event.type === "TOOL_CALL_START") args.set(event.toolCallId, args.get(event.toolCallId) ?? "");
    if (event.type === "TOOL_CALL_ARGS") args.set(event.toolCallId, (args.get(event.toolCallId) ?? "") + event.delta);
  }
  return { texts, args };
}

export function expectNothingLost(messages: readonly Message[], run: readonly Event[]): void {
  const { texts, args } = model(run);
  const byId = new Map(messages.map((message) => [message.id, message]));
  for (const [id, text] of texts) expect([id, byId.get(id)?.content]).toEqual([id, text]);
  const calls = new Map(
    messages.flatMap((message) => (message.role === "assistant" ? (message.toolCalls ?? []) : [])).map((call) => [call.id, call.function.arguments]),
  );
  for (const [id, text] of args) expect([id, calls.get(id)]).toEqual([id, text]);
  expect(new Set(messages.map((message) => message.id)).size).toBe(messages.length); // ids stay unique
}

/**
 * Valid streams from the verifier's generator, without MESSAGES_SNAPSHOT (its messages restate ids
 * with placeholder content, which the model does not follow; removing one keeps a stream valid).
 */
export const validStreams = streams.map((stream) => eventsOf(stream).filter((event) => event.type !== "MESSAGES_SNAPSHOT"));
