/** The agents of the testing kit's tests: deterministic (ids from the run's own), so two runs of one input answer alike. */
import { success, type Agent } from "../../src/server/Agent";

/**
 * Greets the last user message in three deltas, looks the name up with a server tool call, and
 * says what it found: text, a tool call with its result, and a second message, ids from the run id.
 */
export const greeter: Agent = {
  async run(ctx) {
    const name = ctx.lastUserText() ?? "stranger";
    const message = ctx.assistantMessage({ id: `${ctx.runId}-a` });
    for (const word of ["Hello, ", name, "!"]) message.delta(word);
    message.end();
    const call = ctx.toolCall("lookup", { id: `${ctx.runId}-c` });
    call.argsJson({ name });
    call.resultJson({ known: name === "Ada" }, { messageId: `${ctx.runId}-r` });
    ctx.say(name === "Ada" ? "I know you." : "Nice to meet you.", { id: `${ctx.runId}-b` });
    return success();
  },
};
