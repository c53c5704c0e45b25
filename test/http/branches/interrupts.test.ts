/**
 * A branch with pending interrupts (docs/threads.md#edit-and-regenerate, docs/threads.md#the-tree): the
 * official client refuses to send before they are answered, so its edit further up cancels them;
 * the edit starts a branch that has none (the agent is not handed the cancel), and switching back
 * shows them again, in the snapshot and in the connect prelude, for any client that joins.
 */
import { HttpAgent, type Message as OfficialMessage } from "@ag-ui/client";
import { forkForwardedProps } from "../../../src/protocol/branchMeta";
import { runAgentInput } from "../../../src/protocol/build";
import type { Event } from "../../../src/protocol/events";
import { closeAll, framesOf, postJson, serveStored } from "../durable/support";
import { echoAgent, JoiningAgent, snapshotOf, type Seen } from "./support";

afterEach(closeAll);

const userText = (id: string, content: string): OfficialMessage => ({ id, role: "user", content });

/** The prelude's last event: how a joining client learns what the thread waits on. */
async function preludeEnd(url: string): Promise<Event | undefined> {
  const frames = await framesOf((await postJson(`${url}/connect`, { threadId: "t" })).text);
  return frames[frames.length - 1]?.event;
}

async function interruptedThread() {
  const seen: Seen = { inputs: [] };
  const served = await serveStored(echoAgent(seen));
  const official = new HttpAgent({ url: served.url, threadId: "t" });
  official.addMessage(userText("u1", "hello"));
  await official.runAgent({ runId: "r1" });
  official.addMessage(userText("u2", "confirm"));
  await official.runAgent({ runId: "r2" });
  expect(official.pendingInterrupts.map((interrupt) => interrupt.id)).toEqual(["i-r2"]);
  return { ...served, seen, official };
}

test("the official client's edit further up must cancel the interrupts first; the edit's branch has none, and switching back shows them again", async () => {
  const { url, store, seen, official } = await interruptedThread();
  const waiting = await snapshotOf(store, "t");
  expect(waiting.interrupts.map((interrupt) => interrupt.id)).toEqual(["i-r2"]);

  // without a resume the official client sends nothing
  official.setMessages([userText("u1", "hello, edited")]);
  await expect(official.runAgent({ runId: "e0" })).rejects.toThrow(/pending interrupt.*i-r2/);
  expect((await snapshotOf(store, "t")).cursor).toBe(waiting.cursor);

  // with the cancel it posts; the in-place edit of u1 forks at the thread's start
  await official.runAgent({ runId: "e1", resume: [{ interruptId: "i-r2", status: "cancelled" }] });
  const edited = await snapshotOf(store, "t");
  expect(edited.messages.map((message) => message.id)).toEqual(["u1", "a-e1"]);
  expect(edited.interrupts).toEqual([]);
  expect(edited.branches?.groups).toEqual([{ after: null, selected: 1, siblingIds: ["u1", "u1"] }]);
  expect(seen.inputs[2].resume).toBeUndefined();
  expect(seen.inputs[2].messages).toEqual([{ id: "u1", role: "user", content: "hello, edited" }]);
  expect(official.pendingInterrupts).toEqual([]);
  expect(await preludeEnd(url)).toMatchObject({ type: "RUN_FINISHED", outcome: { type: "success" } });

  // the old branch comes back with its interrupt, for a client that joins
  expect(await store.selectBranch("t", "u1", 0)).toBe("switched");
  const back = await snapshotOf(store, "t");
  expect(back.messages).toEqual(waiting.messages);
  expect(back.interrupts).toEqual(waiting.interrupts);
  expect(await preludeEnd(url)).toMatchObject({ type: "RUN_FINISHED", outcome: { type: "interrupt", interrupts: waiting.interrupts } });
  const joining = new JoiningAgent({ url, threadId: "t" });
  await joining.connectAgent();
  expect(joining.pendingInterrupts).toEqual(waiting.interrupts);
  expect(joining.messages).toEqual(waiting.messages);
  // and a resume there answers it on that branch, as before the edit
  await joining.runAgent({ runId: "r3", resume: [{ interruptId: "i-r2", status: "resolved" }] });
  expect(seen.inputs[3].resume).toEqual([{ interruptId: "i-r2", status: "resolved" }]);
  expect((await snapshotOf(store, "t")).interrupts).toEqual([]);
});

test("the server does not ask for a resume on an edit further up (a client that names the fork): the new branch has no interrupts", async () => {
  const { url, store, seen } = await interruptedThread();
  const { response } = await postJson(
    url,
    runAgentInput("t", "e1", { messages: [{ id: "u1e", role: "user", content: "hello, edited" }], forwardedProps: forkForwardedProps(null) }),
  );
  expect(response.status).toBe(200);
  const edited = await snapshotOf(store, "t");
  expect(edited.messages.map((message) => message.id)).toEqual(["u1e", "a-e1"]);
  expect(edited.interrupts).toEqual([]);
  expect(seen.inputs[2].messages.map((message) => message.id)).toEqual(["u1e"]);
  expect(await store.selectBranch("t", "u1e", 0)).toBe("switched");
  expect((await snapshotOf(store, "t")).interrupts.map((interrupt) => interrupt.id)).toEqual(["i-r2"]);
});
