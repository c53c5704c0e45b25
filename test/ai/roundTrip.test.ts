/**
 * The message conversion round trip: a thread with every AG-UI message kind goes through
 * `aiAgent` (what the model received is asserted), the run's events are applied by our client
 * reducer, and the resulting thread goes back through `aiAgent`: the model then sees the first
 * run's output exactly as the AI SDK itself carried it between the steps of that run.
 */
import { jsonSchema, tool } from "ai";
import { from, lastValueFrom, toArray } from "rxjs";
import { applyEvents } from "../../src/client/applyEvents";
import { ClientState } from "../../src/thread/reducers/ClientState";
import { ev, runAgentInput } from "../../src/protocol/build";
import type { Event } from "../../src/protocol/events";
import type { Message } from "../../src/protocol/messages";
import { run, sequentialIds } from "../../src/server";
import { aiAgent } from "../../src/ai";
import { collect, expectAccepted } from "../server/support";
import { finish, scriptedModelWith, streamedCall, text } from "./support";

const THREAD: Message[] = [
  { id: "sys", role: "system", content: "You are a weather assistant." },
  { id: "dev", role: "developer", content: "Use metric units." },
  {
    id: "u1",
    role: "user",
    content: [
      { type: "text", text: "What is on this map?" },
      { type: "image", source: { type: "url", value: "https://example.com/map.png", mimeType: "image/png" } },
      { type: "document", source: { type: "data", value: "JVBERi0xLjQ=", mimeType: "application/pdf" } },
      { type: "binary", mimeType: "text/plain", data: "aGVsbG8=", filename: "notes.txt" },
    ],
  },
  { id: "r0", role: "reasoning", content: "They want Paris.", encryptedValue: '{"anthropic":{"signature":"sig-0"}}' },
  {
    id: "a1",
    role: "assistant",
    content: "Checking Paris.",
    toolCalls: [
      {
        id: "call-0",
        type: "function",
        function: { name: "get_weather", arguments: '{"city":"Paris"}' },
        encryptedValue: '{"google":{"thoughtSignature":"ts-0"}}',
      },
    ],
  },
  { id: "t1", role: "tool", toolCallId: "call-0", content: '{"city":"Paris","temperature":18}' },
  { id: "act", role: "activity", activityType: "map", content: { zoom: 3 } },
  { id: "a2", role: "assistant", content: "Paris is 18°C." },
  { id: "u2", role: "user", content: "And Seoul? Then let me pick a color." },
];

const PICK_COLOR = { name: "pick_color", description: "The user picks a color", parameters: { type: "object", properties: {} } };

const get_weather = tool({
  inputSchema: jsonSchema<{ city: string }>({ type: "object", properties: { city: { type: "string" } } }),
  execute: async ({ city }) => ({ city, temperature: 21 }),
});

