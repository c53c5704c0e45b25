/**
 * The client bench's workloads (bench/suites/client.ts): each generator returns a stream's events
 * together with what any correct client must end with (`Expected`), computed from the generator's
 * own inputs beside the events, never by running a reducer, so that a lane which builds nothing,
 * or the wrong thing, fails the bench instead of timing an empty pipeline.
 */
import { ev } from "../../src/protocol/build";
import type { Event } from "../../src/protocol/events";
import type { AssistantMessage, Message, UserMessage } from "../../src/protocol/messages";
import { tally, type Expected } from "./checkResult";

/**
 * The thread and run of every generated stream.
 *
 * @example
 * ev.runStarted(THREAD, RUN);
 */
export const THREAD = "t";
export const RUN = "r";
/**
 * The message every lane's client sends (or starts with) before the stream is applied; its content
 * is text, as the official client's types want.
 *
 * @example
 * new Session(transport, { threadId: THREAD }).send(USER);
 */
export const USER: UserMessage & { readonly content: string } = { id: "u-1", role: "user", content: "go" };

/** One generated stream and its expected outcome. */
export interface Generated {
  readonly events: Event[];
  readonly expected: Expected;
}

/** A named workload, by size. */
export interface Workload {
  readonly name: string;
  readonly generate: (n: number) => Generated;
}

/**
 * The expected outcome of `events` whose final messages and state the generator states itself;
 * the event figures are counted from the list.
 *
 * @example
 * const generated = generated(events, [USER, reply], {});
 */
export function generated(events: Event[], messages: readonly Message[], state: unknown): Generated {
  const eventTypes = tally(events);
  const toolCalls = messages.reduce((sum, message) => sum + (message.role === "assistant" ? (message.toolCalls?.length ?? 0) : 0), 0);
  return { events, expected: { events: events.length, eventTypes, messages, state, toolCalls } };
}

/** `count` alternating questions and answers: a thread's history for a MESSAGES_SNAPSHOT. */
export function history(count: number): Message[] {
  const messages: Message[] = [];
  for (let i = 0; i < count; i++) {
    messages.push(
      i % 2 === 0
        ? { id: `h-${i}`, role: "user", content: `Question number ${i} about the quarterly plan?` }
        : { id: `h-${i}`, role: "assistant", content: `An answer of moderate length for question ${i - 1}, with some detail.` },
    );
  }
  return messages;
}

interface Section {
  title: string;
  tasks: { id: string; title: string; done: boolean; tags: string[] }[];
}

function sectionList(): Section[] {
  const sections: Section[] = [];
  for (let s = 0; s < 100; s++) {
    const tasks = [];
    for (let i = 0; i < 100; i++)
      tasks.push({ id: `task-${s}-${i}`, title: `Follow up on customer call ${s}/${i} and write notes`, done: i % 3 === 0, tags: ["board", "q3"] });
    sections.push({ title: `Section ${s}`, tasks });
  }
  return sections;
}

/** One message of `n` deltas, optionally after a history snapshot (which replaces the local list, the user message included). */
function text(n: number, snapshot?: Message[]): Generated {
  const deltas = Array.from({ length: n }, (_, i) => (i % 7 === 0 ? " word\n" : " word"));
  const events: Event[] = [ev.runStarted(THREAD, RUN)];
  if (snapshot !== undefined) events.push(ev.messagesSnapshot(snapshot));
  events.push(ev.textMessageStart("m"), ...deltas.map((delta) => ev.textMessageContent("m", delta)), ev.textMessageEnd("m"), ev.runFinished(THREAD, RUN));
  const reply: AssistantMessage = { id: "m", role: "assistant", content: deltas.join("") };
  return generated(events, [...(snapshot ?? [USER]), reply], {});
}

/**
 * `n` one-operation deltas on a 440 kB snapshot of 100 sections × 100 tasks, each setting one
 * task's `done`; `wide` keys the sections by name in one object instead of an array. The expected
 * state is the snapshot with the same assignments made in place.
 */
