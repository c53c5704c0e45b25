/** The AI SDK's per-step usage as one AG-UI `TokenUsage` entry (docs/wire.md#4.12): counts the SDK did not report stay absent. */
import type { LanguageModel, LanguageModelUsage } from "ai";
import type { TokenUsage } from "../protocol/common";

/**
 * Maps the SDK's `LanguageModelUsage` onto 1.0.0's token-usage fields: `inputTokens`,
 * `outputTokens`, `totalTokens` as they are; `reasoningTokens` from
 * `outputTokenDetails.reasoningTokens`; `cachedInputTokens` from `inputTokenDetails.cacheReadTokens`;
 * `cacheWriteInputTokens` from `inputTokenDetails.cacheWriteTokens`. A count the SDK leaves
 * `undefined` is left out (AG-UI: "an unreported count is omitted, not zero"); so is one that is
 * not a non-negative integer, which no provider should send but the wire would refuse. The
 * SDK's `raw` usage and `noCacheTokens`/`textTokens` have no AG-UI field and are dropped.
 *
 * @example
 * toTokenUsage(part.usage, { provider: "openai", model: part.response.modelId });
 * // { provider: "openai", model: "gpt-4o-2024-08-06", inputTokens: 812, outputTokens: 64, totalTokens: 876 }
 */
export function toTokenUsage(
  usage: LanguageModelUsage,
  names: { readonly provider?: string | undefined; readonly model?: string | undefined } = {},
): TokenUsage {
  const entry: TokenUsage = {};
  if (names.provider !== undefined) entry.provider = names.provider;
  if (names.model !== undefined) entry.model = names.model;
  setCount(entry, "inputTokens", usage.inputTokens);
  setCount(entry, "outputTokens", usage.outputTokens);
  setCount(entry, "totalTokens", usage.totalTokens);
  // The detail objects are required by the SDK's type, but providers written against older
  // versions of the spec may omit them; read them defensively.
  setCount(entry, "reasoningTokens", usage.outputTokenDetails?.reasoningTokens);
  setCount(entry, "cachedInputTokens", usage.inputTokenDetails?.cacheReadTokens);
  setCount(entry, "cacheWriteInputTokens", usage.inputTokenDetails?.cacheWriteTokens);
  return entry;
}

/**
 * The provider name a usage entry carries for `model`: the part of the SDK's provider id before
 * its first dot (`"openai.chat"` → `"openai"`, as AG-UI's examples name providers), or the part
 * of a gateway model string before its slash (`"anthropic/claude-sonnet-4"` → `"anthropic"`).
 *
 * @example
 * providerName(openai("gpt-4o")); // "openai"
 */
export function providerName(model: LanguageModel): string | undefined {
  if (typeof model === "string") {
    const slash = model.indexOf("/");
    return slash > 0 ? model.slice(0, slash) : undefined;
  }
  const dot = model.provider.indexOf(".");
  return dot > 0 ? model.provider.slice(0, dot) : model.provider;
}

type Count = "inputTokens" | "outputTokens" | "totalTokens" | "reasoningTokens" | "cachedInputTokens" | "cacheWriteInputTokens";

function setCount(entry: TokenUsage, key: Count, value: number | undefined): void {
  if (value !== undefined && Number.isInteger(value) && value >= 0) entry[key] = value;
}
