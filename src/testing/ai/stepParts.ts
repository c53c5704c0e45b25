/** A scripted step as the parts a provider streams (docs/testing.md#a-scripted-model): the beats in order, ids assigned, the finish added. */
import type { Beat, ScriptedUsage } from "./beats";
import type { FinishReason, ModelPart } from "./modelParts";

/**
 * The parts of one step: `stream-start`, then each beat as its parts (a text or reasoning block
 * with its deltas, a tool call's input deltas and final call, an error part, raw parts), then the
 * `finish`, unless the step streamed an error (a failed stream ends there). Block ids are
 * `<kind>-<call>-<n>` so they differ across the model's calls; `inputWords` is the default input usage.
 *
 * @example
 * stepParts([text("Hi")], 1, 3).map((part) => part.type); // ["stream-start", "text-start", "text-delta", "text-end", "finish"]
 */
export function stepParts(beats: readonly Beat[], call: number, inputWords: number): ModelPart[] {
  const out: ModelPart[] = [{ type: "stream-start", warnings: [] }];
  let n = 0;
  let finishBeat: Extract<Beat, { kind: "finish" }> | undefined;
  let calledTool = false;
  let failed = false;
  let textDeltas = 0;
  let reasoningDeltas = 0;
  for (const beat of beats) {
    const id = `${call}-${++n}`;
    switch (beat.kind) {
      case "text":
        textDeltas += beat.deltas.length;
        out.push({ type: "text-start", id: `text-${id}` }, ...beat.deltas.map((delta): ModelPart => ({ type: "text-delta", id: `text-${id}`, delta })), {
          type: "text-end",
          id: `text-${id}`,
        });
        break;
      case "reasoning":
        reasoningDeltas += beat.deltas.length;
        out.push(
          { type: "reasoning-start", id: `reasoning-${id}` },
          ...beat.deltas.map((delta): ModelPart => ({ type: "reasoning-delta", id: `reasoning-${id}`, delta })),
          { type: "reasoning-end", id: `reasoning-${id}` },
        );
        break;
      case "tool-call":
        calledTool = true;
        out.push(...toolCallParts(beat, beat.id ?? `call-${id}`));
        break;
      case "error":
        failed = true;
        out.push({ type: "error", error: beat.error });
        break;
      case "finish":
        finishBeat = beat;
        break;
      case "parts":
        out.push(...beat.parts);
        break;
      default:
        return unknownBeat(beat);
    }
    if (failed) return out;
  }
  const reason: FinishReason = finishBeat?.reason ?? (calledTool ? "tool-calls" : "stop");
  out.push({
    type: "finish",
    finishReason: { unified: reason, raw: reason },
    usage: modelUsage(finishBeat?.usage ?? {}, inputWords, textDeltas, reasoningDeltas),
  });
  return out;
}

/** A tool call's parts: input start, its JSON in `chunks` deltas, input end, the final call. */
function toolCallParts(beat: Extract<Beat, { kind: "tool-call" }>, id: string): ModelPart[] {
  const input = JSON.stringify(beat.input) ?? "null";
  const size = Math.ceil(input.length / beat.chunks);
  const deltas = Array.from({ length: beat.chunks }, (_, index) => input.slice(index * size, (index + 1) * size)).filter((delta) => delta !== "");
  return [
    { type: "tool-input-start", id, toolName: beat.toolName },
    ...deltas.map((delta): ModelPart => ({ type: "tool-input-delta", id, delta })),
    { type: "tool-input-end", id },
    { type: "tool-call", toolCallId: id, toolName: beat.toolName, input },
  ];
}

/** A test's counts as the SDK's usage report, the defaults filled in. */
function modelUsage(usage: ScriptedUsage, inputWords: number, textDeltas: number, reasoningDeltas: number): Extract<ModelPart, { type: "finish" }>["usage"] {
  const input = usage.input ?? inputWords;
  const reasoningTokens = usage.reasoning ?? reasoningDeltas;
  const output = usage.output ?? textDeltas + reasoningTokens;
  const cacheRead = usage.cacheRead;
  return {
    inputTokens: { total: input, noCache: cacheRead === undefined ? input : input - cacheRead, cacheRead, cacheWrite: undefined },
    outputTokens: { total: output, text: output - reasoningTokens, reasoning: reasoningTokens },
  };
}

/** A beat of a kind this version does not know: refused, naming it. */
function unknownBeat(beat: never): never {
  const kind: unknown = Reflect.get(beat, "kind");
  throw new TypeError(
    `scriptedModel: expected a beat made by text(), reasoning(), toolCall(), streamError(), finish() or parts(), but got one of kind ${String(kind)}`,
  );
}
