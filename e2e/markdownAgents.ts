/**
 * The markdown suite's stand-ins for a model (e2e/markdown.e2e.test.ts): a task-board agent
 * behind the handler as the pages are served (a store, bearer-token threads), and an AI SDK mock
 * model for the AI chat page. Both answer by `answerTo` (markdownScripts.ts) after a line of
 * reasoning, and wait at the script's hold until the test releases the gate it armed.
 */
import { MockLanguageModelV4 } from "ai/test";
import { bearerIdentity, bearerThreadAccess } from "../examples/task-board/access";
import { boardSpec, type Board } from "../examples/task-board/board";
import type { ModelCall, ModelPrompt } from "../examples/ai-chat/planTurn";
import type { ModelPart } from "../examples/ai-chat/scriptedModel";
import { success, type Agent } from "../src/server/Agent";
import { createHandler, type FetchHandler } from "../src/server/http/createHandler";
import { memoryStore } from "../src/server/store/memory/memoryStore";
import { answerTo, newGate, pieces, REASONING, type Gate } from "./markdownScripts";

/** Where the next held answer waits: armed by the test before it sends. */
export class Gates {
  private armed: Gate | undefined;

  /** A gate for the next answer that holds. */
  arm(): Gate {
    const gate = newGate();
    this.armed = gate;
    return gate;
  }

  /** The answer's side: waits at the armed gate (at once without one). */
  async wait(): Promise<void> {
    const gate = this.armed;
    this.armed = undefined;
    if (gate !== undefined) await gate.wait();
  }
}

/**
 * The task board's endpoint with an agent that answers in markdown (the board state stays empty).
 *
 * @example
 * const web = await startWebServer({ root, agent: markdownTaskBoard(gates) });
 */
export function markdownTaskBoard(gates: Gates): FetchHandler {
  const agent: Agent<Board> = {
    state: boardSpec,
    async run(ctx) {
      const answer = answerTo(ctx.lastUserText() ?? "");
      const thinking = ctx.reasoning();
      thinking.delta(REASONING);
      thinking.end();
      const message = ctx.assistantMessage();
      let written = 0;
      for (const piece of pieces(answer.text, answer.deltaSize)) {
        if (answer.holdAt !== undefined && written < answer.holdAt && written + piece.length >= answer.holdAt) {
          message.delta(answer.text.slice(written, answer.holdAt));
          await gates.wait();
          message.delta(answer.text.slice(answer.holdAt, written + piece.length));
        } else message.delta(piece);
        written += piece.length;
        // Let the response flush now and then, so the page sees the answer grow.
        if (written % (answer.deltaSize * 8) < answer.deltaSize) await new Promise<void>((resolve) => setImmediate(resolve));
      }
      message.end();
      return success();
    },
  };
  return createHandler(agent, { store: memoryStore(), identify: bearerIdentity, authorize: bearerThreadAccess });
}

/**
 * The AI chat's model: the same answers, as the parts a provider streams.
 *
 * @example
 * const web = await startChatServer({ root: await buildChatPage(), model: markdownModel(gates) });
 */
export function markdownModel(gates: Gates): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    provider: "scripted",
    modelId: "markdown",
    doStream: async (call: ModelCall) => {
      const answer = answerTo(lastUserText(call.prompt));
      const parts: ModelPart[] = [
        { type: "stream-start", warnings: [] },
        { type: "reasoning-start", id: "r" },
        { type: "reasoning-delta", id: "r", delta: REASONING },
        { type: "reasoning-end", id: "r" },
        { type: "text-start", id: "t" },
      ];
      const before = answer.holdAt === undefined ? answer.text : answer.text.slice(0, answer.holdAt);
      const after = answer.holdAt === undefined ? "" : answer.text.slice(answer.holdAt);
      const text = (chunk: string): ModelPart[] => pieces(chunk, answer.deltaSize).map((delta) => ({ type: "text-delta", id: "t", delta }));
      const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
      const rest: ModelPart[] = [...text(after), { type: "text-end", id: "t" }, { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage }];
      const stream = new ReadableStream<ModelPart>({
        async start(controller) {
          for (const part of [...parts, ...text(before)]) controller.enqueue(part);
          if (answer.holdAt !== undefined) await gates.wait();
          for (const part of rest) controller.enqueue(part);
          controller.close();
        },
      });
      return { stream };
    },
  });
}

function lastUserText(prompt: ModelPrompt): string {
  const last = [...prompt].reverse().find((message) => message.role === "user");
  if (last === undefined || typeof last.content === "string") return last?.content ?? "";
  return last.content.flatMap((part) => (part.type === "text" ? [part.text] : [])).join(" ");
}
