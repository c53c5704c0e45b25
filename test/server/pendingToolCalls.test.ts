/**
 * The driver's `pendingToolCallIds` (docs/wire.md#4.10): client tool calls an agent leaves unanswered end
 * the run with them on the success outcome; an agent's own list (what `agui-rx/ai` sends) wins and
 * agrees with what the driver would have found.
 */
import { jsonSchema, tool } from "ai";
import { aiAgent } from "../../src/ai";
import { ev, runAgentInput } from "../../src/protocol/build";
import type { Event } from "../../src/protocol/events";
import type { Tool } from "../../src/protocol/input";
import { interrupted, run, sequentialIds, type Agent, type RunContext, type RunOutcome } from "../../src/server";
import { UnansweredToolCalls } from "../../src/server/UnansweredToolCalls";
import { finish, scriptedModel, streamedCall, text } from "../ai/support";
import { collect, expectAccepted } from "./support";

const GET_TIME: Tool = { name: "get_time", description: "The user's local time", parameters: { type: "object", properties: {} } };
const CONFIRM: Tool = { name: "confirm_delete", description: "Asks the user", parameters: { type: "object", properties: { id: { type: "string" } } } };
const input = runAgentInput("t", "r", { tools: [GET_TIME, CONFIRM], messages: [{ id: "u1", role: "user", content: "what is due today?" }] });

const agentOf = (body: (ctx: RunContext) => RunOutcome | void): Agent => ({ run: async (ctx) => body(ctx) });

async function outcomeOf(agent: Agent, runInput = input): Promise<unknown> {
  const events = await collect(run(agent, runInput, { ids: sequentialIds("id") }));
  await expectAccepted(events);
  const last = events.at(-1);
  if (last?.type !== "RUN_FINISHED") throw new Error(`expected RUN_FINISHED last, but got ${JSON.stringify(last)}`);
  return last.outcome;
}

describe("the driver sets pendingToolCallIds", () => {
  test("for the client tool calls left without a result, in the order they started", async () => {
    const agent = agentOf((ctx) => {
      ctx.toolCall("confirm_delete", { id: "c-2" }).argsJson({ id: "task-1" });
      const time = ctx.toolCall("get_time", { id: "c-1" });
      time.end();
    });
    expect(await outcomeOf(agent)).toEqual({ type: "success", pendingToolCallIds: ["c-2", "c-1"] });
  });

  test("not for calls the run answered, nor for tools the client did not offer", async () => {
    const agent = agentOf((ctx) => {
      ctx.toolCall("get_time", { id: "answered" }).resultJson({ time: "12:00" });
      ctx.toolCall("search", { id: "server-side" }).end(); // not a client tool: the agent's own business
      ctx.toolCall("get_time", { id: "left" }).end();
    });
    expect(await outcomeOf(agent)).toEqual({ type: "success", pendingToolCallIds: ["left"] });
  });

  test("a result sent before its call starts (docs/rules.md#R21) answers it", async () => {
    const agent = agentOf((ctx) => {
      ctx.toolResult("early", "done");
      ctx.toolCall("get_time", { id: "early" }).end();
    });
    expect(await outcomeOf(agent)).toEqual({ type: "success" });
  });

  test("a subagent's client tool calls count too", async () => {
    const agent = agentOf((ctx) => {
      const helper = ctx.subagent("helper", { id: "sub-1" });
      helper.toolCall("get_time", { id: "from-sub" }).end();
      helper.finish();
    });
    expect(await outcomeOf(agent)).toEqual({ type: "success", pendingToolCallIds: ["from-sub"] });
  });

  test("nothing when every client call is answered or none was made", async () => {
    expect(await outcomeOf(agentOf((ctx) => void ctx.say("Nothing is due today.")))).toEqual({ type: "success" });
  });

  test("an interrupt outcome never carries it", async () => {
    const agent = agentOf((ctx) => {
      ctx.toolCall("confirm_delete", { id: "c" }).end();
      return interrupted(ctx.interrupt({ id: "i-1", reason: "confirmation" }));
    });
    expect(await outcomeOf(agent)).toEqual({ type: "interrupt", interrupts: [{ id: "i-1", reason: "confirmation" }] });
  });

  test("an agent's own list wins, an empty one included, and is never added to", async () => {
    const own = agentOf((ctx) => {
      ctx.toolCall("get_time", { id: "a" }).end();
      ctx.toolCall("get_time", { id: "b" }).end();
      return { type: "success", pendingToolCallIds: ["b"] };
    });
    expect(await outcomeOf(own)).toEqual({ type: "success", pendingToolCallIds: ["b"] });
    const none = agentOf((ctx) => {
      ctx.toolCall("get_time", { id: "a" }).end();
      return { type: "success", pendingToolCallIds: [] };
    });
    expect(await outcomeOf(none)).toEqual({ type: "success", pendingToolCallIds: [] });
  });

  test("each subscription counts its own run's calls", async () => {
    let n = 0;
    const agent = agentOf((ctx) => void ctx.toolCall("get_time", { id: `call-${++n}` }).end());
    const events$ = run(agent, input);
    const first = await collect(events$);
    const second = await collect(events$);
    expect([first.at(-1), second.at(-1)].map((event) => (event?.type === "RUN_FINISHED" ? event.outcome : undefined))).toEqual([
      { type: "success", pendingToolCallIds: ["call-1"] },
      { type: "success", pendingToolCallIds: ["call-2"] },
    ]);
  });
});

describe("agui-rx/ai and the driver agree", () => {
  test("a model step with a server tool and two client tool calls: the agent's list is the driver's, once", async () => {
    const model = scriptedModel(
      [...streamedCall("srv-1", "search", '{"q":"due"}'), finish("tool-calls")],
      [
        ...text("txt-0", "Let me check."),
        ...streamedCall("cli-1", "get_time", "{}"),
        ...streamedCall("cli-2", "confirm_delete", '{"id":"task-1"}'),
        finish("tool-calls"),
      ],
    );
    const search = tool({
      description: "Searches",
      inputSchema: jsonSchema<{ q: string }>({ type: "object", properties: { q: { type: "string" } } }),
      execute: async () => ["task-1"],
    });
    const events = await collect(run(aiAgent({ model, tools: { search } }), input, { ids: sequentialIds("id") }));
    await expectAccepted(events);
    const driver = new UnansweredToolCalls(input.tools);
    for (const event of events) driver.observe(event);
    const finished = events.at(-1);
    expect(finished?.type === "RUN_FINISHED" ? finished.outcome : undefined).toEqual({ type: "success", pendingToolCallIds: ["cli-1", "cli-2"] });
    expect(driver.ids()).toEqual(["cli-1", "cli-2"]);
  });
});

describe("UnansweredToolCalls", () => {
  test("reads only tool call starts and results of offered tools", () => {
    const calls = new UnansweredToolCalls([GET_TIME]);
    const events: Event[] = [
      ev.toolCallStart("a", "get_time"),
      ev.toolCallStart("b", "other"),
      ev.toolCallStart("c", "get_time"),
      ev.toolCallResult("m1", "a", "12:00"),
      ev.textMessageStart("a"),
    ];
    for (const event of events) calls.observe(event);
    expect(calls.ids()).toEqual(["c"]);
  });
});
