/**
 * The markdown suite's stand-in agent (e2e/markdown.e2e.test.ts), behind the handler as each page
 * is served: the task board's (a store, bearer-token threads, the board's state) and the AI
 * chat's (a store). It answers by `answerTo` (markdownScripts.ts) after a line of reasoning, and
 * waits at the script's hold until the test releases the gate it armed. The AI chat page gets it
 * instead of its AI SDK agent because this suite's jest loads CommonJS only (the `ai` package is
 * ESM); what the page draws depends only on the AG-UI events, which are the same.
 */
import { bearerIdentity, bearerThreadAccess } from "../examples/task-board/access";
import { boardSpec, type Board } from "../examples/task-board/board";
import { success, type Agent, type SuccessOutcome } from "../src/server/Agent";
import type { RunContext } from "../src/server/RunContext";
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
  const agent: Agent<Board> = { state: boardSpec, run: (ctx) => scriptedRun(ctx, gates) };
  return createHandler(agent, { store: memoryStore(), identify: bearerIdentity, authorize: bearerThreadAccess });
}

/**
 * The AI chat page's endpoint with the same agent, served as the AI chat server serves it: a store,
 * and every visitor one principal (so the thread's own events route exists).
 *
 * @example
 * const web = await startWebServer({ root: await buildChatPage(), agent: markdownChat(gates) });
 */
export function markdownChat(gates: Gates): FetchHandler {
  const agent: Agent = { run: (ctx) => scriptedRun(ctx, gates) };
  return createHandler(agent, { store: memoryStore(), identify: () => "visitor" });
}

/** One run: the reasoning line, then the scripted answer in deltas, waiting at its hold. */
async function scriptedRun<S>(ctx: RunContext<S>, gates: Gates): Promise<SuccessOutcome> {
  const answer = answerTo(ctx.lastUserText() ?? "");
  const thinking = ctx.reasoning();
  thinking.delta(REASONING);
  thinking.end();
  const message = ctx.assistantMessage();
  let written = 0;
  for (const piece of pieces(answer.text, answer.deltaSize)) {
    if (answer.holdAt !== undefined && written < answer.holdAt && written + piece.length >= answer.holdAt) {
      // Deltas are never empty (AG-UI refuses an empty TEXT_MESSAGE_CONTENT).
      if (answer.holdAt > written) message.delta(answer.text.slice(written, answer.holdAt));
      await gates.wait();
      if (written + piece.length > answer.holdAt) message.delta(answer.text.slice(answer.holdAt, written + piece.length));
    } else message.delta(piece);
    written += piece.length;
    // Let the response flush now and then, so the page sees the answer grow.
    if (written % (answer.deltaSize * 8) < answer.deltaSize) await new Promise<void>((resolve) => setImmediate(resolve));
  }
  message.end();
  return success();
}
