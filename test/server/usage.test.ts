/** Token usage on the terminal event (`ctx.reportUsage`), pending client tool calls on the success outcome, and `ctx.newId()`. */
import { runAgentInput } from "../../src/protocol/build";
import { AgentError, createRunContext, interrupted, interrupt, run, sequentialIds, type Agent } from "../../src/server";
import { collect, expectAccepted } from "./support";

const input = runAgentInput("t", "r");

describe("ctx.reportUsage", () => {
  test("RUN_FINISHED carries one entry per (provider, model), counts summed, unreported counts left out", async () => {
    const agent: Agent = {
      async run(ctx) {
        ctx.reportUsage({ provider: "openai", model: "gpt-4o", inputTokens: 10, outputTokens: 2 });
        ctx.reportUsage({ provider: "anthropic", model: "claude", inputTokens: 1 });
        ctx.reportUsage({ provider: "openai", model: "gpt-4o", inputTokens: 5, outputTokens: 3, reasoningTokens: 1 });
      },
    };
    const events = await collect(run(agent, input));
    expect(events.at(-1)).toEqual({
      type: "RUN_FINISHED",
      threadId: "t",
      runId: "r",
      outcome: { type: "success" },
      usage: [
        { provider: "openai", model: "gpt-4o", inputTokens: 15, outputTokens: 5, reasoningTokens: 1 },
        { provider: "anthropic", model: "claude", inputTokens: 1 },
      ],
    });
    await expectAccepted(events);
  });

  test("RUN_ERROR carries the usage reported before the failure", async () => {
    const agent: Agent = {
      async run(ctx) {
        ctx.reportUsage({ model: "m", totalTokens: 7 });
        throw new AgentError("the second call failed", "MODEL_ERROR");
      },
    };
    const events = await collect(run(agent, input));
    expect(events.at(-1)).toEqual({ type: "RUN_ERROR", message: "the second call failed", code: "MODEL_ERROR", usage: [{ model: "m", totalTokens: 7 }] });
    await expectAccepted(events);
  });

  test("an interrupted run carries it too; without any report there is no usage member", async () => {
    const paused: Agent = {
      async run(ctx) {
        ctx.reportUsage({ provider: "p", outputTokens: 1 });
        return interrupted(interrupt({ id: "i1", reason: "confirmation" }));
      },
    };
    const [, finished] = await collect(run(paused, input));
    expect(finished).toMatchObject({ type: "RUN_FINISHED", outcome: { type: "interrupt" }, usage: [{ provider: "p", outputTokens: 1 }] });
    const [, plain] = await collect(run({ run: async () => undefined }, input));
    expect(plain).not.toHaveProperty("usage");
  });

  test("a count that is not a non-negative integer throws a TypeError naming it, and nothing is recorded", () => {
    const { ctx } = createRunContext(undefined, input);
    expect(() => ctx.reportUsage({ model: "m", inputTokens: -1 })).toThrow(
      new TypeError('invalid token usage at "/inputTokens": expected a non-negative integer, but got -1'),
    );
    expect(() => ctx.reportUsage({ model: "m", outputTokens: 1.5 })).toThrow(/"\/outputTokens".*1\.5/);
    expect(ctx.usage).toEqual([]);
  });

  test("ctx.usage is a copy: editing it changes nothing the run will send", () => {
    const { ctx } = createRunContext(undefined, input);
    ctx.reportUsage({ model: "m", inputTokens: 1 });
    const seen = ctx.usage;
    (seen[0] as { inputTokens?: number }).inputTokens = 999;
    ctx.reportUsage({ model: "m", inputTokens: 2 });
    expect(ctx.usage).toEqual([{ model: "m", inputTokens: 3 }]);
  });
});

describe("pending client tool calls", () => {
  test("a success outcome's pendingToolCallIds reach RUN_FINISHED.outcome", async () => {
    const agent: Agent = {
      async run(ctx) {
        const call = ctx.toolCall("pick_color", { id: "call-1" });
        call.argsJson({});
        call.end();
        return { type: "success", pendingToolCallIds: ["call-1"] };
      },
    };
    const events = await collect(run(agent, input));
    expect(events.at(-1)).toEqual({ type: "RUN_FINISHED", threadId: "t", runId: "r", outcome: { type: "success", pendingToolCallIds: ["call-1"] } });
    await expectAccepted(events);
  });
});

test("ctx.newId() draws from the run's id source", async () => {
  const seen: string[] = [];
  const agent: Agent = {
    async run(ctx) {
      seen.push(ctx.newId());
      ctx.say("hi");
      seen.push(ctx.newId());
    },
  };
  const events = await collect(run(agent, input, { ids: sequentialIds("x") }));
  expect(seen).toEqual(["x-1", "x-3"]);
  expect(events[1]).toMatchObject({ type: "TEXT_MESSAGE_START", messageId: "x-2" });
});
