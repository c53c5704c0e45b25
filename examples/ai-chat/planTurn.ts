/**
 * The scripted model's mind, as a pure step: from the prompt the AI SDK built (the thread, the
 * tools offered) to what the model says next: an answer, or a tool call with a sentence before
 * it. It reads the user's last text for a few keywords, and after a tool call it reads the
 * results. `scriptedChatModel` streams what this returns; the tests table it.
 */
import * as E from "fp-ts/Either";
import type { MockLanguageModelV4 } from "ai/test";
import { excerpt } from "../../src/protocol/describeFailure";
import { GET_LOCAL_TIME, SharedTime } from "./localTime";
import { GET_WEATHER, Weather } from "./weather";

/** What a model's `doStream` is called with (derived: `@ai-sdk/provider` is not our dependency). */
export type ModelCall = Parameters<MockLanguageModelV4["doStream"]>[0];
/** The prompt of one model call. */
export type ModelPrompt = ModelCall["prompt"];
type ToolContent = Extract<ModelPrompt[number], { role: "tool" }>["content"][number];
type ToolResult = Extract<ToolContent, { type: "tool-result" }>;

/**
 * The model's next step: its reasoning (shown as a reasoning message), then either an answer, or
 * a sentence and one tool call.
 *
 * @example
 * const turn: Turn = { kind: "call", thinking: "…", text: "Let me look it up.", toolName: "get_weather", input: { city: "Seoul" } };
 */
export type Turn =
  | { readonly kind: "answer"; readonly thinking: string; readonly text: string }
  | { readonly kind: "call"; readonly thinking: string; readonly text: string; readonly toolName: string; readonly input: Readonly<Record<string, string>> };

/** What the scripted model says when it cannot tell what the user wants. */
export const HELP =
  'I am the example\'s scripted stand-in for a model (no OPENAI_API_KEY is set), so I understand two things: the weather in a city ("weather in Seoul") and your local time ("what time is it?").';

