/**
 * The scripted model's mind as a table: the user's text (and the tools offered) → what it says or
 * calls; tool results → the answer read from them. And the parts it streams for a turn.
 */
import { planTurn, HELP, type ModelPrompt, type Turn } from "../planTurn";
import { turnParts } from "../scriptedModel";

const BOTH = ["get_weather", "get_local_time"];
const user = (text: string): ModelPrompt => [
  { role: "system", content: "Be brief." },
  { role: "user", content: [{ type: "text", text }] },
];
const said = (turn: Turn) => (turn.kind === "call" ? { call: turn.toolName, input: turn.input, text: turn.text } : { text: turn.text });

describe("from the user's text", () => {
  const rows: [text: string, offered: string[], expected: ReturnType<typeof said>][] = [
    ["What's the weather in Seoul?", BOTH, { call: "get_weather", input: { city: "Seoul" }, text: "Let me look up the weather in Seoul." }],
    ["weather in new york today", BOTH, { call: "get_weather", input: { city: "New York" }, text: "Let me look up the weather in New York." }],
    ["Is it raining in Paris right now?", BOTH, { call: "get_weather", input: { city: "Paris" }, text: "Let me look up the weather in Paris." }],
    ["How warm is it at busan, please", BOTH, { call: "get_weather", input: { city: "Busan" }, text: "Let me look up the weather in Busan." }],
    ["What's the weather like?", BOTH, { text: 'Which city should I look up? Say, for example, "weather in Seoul".' }],
    ["What time is it?", BOTH, { call: "get_local_time", input: {}, text: "I will ask your browser for the time; you decide whether to share it." }],
    ["what's the date", BOTH, { call: "get_local_time", input: {}, text: "I will ask your browser for the time; you decide whether to share it." }],
    ["What time is it?", ["get_weather"], { text: "I cannot see your clock from here, so I cannot tell what time it is where you are." }],
    ["Hello!", BOTH, { text: 'Hello! Ask me about the weather in a city ("weather in Seoul") or what time it is where you are.' }],
    ["Tell me a joke", BOTH, { text: `${HELP} You said: "Tell me a joke".` }],
  ];
  test.each(rows)("%j (offered %j)", (text, offered, expected) => {
    expect(said(planTurn(user(text), offered))).toEqual(expected);
  });

  test("the user's text parts are read together, a file part skipped", () => {
    const prompt: ModelPrompt = [
      {
        role: "user",
        content: [
          { type: "file", mediaType: "image/png", data: { type: "data", data: "AA==" } },
          { type: "text", text: "weather in Tokyo" },
        ],
      },
    ];
    expect(planTurn(prompt, BOTH)).toMatchObject({ kind: "call", input: { city: "Tokyo" } });
  });

  test("every turn has reasoning to show", () => {
    expect(planTurn(user("What's the weather in Seoul?"), BOTH).thinking).toBe(
      "The user wants the weather in Seoul. The get_weather tool looks it up on the server.",
    );
    expect(planTurn([], BOTH)).toEqual({ kind: "answer", thinking: "There is no question from the user to answer.", text: HELP });
  });
});

describe("from tool results", () => {
  const answered = (...content: Extract<ModelPrompt[number], { role: "tool" }>["content"]): ModelPrompt => [...user("anything"), { role: "tool", content }];
  const result = (toolName: string, output: Extract<Extract<ModelPrompt[number], { role: "tool" }>["content"][number], { type: "tool-result" }>["output"]) =>
    ({ type: "tool-result", toolCallId: `c-${toolName}`, toolName, output }) as const;

  test.each([
    [result("get_weather", { type: "json", value: { city: "Seoul", celsius: 21, sky: "sunny" } }), "It is 21 °C and sunny in Seoul today."],
    [
      result("get_weather", { type: "error-text", value: 'Error: expected one of the cities Seoul, but got "Gotham"' }),
      'I could not get the weather: expected one of the cities Seoul, but got "Gotham".',
    ],
    [
      result("get_local_time", {
        type: "json",
        value: { shared: true, date: "Tuesday, 3 June 2025", time: "2:05 pm", timeZone: "Pacific/Auckland", locale: "en-NZ" },
      }),
      "It is 2:05 pm on Tuesday, 3 June 2025 where you are (Pacific/Auckland).",
    ],
    [
      result("get_local_time", { type: "text", value: '{"shared":false}' }),
      "All right, your clock stays private, so I cannot tell what time it is where you are.",
    ],
    [result("get_local_time", { type: "error-text", value: "the exchange was stopped" }), "get_local_time failed: the exchange was stopped."],
    [result("get_local_time", { type: "json", value: { shared: "maybe" } }), 'get_local_time answered {"shared":"maybe"}.'],
    [result("lookup", { type: "execution-denied", reason: "not now" }), "The call of lookup was denied: not now."],
  ])("%j", (part, text) => {
    expect(planTurn(answered(part), BOTH)).toEqual({ kind: "answer", thinking: `${part.toolName} answered; now I can reply.`, text });
  });

  test("two results in one tool message: one sentence each, in order", () => {
    const turn = planTurn(
      answered(
        result("get_weather", { type: "json", value: { city: "Seoul", celsius: 21, sky: "sunny" } }),
        result("get_weather", { type: "json", value: { city: "Busan", celsius: 23, sky: "windy" } }),
      ),
      BOTH,
    );
    expect(turn).toEqual({
      kind: "answer",
      thinking: "get_weather answered; now I can reply.",
      text: "It is 21 °C and sunny in Seoul today. It is 23 °C and windy in Busan today.",
    });
  });
});

describe("the streamed parts of a turn", () => {
  test("an answer: reasoning, then the text a word per delta, then finish with usage", () => {
    const parts = turnParts({ kind: "answer", thinking: "Easy one.", text: "Hello there, you." }, "3", 7);
    expect(parts).toEqual([
      { type: "stream-start", warnings: [] },
      { type: "reasoning-start", id: "reasoning-3" },
      { type: "reasoning-delta", id: "reasoning-3", delta: "Easy " },
      { type: "reasoning-delta", id: "reasoning-3", delta: "one." },
      { type: "reasoning-end", id: "reasoning-3" },
      { type: "text-start", id: "text-3" },
      { type: "text-delta", id: "text-3", delta: "Hello " },
      { type: "text-delta", id: "text-3", delta: "there, " },
      { type: "text-delta", id: "text-3", delta: "you." },
      { type: "text-end", id: "text-3" },
      {
        type: "finish",
        finishReason: { unified: "stop", raw: "stop" },
        usage: { inputTokens: { total: 7, noCache: 7, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 5, text: 3, reasoning: 2 } },
      },
    ]);
  });

  test("a call: the sentence, then the arguments streamed in two deltas and the final call", () => {
    const parts = turnParts({ kind: "call", thinking: "Look.", text: "One moment.", toolName: "get_weather", input: { city: "Seoul" } }, "5", 1);
    expect(parts.slice(-6)).toEqual([
      { type: "tool-input-start", id: "call-5", toolName: "get_weather" },
      { type: "tool-input-delta", id: "call-5", delta: '{"city":' },
      { type: "tool-input-delta", id: "call-5", delta: '"Seoul"}' },
      { type: "tool-input-end", id: "call-5" },
      { type: "tool-call", toolCallId: "call-5", toolName: "get_weather", input: '{"city":"Seoul"}' },
      expect.objectContaining({ type: "finish", finishReason: { unified: "tool-calls", raw: "tool_calls" } }),
    ]);
  });
});
