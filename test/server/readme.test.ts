/** The two snippets of docs/server.md (and the README), run as they are written there. */
import * as t from "io-ts";
import { runAgentInput } from "../../src/protocol/build";
import { run, stateSpec, success, type Agent } from "../../src/server";
import { collect, expectAccepted, types } from "./support";

test("Greeter", async () => {
  const greeter: Agent = {
    async run(ctx) {
      ctx.say(`Hello, ${ctx.lastUserText() ?? "stranger"}!`);
      return success();
    },
  };

  const events = await collect(run(greeter, runAgentInput("thread-1", "run-1")));
  expect(types(events)).toEqual(["RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END", "RUN_FINISHED"]);
  expect(events[2]).toMatchObject({ delta: "Hello, stranger!" });
  await expectAccepted(events);
});

test("a stateful agent", async () => {
  const Board = t.type({ tasks: t.array(t.string) });
  type Board = t.TypeOf<typeof Board>;

  const taskBoard: Agent<Board> = {
    state: stateSpec(Board, { tasks: [] }),
    async run(ctx) {
      const title = ctx.lastUserText() ?? "untitled";
      const call = ctx.toolCall("add_task");
      call.argsJson({ title });
      call.stateMut.tasks.push(title);
      call.publishState(); // STATE_SNAPSHOT first in a run, STATE_DELTA when smaller after that
      call.resultJson({ ok: true }); // TOOL_CALL_END, TOOL_CALL_RESULT
      ctx.say(`Added "${title}"; ${ctx.state.tasks.length} tasks on the board.`);
      return success();
    },
  };

  const input = runAgentInput("thread-1", "run-2", {
    messages: [{ id: "u1", role: "user", content: "ship it" }],
    state: { tasks: ["write docs"] },
  });
  const events = await collect(run(taskBoard, input));
  expect(types(events)).toEqual([
    "RUN_STARTED",
    "TOOL_CALL_START",
    "TOOL_CALL_ARGS",
    "STATE_SNAPSHOT",
    "TOOL_CALL_END",
    "TOOL_CALL_RESULT",
    "TEXT_MESSAGE_START",
    "TEXT_MESSAGE_CONTENT",
    "TEXT_MESSAGE_END",
    "RUN_FINISHED",
  ]);
  expect(events[3]).toMatchObject({ snapshot: { tasks: ["write docs", "ship it"] } });
  expect(events[7]).toMatchObject({ delta: 'Added "ship it"; 2 tasks on the board.' });
  await expectAccepted(events);
});