function state(n: number, wide: boolean): Generated {
  const asDocument = (sections: Section[]) => (wide ? { sections: Object.fromEntries(sections.map((section, s) => [`s${s}`, section])) } : { sections });
  const events: Event[] = [ev.runStarted(THREAD, RUN), ev.stateSnapshot(asDocument(sectionList()))];
  const final = sectionList();
  for (let i = 0; i < n; i++) {
    const section = i % 100;
    const task = (i * 7) % 100;
    const done = i % 2 === 0;
    events.push(ev.stateDelta([{ op: "replace", path: `/sections/${wide ? `s${section}` : section}/tasks/${task}/done`, value: done }]));
    final[section].tasks[task].done = done;
  }
  events.push(ev.runFinished(THREAD, RUN));
  return generated(events, [USER], asDocument(final));
}

/** `n` tool calls without a parent message: each opens an assistant message named after the call. */
function tools(n: number): Generated {
  const events: Event[] = [ev.runStarted(THREAD, RUN)];
  const messages: Message[] = [USER];
  for (let i = 0; i < n; i++) {
    const args = `{"q":"item ${i}"}`;
    events.push(ev.toolCallStart(`c${i}`, "search"), ev.toolCallArgs(`c${i}`, args), ev.toolCallEnd(`c${i}`));
    messages.push({ id: `c${i}`, role: "assistant", toolCalls: [{ id: `c${i}`, type: "function", function: { name: "search", arguments: args } }] });
  }
  events.push(ev.runFinished(THREAD, RUN));
  return generated(events, messages, {});
}

/** Text, a tool call with its result, a state delta, a reasoning message and an activity, interleaved, until `n` events. */
function mixed(n: number): Generated {
  const events: Event[] = [ev.runStarted(THREAD, RUN), ev.stateSnapshot({ counter: 0, log: [] })];
  const messages: Message[] = [USER];
  let counter = 0;
  for (let i = 0; events.length < n; i++) {
    events.push(ev.textMessageStart(`m${i}`));
    for (let d = 0; d < 5; d++) events.push(ev.textMessageContent(`m${i}`, " token"));
    events.push(ev.textMessageEnd(`m${i}`));
    events.push(ev.toolCallStart(`c${i}`, "lookup", { parentMessageId: `m${i}` }), ev.toolCallArgs(`c${i}`, "{}"), ev.toolCallEnd(`c${i}`));
    events.push(ev.toolCallResult(`r${i}`, `c${i}`, "result"));
    events.push(ev.stateDelta([{ op: "replace", path: "/counter", value: i }]));
    counter = i;
    // A reasoning message opens inside a reasoning block (R22), as every producer writes it.
    events.push(ev.reasoningStart(`rs${i}`), ev.reasoningMessageStart(`rs${i}`), ev.reasoningMessageContent(`rs${i}`, "hmm"));
    events.push(ev.reasoningMessageEnd(`rs${i}`), ev.reasoningEnd(`rs${i}`));
    events.push(ev.activitySnapshot(`a${i}`, "progress", { done: 0 }), ev.activityDelta(`a${i}`, "progress", [{ op: "replace", path: "/done", value: 1 }]));
    messages.push(
      {
        id: `m${i}`,
        role: "assistant",
        content: " token".repeat(5),
        toolCalls: [{ id: `c${i}`, type: "function", function: { name: "lookup", arguments: "{}" } }],
      },
      { id: `r${i}`, role: "tool", toolCallId: `c${i}`, content: "result" },
      { id: `rs${i}`, role: "reasoning", content: "hmm" },
      { id: `a${i}`, role: "activity", activityType: "progress", content: { done: 1 } },
    );
  }
  events.push(ev.runFinished(THREAD, RUN));
  return generated(events, messages, { counter, log: [] });
}

/**
 * The workloads, in table order:
 *
 * - `text`: one assistant message of N deltas;
 * - `chat`: the same after a MESSAGES_SNAPSHOT history of 1,000 messages;
 * - `state`: a STATE_SNAPSHOT of about 440 kB (an array of 100 sections × 100 tasks) then N
 *   one-operation deltas; `state-wide` the same with the sections under 100 keys of one object;
 * - `tools`: N tool calls (start, args, end), each its own assistant message;
 * - `mixed`: text, tool calls with results, state deltas, reasoning and activity interleaved.
 *
 * @example
 * const { events, expected } = WORKLOADS[0].generate(1_000);
 */
export const WORKLOADS: readonly Workload[] = [
  { name: "text", generate: (n) => text(n) },
  { name: "chat", generate: (n) => text(n, history(1_000)) },
  { name: "state", generate: (n) => state(n, false) },
  { name: "state-wide", generate: (n) => state(n, true) },
  { name: "tools", generate: tools },
  { name: "mixed", generate: mixed },
];
