/** A session executes each tool call once (RunningToolCalls): the same call met again gets the same answer; a stopped one may run again. */
import * as t from "io-ts";
import { clientTool, type ToolCallContext } from "../../../src/client/tools/clientTool";
import { RunningToolCalls } from "../../../src/client/tools/RunningToolCalls";

/** A tool that counts its executions and answers when the test says. */
function countingTool() {
  const calls: { readonly id: string; readonly answer: (value: string) => void }[] = [];
  const tool = clientTool({
    name: "ask",
    description: "asks the user",
    parameters: t.type({ q: t.string }),
    execute: (_args, { toolCallId }) => new Promise<string>((resolve) => calls.push({ id: toolCallId, answer: resolve })),
  });
  return { tool, calls };
}

function context(toolCallId: string, signal = new AbortController().signal): ToolCallContext {
  return { toolCallId, signal, session: { messages: [], state: undefined } } as unknown as ToolCallContext;
}

test("the same call executed twice runs once; both get its answer, the second also when it comes after the first settled", async () => {
  const { tool, calls } = countingTool();
  const tracked = new RunningToolCalls(() => undefined).track(tool);
  const first = tracked.execute({ q: "go?" }, context("c1"));
  const second = tracked.execute({ q: "go?" }, context("c1"));
  expect(calls.map((call) => call.id)).toEqual(["c1"]);
  calls[0].answer("yes");
  await expect(first).resolves.toBe("yes");
  await expect(second).resolves.toBe("yes");
  await expect(tracked.execute({ q: "go?" }, context("c1"))).resolves.toBe("yes");
  expect(calls).toHaveLength(1);
  // another call id is another call
  void tracked.execute({ q: "and this?" }, context("c2"));
  expect(calls.map((call) => call.id)).toEqual(["c1", "c2"]);
});

test("a call stopped before it settled is forgotten: met again, it runs again", async () => {
  const { tool, calls } = countingTool();
  const tracked = new RunningToolCalls(() => undefined).track(tool);
  const stop = new AbortController();
  const stopped = tracked.execute({ q: "go?" }, context("c1", stop.signal));
  stop.abort(new Error("the exchange was stopped"));
  await expect(stopped).rejects.toThrow("the exchange was stopped");
  const again = tracked.execute({ q: "go?" }, context("c1"));
  expect(calls.map((call) => call.id)).toEqual(["c1", "c1"]);
  calls[1].answer("yes");
  await expect(again).resolves.toBe("yes");
});

test("a second exchange waiting on the same running call stops waiting when its own signal aborts; the first still gets the answer", async () => {
  const { tool, calls } = countingTool();
  const tracked = new RunningToolCalls(() => undefined).track(tool);
  const first = tracked.execute({ q: "go?" }, context("c1"));
  const stop = new AbortController();
  const second = tracked.execute({ q: "go?" }, context("c1", stop.signal));
  stop.abort(new Error("the second exchange was stopped"));
  await expect(second).rejects.toThrow("the second exchange was stopped");
  calls[0].answer("yes");
  await expect(first).resolves.toBe("yes");
  expect(calls).toHaveLength(1);
});
