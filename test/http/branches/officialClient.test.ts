/**
 * Edit and regenerate with the official `@ag-ui/client` HttpAgent over loopback HTTP
 * (docs/threads.md#edit-and-regenerate): it posts the whole path, so the store infers the fork
 * from the post's shape. An in-place edit followed by more turns makes one fork, not one per
 * turn; dropping an answer and running again makes a sibling answer from the state before it.
 */
import { HttpAgent, type Message as OfficialMessage } from "@ag-ui/client";
import { closeAll, serveStored } from "../durable/support";
import { echoAgent, snapshotOf, type Seen } from "./support";

afterEach(closeAll);

const userText = (id: string, content: string): OfficialMessage => ({ id, role: "user", content });

test("five official-client turns after an in-place edit make one fork; every run's agent saw the selected path", async () => {
  const seen: Seen = { inputs: [] };
  const { url, store } = await serveStored(echoAgent(seen));
  const official = new HttpAgent({ url, threadId: "t" });
  for (const n of [1, 2, 3]) {
    official.addMessage(userText(`u${n}`, `question ${n}`));
    await official.runAgent({ runId: `r${n}` });
  }
  const before = await snapshotOf(store, "t");
  expect(before.messages.map((message) => message.id)).toEqual(["u1", "a-r1", "u2", "a-r2", "u3", "a-r3"]);

  // the edit as the official client makes it: the same id, new text, what followed dropped
  const at = official.messages.findIndex((message) => message.id === "u2");
  official.setMessages([...official.messages.slice(0, at), userText("u2", "question 2, edited")]);
  await official.runAgent({ runId: "e1" });
  for (const n of [4, 5, 6, 7, 8]) {
    official.addMessage(userText(`u${n}`, `question ${n}`));
    await official.runAgent({ runId: `r${n}` });
  }

  const after = await snapshotOf(store, "t");
  expect(after.branches?.groups).toEqual([{ after: "a-r1", selected: 1, siblingIds: ["u2", "u2"] }]);
  expect(after.messages.map((message) => message.id)).toEqual(["u1", "a-r1", "u2", "a-e1", ...[4, 5, 6, 7, 8].flatMap((n) => [`u${n}`, `a-r${n}`])]);
  expect(after.messages[2]).toMatchObject({ content: "question 2, edited" });
  expect(official.messages).toEqual(after.messages);
  // each run after the edit was given the selected path up to its question: the path as stored, less the run's own answer
  const runs = seen.inputs.slice(3);
  expect(runs).toHaveLength(6);
  for (const input of runs) {
    const upTo = after.messages.findIndex((message) => message.id === `a-${input.runId}`);
    expect(input.messages).toEqual(after.messages.slice(0, upTo));
  }
  // and the state each started from is its own branch's: r1's, then the runs after the edit in order
  expect(runs.map((input) => input.state)).toEqual([
    { runs: ["r1"] },
    { runs: ["r1", "e1"] },
    { runs: ["r1", "e1", "r4"] },
    { runs: ["r1", "e1", "r4", "r5"] },
    { runs: ["r1", "e1", "r4", "r5", "r6"] },
    { runs: ["r1", "e1", "r4", "r5", "r6", "r7"] },
  ]);
  // the old branch is kept whole: switching back shows it and its state
  expect(await store.selectBranch("t", "u2", 0)).toBe("switched");
  const old = await snapshotOf(store, "t");
  expect(old.messages).toEqual(before.messages);
  expect(old.state).toEqual(before.state);
});

test("an official-client regenerate (drop the answer, run again) makes a sibling answer from the path and state before that question", async () => {
  const seen: Seen = { inputs: [] };
  const { url, store } = await serveStored(echoAgent(seen));
  const official = new HttpAgent({ url, threadId: "t" });
  for (const n of [1, 2]) {
    official.addMessage(userText(`u${n}`, `question ${n}`));
    await official.runAgent({ runId: `r${n}` });
  }
  expect(official.state).toEqual({ runs: ["r1", "r2"] });

  official.setMessages(official.messages.slice(0, -1));
  await official.runAgent({ runId: "g1" });

  const [, , regenerate] = seen.inputs;
  expect(regenerate.messages.map((message) => message.id)).toEqual(["u1", "a-r1", "u2"]);
  expect(regenerate.state).toEqual({ runs: ["r1"] }); // the official client posted its own { runs: [r1, r2] }: a copy, not an edit
  const after = await snapshotOf(store, "t");
  expect(after.messages.map((message) => message.id)).toEqual(["u1", "a-r1", "u2", "a-g1"]);
  expect(after.branches?.groups).toEqual([{ after: "u2", selected: 1, siblingIds: ["a-r2", "a-g1"] }]);
  expect(after.state).toEqual({ runs: ["r1", "g1"] });
  // the official client followed: the same path and state, without knowing of branches
  expect(official.messages).toEqual(after.messages);
  expect(official.state).toEqual(after.state);

  // its next turn continues the new sibling
  official.addMessage(userText("u3", "question 3"));
  await official.runAgent({ runId: "r3" });
  expect(seen.inputs[3].messages.map((message) => message.id)).toEqual(["u1", "a-r1", "u2", "a-g1", "u3"]);
  expect((await snapshotOf(store, "t")).branches?.groups).toEqual([{ after: "u2", selected: 1, siblingIds: ["a-r2", "a-g1"] }]);
});