const model = scriptedModelWith(
  { supportedUrls: { "image/*": [/^https:\/\/example\.com\//] } },
  // run 1, step 1: reasoning with a signature, text, a server tool call with a thought signature
  [
    { type: "reasoning-start", id: "rs" },
    { type: "reasoning-delta", id: "rs", delta: "Now Seoul." },
    { type: "reasoning-end", id: "rs", providerMetadata: { anthropic: { signature: "sig-1" } } },
    ...text("txt", "Checking Seoul."),
    ...streamedCall("call-1", "get_weather", '{"city":', '"Seoul"}').map((part) =>
      part.type === "tool-call" ? { ...part, providerMetadata: { google: { thoughtSignature: "ts-1" } } } : part,
    ),
    finish("tool-calls"),
  ],
  // run 1, step 2: text and a client tool call: the run ends with it pending
  [...text("txt", "Seoul is 21°C."), { type: "tool-call", toolCallId: "call-2", toolName: "pick_color", input: "{}" }, finish("tool-calls")],
  // run 2
  [...text("txt", "Teal it is."), finish()],
);

const agent = aiAgent({ model, system: "Keep it short.", tools: { get_weather }, steps: false });

/** Our client reducer, seeded with `thread` the way a client learns history (MESSAGES_SNAPSHOT), then fed `events`. */
async function clientThread(thread: Message[], events: Event[]): Promise<readonly Message[]> {
  const state = ClientState.untyped();
  const history = [ev.runStarted("thread-1", "history"), ev.messagesSnapshot(thread), ev.runFinished("thread-1", "history")];
  await lastValueFrom(from(history).pipe(applyEvents({ state }), toArray()));
  const updates = await lastValueFrom(from(events).pipe(applyEvents({ state }), toArray()));
  expect(updates.filter((update) => update.kind === "error")).toEqual([]);
  return state.messages.snapshot();
}

test("every message kind reaches the model as documented, and the run's output comes back as the SDK carried it", async () => {
  const first = await collect(run(agent, runAgentInput("thread-1", "run-1", { messages: THREAD, tools: [PICK_COLOR] }), { ids: sequentialIds("id") }));
  await expectAccepted(first);
  expect(first.at(-1)).toMatchObject({ type: "RUN_FINISHED", outcome: { type: "success", pendingToolCallIds: ["call-2"] } });

  // What the model received for the thread.
  expect(model.doStreamCalls[0].prompt).toEqual([
    { role: "system", content: "Keep it short." },
    { role: "system", content: "You are a weather assistant." },
    { role: "system", content: "Use metric units." },
    {
      role: "user",
      content: [
        { type: "text", text: "What is on this map?" },
        { type: "file", data: { type: "url", url: new URL("https://example.com/map.png") }, mediaType: "image/png" },
        { type: "file", data: { type: "data", data: "JVBERi0xLjQ=" }, mediaType: "application/pdf" },
        { type: "file", data: { type: "data", data: "aGVsbG8=" }, mediaType: "text/plain", filename: "notes.txt" },
      ],
    },
    {
      role: "assistant",
      content: [
        { type: "reasoning", text: "They want Paris.", providerOptions: { anthropic: { signature: "sig-0" } } },
        { type: "text", text: "Checking Paris." },
        {
          type: "tool-call",
          toolCallId: "call-0",
          toolName: "get_weather",
          input: { city: "Paris" },
          providerOptions: { google: { thoughtSignature: "ts-0" } },
        },
      ],
    },
    {
      role: "tool",
      content: [
        {
          type: "tool-result",
          toolCallId: "call-0",
          toolName: "get_weather",
          output: { type: "json", value: { city: "Paris", temperature: 18 } },
          providerOptions: { google: { thoughtSignature: "ts-0" } }, // the call's, as the SDK gives its own results
        },
      ],
    },
    { role: "assistant", content: [{ type: "text", text: "Paris is 18°C." }] },
    { role: "user", content: [{ type: "text", text: "And Seoul? Then let me pick a color." }] },
  ]);

  // Back: the client applies the run; its thread now holds the run's output in AG-UI form.
  const applied = await clientThread(THREAD, first);
  expect(applied.slice(THREAD.length)).toEqual([
    { id: "id-1", role: "reasoning", content: "Now Seoul.", encryptedValue: '{"anthropic":{"signature":"sig-1"}}' },
    {
      id: "id-2",
      role: "assistant",
      content: "Checking Seoul.",
      toolCalls: [
        {
          id: "call-1",
          type: "function",
          function: { name: "get_weather", arguments: '{"city":"Seoul"}' },
          encryptedValue: '{"google":{"thoughtSignature":"ts-1"}}',
        },
      ],
    },
    { id: "id-3", role: "tool", toolCallId: "call-1", content: '{"city":"Seoul","temperature":21}' },
    {
      id: "id-4",
      role: "assistant",
      content: "Seoul is 21°C.",
      toolCalls: [{ id: "call-2", type: "function", function: { name: "pick_color", arguments: "{}" } }],
    },
  ]);

  // The client runs its tool and starts the next run with the whole thread.
  const answered: Message[] = [...applied, { id: "t-client", role: "tool", toolCallId: "call-2", content: '{"color":"teal"}' }];
  const second = await collect(run(agent, runAgentInput("thread-1", "run-2", { messages: answered, tools: [PICK_COLOR] }), { ids: sequentialIds("id2") }));
  await expectAccepted(second);

  // The SDK's own view after run 1's first step (doStreamCalls[1]) is what our round trip rebuilt, part for part.
  const sdkView = model.doStreamCalls[1].prompt;
  const rebuilt = model.doStreamCalls[2].prompt;
  expect(rebuilt.slice(0, sdkView.length)).toEqual(sdkView);
  expect(rebuilt.slice(sdkView.length)).toEqual([
    {
      role: "assistant",
      content: [
        { type: "text", text: "Seoul is 21°C." },
        { type: "tool-call", toolCallId: "call-2", toolName: "pick_color", input: {} },
      ],
    },
    { role: "tool", content: [{ type: "tool-result", toolCallId: "call-2", toolName: "pick_color", output: { type: "json", value: { color: "teal" } } }] },
  ]);
});
