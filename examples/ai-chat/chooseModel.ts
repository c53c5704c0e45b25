/**
 * Which model the example talks to: a real provider when its key is in the environment, the
 * scripted mock otherwise (docs/ai.md § the example). Reads only the environment it is given.
 */
import { createOpenAI } from "@ai-sdk/openai";
import type { LanguageModel } from "ai";
import { scriptedChatModel, type ScriptedChatModelOptions } from "./scriptedModel";

/** The OpenAI model used when `OPENAI_MODEL` does not name one. */
export const DEFAULT_OPENAI_MODEL = "gpt-4o-mini";

/** The environment variables the example reads. */
export interface ChatEnvironment {
  /** An OpenAI API key: with it the example uses OpenAI. */
  readonly OPENAI_API_KEY?: string;
  /** The OpenAI model id; `gpt-4o-mini` by default. */
  readonly OPENAI_MODEL?: string;
  /** Another OpenAI-compatible endpoint (a proxy, a local server); OpenAI's own by default. */
  readonly OPENAI_BASE_URL?: string;
  /** Milliseconds between the scripted model's streamed parts; 30 by default. */
  readonly AI_CHAT_DELAY_MS?: string;
}

/** The model picked, and a line saying which it is (the server prints it). */
export interface ChosenModel {
  readonly model: LanguageModel;
  readonly description: string;
}

/**
 * The model for this environment: OpenAI's (`@ai-sdk/openai`, the Responses API) with
 * `OPENAI_MODEL` when `OPENAI_API_KEY` is set and not blank, else `scriptedChatModel` paced by
 * `AI_CHAT_DELAY_MS`. `scripted` overrides the mock's options (the tests stream without delay).
 * A delay that is not a number of milliseconds throws, naming the variable and its value.
 *
 * @example
 * const { model, description } = chooseModel(process.env);
 * console.log(description); // "model: the scripted mock (set OPENAI_API_KEY to use OpenAI)"
 */
export function chooseModel(env: ChatEnvironment, scripted: ScriptedChatModelOptions = {}): ChosenModel {
  const key = env.OPENAI_API_KEY?.trim() ?? "";
  if (key !== "") {
    const modelId = env.OPENAI_MODEL?.trim() || DEFAULT_OPENAI_MODEL;
    const baseURL = env.OPENAI_BASE_URL?.trim() || undefined;
    const openai = createOpenAI({ apiKey: key, ...(baseURL === undefined ? {} : { baseURL }) });
    return { model: openai(modelId), description: `model: OpenAI ${modelId}${baseURL === undefined ? "" : ` at ${baseURL}`}` };
  }
  return {
    model: scriptedChatModel({ delayMs: delayOf(env.AI_CHAT_DELAY_MS), ...scripted }),
    description: "model: the scripted mock (set OPENAI_API_KEY to use OpenAI)",
  };
}

function delayOf(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  const ms = Number(value);
  if (!Number.isFinite(ms) || ms < 0)
    throw new TypeError(`expected AI_CHAT_DELAY_MS to be a number of milliseconds, 0 or more, but got ${JSON.stringify(value)}`);
  return ms;
}
