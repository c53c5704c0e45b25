/**
 * Our driver behind the official `@ag-ui/client` 1.0.0 `AbstractAgent` (in process, no HTTP): its
 * whole pipeline (chunk transform, verifier, reducer) applies our streams, state and interrupts
 * included, and a resume round trip works end to end.
 */
import { AbstractAgent, type RunAgentInput as CoreRunAgentInput } from "@ag-ui/client";
import * as t from "io-ts";
import type { Observable } from "rxjs";
import { RunAgentInput } from "../../src/protocol/input";
import type { Event } from "../../src/protocol/events";
import { interrupted, run, sequentialIds, stateSpec, success, type Agent } from "../../src/server";

const Board = t.type({ tasks: t.array(t.string) });
type Board = t.TypeOf<typeof Board>;

const Answer = t.type({ title: t.string });

const taskBoard: Agent<Board> = {
  state: stateSpec(Board, { tasks: [] }),
  async run(ctx) {
    const approval = ctx.resumeFor("confirm");
    if (approval === undefined) {
      const title = ctx.lastUserText() ?? "untitled";
      ctx.say(`Add "${title}"?`);
      return interrupted(ctx.interrupt({ id: "confirm", reason: "confirmation", metadata: { title } }));
    }
    const title = Answer.is(approval.payload) ? approval.payload.title : "untitled";
    if (approval.status === "resolved") {
      const call = ctx.toolCall("add_task");
      call.argsJson({ title });
      call.stateMut.tasks.push(title);
      call.publishState();
      call.resultJson({ ok: true });
    }
    ctx.say(approval.status === "resolved" ? "Added." : "Not added.");
    return success({ tasks: ctx.state.tasks.length });
  },
};

/** `Observable<BaseEvent>` of the official client's own rxjs copy. */
type OfficialStream = ReturnType<AbstractAgent["run"]>;

/** The official agent class, running our driver in process. */
class InProcess extends AbstractAgent {
  private readonly ids = sequentialIds("srv");
  override run(input: CoreRunAgentInput): OfficialStream {
    // The official input is structurally ours; decode it to be sure, as createHandler would.
    const decoded = RunAgentInput.decode(input);
    if (decoded._tag === "Left") throw new Error("the official client sent an input we cannot read");
    const events: Observable<Event> = run(taskBoard, decoded.right, { ids: this.ids });
    return events as unknown as OfficialStream; // the official types use their own rxjs copy; at run time they interoperate
  }
}

test("the official client applies our stream: messages, interrupts, resume, state and result", async () => {
  const agent = new InProcess({
    threadId: "thread-1",
    initialMessages: [{ id: "u1", role: "user", content: "ship it" }],
    initialState: { tasks: ["write docs"] },
  });

  await agent.runAgent({ runId: "run-1" });
  expect(agent.pendingInterrupts).toEqual([{ id: "confirm", reason: "confirmation", metadata: { title: "ship it" } }]);
  expect(agent.messages.map((message) => [message.role, message.content])).toEqual([
    ["user", "ship it"],
    ["assistant", 'Add "ship it"?'],
  ]);

  const { result } = await agent.runAgent({
    runId: "run-2",
    resume: [{ interruptId: "confirm", status: "resolved", payload: { title: "ship it" } }],
  });
  expect(result).toEqual({ tasks: 2 });
  expect(agent.pendingInterrupts).toEqual([]);
  expect(agent.state).toEqual({ tasks: ["write docs", "ship it"] });
  const last = agent.messages.slice(-3);
  expect(last.map((message) => message.role)).toEqual(["assistant", "tool", "assistant"]);
  expect(last[0]).toMatchObject({ toolCalls: [{ function: { name: "add_task", arguments: '{"title":"ship it"}' } }] });
  expect(last[2]).toMatchObject({ content: "Added." });
});
