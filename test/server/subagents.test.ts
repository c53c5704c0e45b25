/** Subagent contexts: attribution, concurrency, nesting, finish/fail, suspension and resumption. */
import { EventSchemas } from "@ag-ui/core/schemas";
import { outcome, runAgentInput } from "../../src/protocol/build";
import type { Event } from "../../src/protocol/events";
import { interrupted, run, sequentialIds, success, type Agent } from "../../src/server";
import { collect, expectAccepted, types } from "./support";

const input = runAgentInput("t", "r");
const texts = (events: readonly Event[], subagentRunId: string | undefined) =>
  events.flatMap((event) => (event.type === "TEXT_MESSAGE_CONTENT" && event.subagentRunId === subagentRunId ? [event.delta] : [])).join("");

describe("subagents", () => {
  test("two concurrent subagents streaming interleaved text give a stream both verifiers and the official schemas accept", async () => {
    const words = (s: string) => s.split(" ").map((word, i) => (i === 0 ? word : ` ${word}`));
    const agent: Agent = {
      async run(ctx) {
        const stream = async (name: string, text: string) => {
          const sub = ctx.subagent(name, { description: `the ${name}` });
          const message = sub.assistantMessage();
          for (const word of words(text)) {
            message.delta(word);
            await Promise.resolve(); // let the other subagent write in between
          }
          message.end();
          sub.finish({ words: words(text).length });
        };
        await Promise.all([stream("writer", "a first draft of the plan"), stream("critic", "the draft is far too long")]);
        ctx.say("Both done.");
        return success();
      },
    };

    const events = await collect(run(agent, input, { ids: sequentialIds() }));

    // they really interleave: the critic's first delta arrives before the writer's last
    const contents = events.filter((event) => event.type === "TEXT_MESSAGE_CONTENT" && event.subagentRunId !== undefined);
    expect(contents.map((event) => event.type === "TEXT_MESSAGE_CONTENT" && event.subagentRunId).slice(0, 4)).toEqual(["id-1", "id-3", "id-1", "id-3"]);
    expect(texts(events, "id-1")).toBe("a first draft of the plan");
    expect(texts(events, "id-3")).toBe("the draft is far too long");
    expect(texts(events, undefined)).toBe("Both done.");
    // every event between a subagent's START and FINISHED that is attributable carries its id
    for (const event of events) {
      if (event.type.startsWith("TEXT_MESSAGE") && "messageId" in event && (event.messageId === "id-2" || event.messageId === "id-4")) {
        expect(event).toHaveProperty("subagentRunId", event.messageId === "id-2" ? "id-1" : "id-3");
      }
    }
    for (const event of events) expect(EventSchemas.safeParse(event).success).toBe(true);
    await expectAccepted(events);
  });

  test("nested subagents record their parent, and finish closes what they left open, innermost first", async () => {
    const agent: Agent = {
      async run(ctx) {
        const lead = ctx.subagent("lead", { parentToolCallId: "tc-0", parentMessageId: "m-0" });
        const helper = lead.subagent("helper");
        helper.step("search");
        helper.assistantMessage();
        lead.finish("summary");
        return success();
      },
    };
    const events = await collect(run(agent, input, { ids: sequentialIds() }));
    expect(events.slice(1, -1)).toEqual([
      { type: "SUBAGENT_STARTED", subagentRunId: "id-1", name: "lead", parentToolCallId: "tc-0", parentMessageId: "m-0" },
      { type: "SUBAGENT_STARTED", subagentRunId: "id-2", name: "helper", parentSubagentRunId: "id-1" },
      { type: "STEP_STARTED", stepName: "search", subagentRunId: "id-2" },
      { type: "TEXT_MESSAGE_START", messageId: "id-3", role: "assistant", subagentRunId: "id-2" },
      { type: "TEXT_MESSAGE_END", messageId: "id-3", subagentRunId: "id-2" },
      { type: "STEP_FINISHED", stepName: "search", subagentRunId: "id-2" },
      { type: "SUBAGENT_FINISHED", subagentRunId: "id-2" },
      { type: "SUBAGENT_FINISHED", subagentRunId: "id-1", result: "summary" },
    ]);
    await expectAccepted(events);
  });

  test("fail sends SUBAGENT_ERROR and the run goes on", async () => {
    const agent: Agent = {
      async run(ctx) {
        ctx.subagent("flaky").fail("the index is down", "UPSTREAM");
        ctx.say("Carrying on without it.");
        return success();
      },
    };
    const events = await collect(run(agent, input, { ids: sequentialIds() }));
    expect(events[2]).toEqual({ type: "SUBAGENT_ERROR", subagentRunId: "id-1", message: "the index is down", code: "UPSTREAM" });
    expect(types(events).at(-1)).toBe("RUN_FINISHED");
    await expectAccepted(events);
  });

  test("a suspended subagent: interrupts carry its id, finish says suspended, and the next run resumes it under the same id", async () => {
    const agent: Agent = {
      async run(ctx) {
        const answer = ctx.resumeFor("approve");
        if (answer === undefined) {
          const sub = ctx.subagent("payments");
          const call = sub.toolCall("transfer", { id: "tc-1" });
          call.argsJson({ amount: 100 });
          call.end();
          const pending = sub.interrupt({ id: "approve", reason: "tool_call", toolCallId: "tc-1" });
          sub.finish(undefined, outcome.suspended([pending.id]));
          return interrupted(pending);
        }
        const sub = ctx.subagent("payments", { id: "id-1" }); // the old id: a continuation (docs/rules.md#I12)
        sub.toolResult("tc-1", answer.status === "resolved" ? "transferred" : "cancelled");
        sub.finish();
        return success();
      },
    };

    const first = await collect(run(agent, input, { ids: sequentialIds() }));
    expect(first.slice(-2)).toEqual([
      { type: "SUBAGENT_FINISHED", subagentRunId: "id-1", outcome: { type: "suspended", interruptIds: ["approve"] } },
      {
        type: "RUN_FINISHED",
        threadId: "t",
        runId: "r",
        outcome: { type: "interrupt", interrupts: [{ id: "approve", reason: "tool_call", toolCallId: "tc-1", subagentRunId: "id-1" }] },
      },
    ]);
    await expectAccepted(first);

    const second = await collect(
      run(agent, runAgentInput("t", "r2", { resume: [{ interruptId: "approve", status: "resolved" }] }), { ids: sequentialIds("x") }),
    );
    expect(second.slice(1, -1)).toEqual([
      { type: "SUBAGENT_STARTED", subagentRunId: "id-1", name: "payments" },
      { type: "TOOL_CALL_RESULT", messageId: "x-1", toolCallId: "tc-1", content: "transferred", role: "tool", subagentRunId: "id-1" },
      { type: "SUBAGENT_FINISHED", subagentRunId: "id-1" },
    ]);
    await expectAccepted(second);
  });

  test("a subagent left open when the run is interrupted on its behalf closes as suspended", async () => {
    const agent: Agent = {
      async run(ctx) {
        const sub = ctx.subagent("asker");
        return interrupted(sub.interrupt({ id: "q1", reason: "input_required", message: "Which city?" }));
      },
    };
    const events = await collect(run(agent, input, { ids: sequentialIds() }));
    expect(events[2]).toEqual({ type: "SUBAGENT_FINISHED", subagentRunId: "id-1", outcome: { type: "suspended", interruptIds: ["q1"] } });
    await expectAccepted(events);
  });

  test("finishing a subagent twice throws a ProtocolError and sends nothing", async () => {
    let caught: unknown;
    const agent: Agent = {
      async run(ctx) {
        const sub = ctx.subagent("once");
        sub.finish();
        try {
          sub.fail("again");
        } catch (error) {
          caught = error;
        }
        return success();
      },
    };
    const events = await collect(run(agent, input));
    expect(caught).toMatchObject({ name: "ProtocolError", rule: "R33" });
    expect(types(events)).toEqual(["RUN_STARTED", "SUBAGENT_STARTED", "SUBAGENT_FINISHED", "RUN_FINISHED"]);
  });

  test("state published from a subagent carries its id as provenance", async () => {
    const agent: Agent = {
      async run(ctx) {
        const sub = ctx.subagent("counter");
        sub.setState({ count: 1 });
        sub.finish();
        return success();
      },
    };
    const events = await collect(run(agent, input, { ids: sequentialIds() }));
    expect(events[2]).toEqual({ type: "STATE_SNAPSHOT", snapshot: { count: 1 }, subagentRunId: "id-1" });
    await expectAccepted(events);
  });
});
