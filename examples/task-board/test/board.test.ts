/** What the task-board agent says about a number of tasks: singular for one (issue #25 §7). */
import { clearQuestion, summarize, taskCount } from "../board";
import { lastValueFrom } from "rxjs";
import { Session } from "../../../src/client/Session";
import { inProcessTransport } from "../../../src/server/inProcessTransport";
import { taskBoardAgent } from "../agent";
import { boardSpec, type Board } from "../board";

describe("counting tasks in words", () => {
  it.each([
    [0, "0 tasks"],
    [1, "1 task"],
    [2, "2 tasks"],
    [11, "11 tasks"],
  ])("%i is %s", (n, words) => {
    expect(taskCount(n)).toBe(words);
  });

  it("summarizes a board of one task in the singular", () => {
    expect(summarize({ tasks: [{ id: 1, title: "a", done: true }] })).toBe("The board has 1 task, 1 done.");
    expect(summarize({ tasks: [] })).toBe("The board is empty.");
  });

  it("asks to clear one task in the singular, several in the plural", () => {
    expect(clearQuestion(1)).toBe("Clear the 1 task from the board?");
    expect(clearQuestion(3)).toBe("Clear all 3 tasks from the board?");
  });
});

it("the agent says '1 task' when it asks to clear a board of one, and ends with 'The board has 1 task'", async () => {
  const session = new Session<Board>(inProcessTransport(taskBoardAgent), { threadId: "one-task", state: boardSpec });
  await lastValueFrom(session.send("add buy milk"));
  expect(session.messages.at(-1)).toMatchObject({ role: "assistant", content: "The board has 1 task, 0 done." });
  await lastValueFrom(session.send("clear"));
  expect(session.interrupts.map((interrupt) => interrupt.message)).toEqual(["Clear the 1 task from the board?"]);
});
