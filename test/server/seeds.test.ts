/**
 * The Rust examples of seeds 000 (shared state) and 002 (Agent trait), translated to TypeScript with
 * the same assertions. Every stream is also checked against our verifier and the official SDK.
 */
import * as t from "io-ts";
import { runAgentInput } from "../../src/protocol/build";
import { stateSpec } from "../../src/protocol/stateSpec";
import { AgentError, createRunContext, run, success, type Agent } from "../../src/server";
import { collect, expectAccepted, types } from "./support";

describe("docs/seeds.md#seed-002: Agent trait", () => {
  test("Greeter: the driver adds RUN_STARTED and RUN_FINISHED around the agent's message", async () => {
    const greeter: Agent = {
      async run(ctx) {
        const message = ctx.assistantMessage();
        message.delta("Hello from TypeScript.");
        message.end();
        return success();
      },
    };

    const events = await collect(run(greeter, runAgentInput("thread-1", "run-1")));

    expect(types(events)).toEqual(["RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END", "RUN_FINISHED"]);
    await expectAccepted(events);
  });

  test("Editor: updateState on a typed state publishes it", async () => {
    const Draft = t.type({ revision: t.number, title: t.string });
    const editor: Agent<t.TypeOf<typeof Draft>> = {
      state: stateSpec(Draft, { revision: 0, title: "" }),
      async run(ctx) {
        ctx.updateState((draft) => {
          draft.revision += 1;
          draft.title = "Q3 plan";
        });
        return success();
      },
    };

    const events = await collect(run(editor, runAgentInput("t", "r")));

    expect(types(events)).toEqual(["RUN_STARTED", "STATE_SNAPSHOT", "RUN_FINISHED"]);
    expect(events[1]).toMatchObject({ snapshot: { revision: 1, title: "Q3 plan" } });
    await expectAccepted(events);
  });

  test("several agents behind one endpoint are just an array of Agent", async () => {
    const fixed = (text: string): Agent => ({
      async run(ctx) {
        ctx.say(text);
        return success();
      },
    });
    const agents: Agent[] = [fixed("a"), fixed("b")];
    expect(agents.length).toBe(2);

    const said = [];
    for (const agent of agents) {
      const events = await collect(run(agent, runAgentInput("t", "r")));
      await expectAccepted(events);
      said.push(events.flatMap((event) => (event.type === "TEXT_MESSAGE_CONTENT" ? [event.delta] : [])));
    }
    expect(said).toEqual([["a"], ["b"]]);
  });

  test("the readers of the context", () => {
    const input = runAgentInput("thread-1", "run-1", {
      messages: [{ id: "msg-1", role: "user", content: "what is the weather in Seoul?" }],
      tools: [
        {
          name: "get_weather",
          description: "Look up the current weather for a city.",
          parameters: { type: "object", properties: { city: { type: "string" } } },
        },
      ],
    });

    // The unit-test harness: a context and its event sink, no driver, so no RUN_STARTED.
    const { ctx, events } = createRunContext(undefined, input);

    expect(ctx.threadId).toBe("thread-1");
    expect(ctx.runId).toBe("run-1");
    expect(ctx.messages.length).toBe(1);
    expect(ctx.lastUserText()).toBe("what is the weather in Seoul?");
    expect(ctx.tool("get_weather")).toBeDefined();
    expect(ctx.tool("send_email")).toBeUndefined();
    expect(ctx.isResume).toBe(false);
    expect(events).toEqual([]);
  });

  test("Researcher: a step guard closes around what is written inside it", async () => {
    const researcher: Agent = {
      async run(ctx) {
        {
          using step = ctx.step("research");
          expect(step.isOpen).toBe(true);
          ctx.say("Looking it up.");
          // STEP_FINISHED leaves here, whether or not the block exited early.
        }
        return success();
      },
    };

    const events = await collect(run(researcher, runAgentInput("t", "r")));

    expect(types(events)).toEqual([
      "RUN_STARTED",
      "STEP_STARTED",
      "TEXT_MESSAGE_START",
      "TEXT_MESSAGE_CONTENT",
      "TEXT_MESSAGE_END",
      "STEP_FINISHED",
      "RUN_FINISHED",
    ]);
    await expectAccepted(events);
  });
});

describe("docs/seeds.md#seed-000: shared state", () => {
  const Doc = t.type({ step: t.number, notes: t.array(t.string) });
  const docSpec = stateSpec(Doc, { step: 0, notes: [] });

  test("updateState, then stateMut + publishState, then publishState with nothing to say", () => {
    const { ctx, events } = createRunContext(docSpec, runAgentInput("t", "r"));

    // Change and send in one call.
    ctx.updateState((doc) => {
      doc.step = 1;
      doc.notes.push("the document the user is editing".repeat(8));
    });

    // Or change now and send when ready.
    ctx.stateMut.step = 2;
    ctx.publishState();

    // Nothing to say: nothing is emitted.
    ctx.publishState();

    expect(types(events)).toEqual(["STATE_SNAPSHOT", "STATE_DELTA"]);
    expect(ctx.state.step).toBe(2);
    expect(events[1]).toMatchObject({ delta: [{ op: "replace", path: "/step", value: 2 }] });
  });

  test("a tool call publishes state while it is open", () => {
    const Board = t.type({ tasks: t.array(t.string) });
    const { ctx, events } = createRunContext(stateSpec(Board, { tasks: [] }), runAgentInput("t", "r"));

    const call = ctx.toolCall("add_task");
    call.argsJson({ title: "ship it" });

    call.stateMut.tasks.push("ship it");
    call.publishState();

    call.resultJson({ ok: true });

    expect(types(events)).toEqual([
      "TOOL_CALL_START",
      "TOOL_CALL_ARGS",
      // the board moves inside the span the call encloses
      "STATE_SNAPSHOT",
      "TOOL_CALL_END",
      "TOOL_CALL_RESULT",
    ]);
    expect(events[2]).toMatchObject({ snapshot: { tasks: ["ship it"] } });
  });

  describe("what comes in", () => {
    const Counter = t.type({ clicks: t.number });
    const counterSpec = stateSpec(Counter, { clicks: 0 });

    test.each([[{}], [null], [undefined]])("%p is no state yet: the default, not a failure", (state) => {
      const { ctx } = createRunContext(counterSpec, runAgentInput("t", "r", { state }));
      expect(ctx.state.clicks).toBe(0);
    });

    test("a state that does not fit is a SERIALIZATION error naming the path", () => {
      let error: unknown;
      try {
        createRunContext(counterSpec, runAgentInput("t", "r", { state: { clicks: "three" } }));
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(AgentError);
      expect((error as AgentError).code).toBe("SERIALIZATION");
      expect((error as AgentError).message).toContain("state.clicks");
    });

    test("through the driver it arrives as RUN_ERROR, and the agent is never called", async () => {
      const called = jest.fn();
      const counter: Agent<t.TypeOf<typeof Counter>> = {
        state: counterSpec,
        async run() {
          called();
          return success();
        },
      };

      const events = await collect(run(counter, runAgentInput("t", "r", { state: { clicks: "three" } })));

      expect(types(events)).toEqual(["RUN_STARTED", "RUN_ERROR"]);
      expect(events[1]).toMatchObject({ code: "SERIALIZATION" });
      expect(events[1].type === "RUN_ERROR" && events[1].message).toContain("state.clicks");
      expect(events[1].type === "RUN_ERROR" && events[1].message).toContain('"three"');
      expect(called).not.toHaveBeenCalled();
      await expectAccepted(events);
    });
  });
});
