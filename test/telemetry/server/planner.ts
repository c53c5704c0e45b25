/** The agent of the server's tracing tests and of the trace shown in docs/observability.md#traces. */
import { interrupted, success, type Agent } from "../../../src/server/Agent";

/** Text that must appear on no span unless content is recorded. */
export const SECRET = "the-user-said-this";

/** Plans, looks something up, asks a researcher, then waits for a confirmation; on resume, sends and leaves a client tool call. */
export const planner: Agent = {
  name: "planner",
  async run(ctx) {
    if (ctx.isResume) {
      ctx.say("Sent.");
      ctx.toolCall("notify").argsJson({ text: SECRET }).end(); // a client tool: no result here
      return success();
    }
    await ctx.step("plan", async (step) => {
      step.say(`Planning for ${SECRET}.`);
      const call = step.toolCall("search").argsJson({ query: SECRET });
      call.result(`found ${SECRET}`);
      const researcher = step.subagent("researcher");
      researcher.say("Three papers.");
      researcher.finish({ papers: 3 });
    });
    ctx.reportUsage({ provider: "test", model: "m1", inputTokens: 12, outputTokens: 7 });
    return interrupted(ctx.interrupt({ reason: "confirmation", message: "Send it?" }));
  },
};

/** A run's input on thread `t1`: a user message and a state holding `SECRET`, and the client tool `notify`. */
export function inputOf(runId: string, more: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    threadId: "t1",
    runId,
    messages: [{ id: `u-${runId}`, role: "user", content: `Please do ${SECRET}.` }],
    tools: [{ name: "notify", description: "shows a notification", parameters: { type: "object" } }],
    state: { secret: SECRET },
    ...more,
  };
}
