/** The chat agent: `aiAgent` from `agui-rx/ai` with a system prompt and the server tool `get_weather`. */
import type { LanguageModel } from "ai";
import { aiAgent } from "../../src/ai/aiAgent";
import type { Agent } from "../../src/server/Agent";
import { GET_LOCAL_TIME } from "./localTime";
import { GET_WEATHER, getWeather } from "./weather";

/** What the model is told; a real model follows it, the scripted one behaves so anyway. */
export const SYSTEM_PROMPT =
  "You are the agui-rx example chat. Answer in one or two short sentences. " +
  `For the weather in a city, call ${GET_WEATHER}. ` +
  `For the user's local date or time, call ${GET_LOCAL_TIME} when the client offers it (the user decides whether to share it); never guess it.`;

/** Options of {@link createChatAgent}. */
export interface ChatAgentOptions {
  readonly model: LanguageModel;
  /** The most model calls per run; 4 by default (a tool call and its answer need two). */
  readonly maxSteps?: number;
}

/**
 * The example's agent. Each run is one `streamText` call over the thread: `get_weather` runs
 * inside the run; `get_local_time` comes from the client in `RunAgentInput.tools`, so the model
 * calling it ends the run with the call pending, and the client's answer arrives in the next run.
 *
 * @example
 * const agent = createChatAgent({ model: scriptedChatModel() });
 * serve(createHandler(agent));
 */
export function createChatAgent(options: ChatAgentOptions): Agent {
  return aiAgent({ model: options.model, system: SYSTEM_PROMPT, tools: { [GET_WEATHER]: getWeather }, maxSteps: options.maxSteps ?? 4 });
}