const WEATHER_WORDS = /\b(weather|temperature|forecast|rain|raining|rainy|sunny|degrees|warm|cold|hot)\b/i;
const TIME_WORDS = /\b(time|clock|date|what day|o'clock)\b/i;
const GREETING = /^\s*(hi|hello|hey|good (morning|afternoon|evening))\b/i;

/**
 * The next turn for `prompt`, given the names of the tools the call offers. After tool results
 * (the prompt ends with a tool message) it answers from them; otherwise it reads the last user
 * message: weather words and a city ("in Seoul") call `get_weather`, time words call
 * `get_local_time` when the client offers it, a greeting is greeted, anything else gets `HELP`.
 *
 * @example
 * planTurn([{ role: "user", content: [{ type: "text", text: "Weather in Seoul?" }] }], ["get_weather"]);
 * // { kind: "call", toolName: "get_weather", input: { city: "Seoul" }, text: "Let me look up the weather in Seoul.", … }
 */
export function planTurn(prompt: ModelPrompt, offered: readonly string[]): Turn {
  const last = prompt.at(-1);
  if (last?.role === "tool") return answerResults(last.content.filter((part): part is ToolResult => part.type === "tool-result"));
  if (last?.role !== "user") return { kind: "answer", thinking: "There is no question from the user to answer.", text: HELP };
  const text = last.content.flatMap((part) => (part.type === "text" ? [part.text] : [])).join(" ");
  return planReply(text, offered);
}

function planReply(text: string, offered: readonly string[]): Turn {
  if (WEATHER_WORDS.test(text) && offered.includes(GET_WEATHER)) {
    const city = cityIn(text);
    if (city === undefined) {
      return {
        kind: "answer",
        thinking: "The user asks about the weather but names no city.",
        text: 'Which city should I look up? Say, for example, "weather in Seoul".',
      };
    }
    return {
      kind: "call",
      thinking: `The user wants the weather in ${city}. The ${GET_WEATHER} tool looks it up on the server.`,
      text: `Let me look up the weather in ${city}.`,
      toolName: GET_WEATHER,
      input: { city },
    };
  }
  if (TIME_WORDS.test(text)) {
    if (!offered.includes(GET_LOCAL_TIME)) {
      return {
        kind: "answer",
        thinking: `The user asks for the time, but this client offers no ${GET_LOCAL_TIME} tool.`,
        text: "I cannot see your clock from here, so I cannot tell what time it is where you are.",
      };
    }
    return {
      kind: "call",
      thinking: `The time depends on where the user is, and only their browser knows it. I will ask with ${GET_LOCAL_TIME}; the user decides whether to share it.`,
      text: "I will ask your browser for the time; you decide whether to share it.",
      toolName: GET_LOCAL_TIME,
      input: {},
    };
  }
  if (GREETING.test(text)) {
    return {
      kind: "answer",
      thinking: "A greeting: greet back and say what I can do.",
      text: 'Hello! Ask me about the weather in a city ("weather in Seoul") or what time it is where you are.',
    };
  }
  return { kind: "answer", thinking: "This is not about the weather or the time: say what I can do.", text: `${HELP} You said: ${excerpt(text, 120)}.` };
}

/** One sentence per result, in the calls' order. */
function answerResults(results: readonly ToolResult[]): Turn {
  if (results.length === 0) return { kind: "answer", thinking: "A tool message without results.", text: HELP };
  const names = [...new Set(results.map((result) => result.toolName))].join(" and ");
  return { kind: "answer", thinking: `${names} answered; now I can reply.`, text: results.map(sentenceFor).join(" ") };
}

function sentenceFor(result: ToolResult): string {
  const output = result.output;
  switch (output.type) {
    case "json":
      return fromValue(result.toolName, output.value);
    case "text":
      return fromValue(result.toolName, parsedOrText(output.value));
    case "error-text":
      return failed(result.toolName, output.value);
    case "error-json":
      return failed(result.toolName, excerpt(output.value));
    case "execution-denied":
      return `The call of ${result.toolName} was denied${output.reason === undefined ? "" : `: ${output.reason}`}.`;
    case "content":
      return `${result.toolName} answered with content I cannot read aloud.`;
    default:
      return unknownOutput(result.toolName, output);
  }
}

function fromValue(toolName: string, value: unknown): string {
  if (toolName === GET_WEATHER) {
    const weather = Weather.decode(value);
    if (E.isRight(weather)) return `It is ${weather.right.celsius} °C and ${weather.right.sky} in ${weather.right.city} today.`;
  }
  if (toolName === GET_LOCAL_TIME) {
    const time = SharedTime.decode(value);
    if (E.isRight(time)) {
      return time.right.shared
        ? `It is ${time.right.time} on ${time.right.date} where you are (${time.right.timeZone}).`
        : "All right, your clock stays private, so I cannot tell what time it is where you are.";
    }
  }
  return `${toolName} answered ${excerpt(value)}.`;
}

function failed(toolName: string, error: string): string {
  const message = error.replace(/^\w*Error: /, ""); // the SDK's error text of a thrown Error starts with its name
  return toolName === GET_WEATHER ? `I could not get the weather: ${message}.` : `${toolName} failed: ${message}.`;
}

/** The city after "in", "for" or "at", up to punctuation, without trailing time words, in title case. */
function cityIn(text: string): string | undefined {
  const match = /\b(?:in|for|at)\s+([^?!.,;]+)/i.exec(text);
  if (match === null) return undefined;
  let city = match[1].replace(/\s+and\b.*$/i, "").trim();
  const trailing = /\s+(today|tonight|now|right now|tomorrow|please|this (morning|afternoon|evening|week))$/i;
  while (trailing.test(city)) city = city.replace(trailing, "");
  city = city.trim();
  if (city === "") return undefined;
  return city.replace(/\S+/g, (word) => word[0].toUpperCase() + word.slice(1).toLowerCase());
}

function parsedOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text; // a tool may answer plain text
  }
}

/** An output kind a later SDK adds fails to compile above; at run time it is described as it is. */
function unknownOutput(toolName: string, output: never): string {
  return `${toolName} answered ${excerpt(output)}.`;
}
