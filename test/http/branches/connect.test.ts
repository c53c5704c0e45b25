/**
 * A thread with forks over `POST {url}/connect` (docs/threads.md#branches-on-the-wire): the wire stays a
 * plain linear thread that `@ag-ui/core`'s schemas, our strict verifier and the official
 * `verifyEvents` accept, the connect prelude and a forking run's own stream (its fork marker
 * included), and an official client that joins a forking run live follows it to its end without
 * an error.
 */
import { HttpAgent, type Message as OfficialMessage } from "@ag-ui/client";
import { forkForwardedProps, forkMarkerOf } from "../../../src/protocol/branchMeta";
import { runAgentInput } from "../../../src/protocol/build";
import { expectAccepted } from "../../server/support";
import { closeAll, framesOf, gate, postJson, serveStored } from "../durable/support";
import { echoAgent, JoiningAgent, snapshotOf, type Seen } from "./support";

afterEach(closeAll);

const userText = (id: string, content: string): OfficialMessage => ({ id, role: "user", content });

/** Two turns, a regenerate of the second answer, an edit of the second question: two groups on the path's history. */
async function forkedThread(url: string): Promise<void> {
  const official = new HttpAgent({ url, threadId: "t" });
  official.addMessage(userText("u1", "question 1"));
  await official.runAgent({ runId: "r1" });
  official.addMessage(userText("u2", "question 2"));
  await official.runAgent({ runId: "r2" });
  official.setMessages(official.messages.slice(0, -1));
  await official.runAgent({ runId: "g1" });
  official.setMessages([...official.messages.slice(0, 2), userText("u2e", "question 2, edited")]);
  await official.runAgent({ runId: "e1" });
}

test("the prelude of a thread with forks passes the schemas and both verifiers, and shows the selected path", async () => {
  const seen: Seen = { inputs: [] };
  const { url, store } = await serveStored(echoAgent(seen));
  await forkedThread(url);
  const stored = await snapshotOf(store, "t");
  expect(stored.branches?.groups).toEqual([{ after: "a-r1", selected: 1, siblingIds: ["u2", "u2e"] }]);
  const { response, text } = await postJson(`${url}/connect`, { threadId: "t" });
  expect(response.status).toBe(200);
  const events = (await framesOf(text)).map((frame) => frame.event);
  await expectAccepted(events);
  const snapshot = events.find((event) => event.type === "MESSAGES_SNAPSHOT");
  if (snapshot?.type !== "MESSAGES_SNAPSHOT") throw new Error("expected a MESSAGES_SNAPSHOT in the prelude");
  expect(snapshot.messages).toEqual(stored.messages);
});

test("a forking run's own stream (the fork marker on RUN_STARTED, the state it starts from) passes the schemas and both verifiers", async () => {
  const seen: Seen = { inputs: [] };
  const { url, store } = await serveStored(echoAgent(seen));
  const official = new HttpAgent({ url, threadId: "t" });
  for (const n of [1, 2]) {
    official.addMessage(userText(`u${n}`, `question ${n}`));
    await official.runAgent({ runId: `r${n}` });
  }
  const path = (await snapshotOf(store, "t")).messages;
  // a regenerate by shape, then an edit of the first question by name
  const regenerate = await postJson(url, runAgentInput("t", "g1", { messages: path.slice(0, 3), state: { runs: ["r1", "r2"] } }));
  const edit = await postJson(
    url,
    runAgentInput("t", "e1", { messages: [{ id: "u1e", role: "user", content: "question 1, edited" }], forwardedProps: forkForwardedProps(null) }),
  );
  const streams = [regenerate, edit].map(async ({ response, text }) => {
    expect(response.status).toBe(200);
    return (await framesOf(text)).map((frame) => frame.event);
  });
  const [regenerated, edited] = await Promise.all(streams);
  for (const events of [regenerated, edited]) await expectAccepted(events);
  const starts = [regenerated[0], edited[0]].map((event) => (event.type === "RUN_STARTED" ? forkMarkerOf(event.metadata) : undefined));
  expect(starts).toEqual([
    { after: "u2", siblingIds: ["a-r2"] },
    { after: null, siblingIds: ["u1"] },
  ]);
  expect(regenerated[1]).toEqual({ type: "STATE_SNAPSHOT", snapshot: { runs: ["r1"] } });
  expect(edited[1]).toEqual({ type: "STATE_SNAPSHOT", snapshot: {} });
  expect((await snapshotOf(store, "t")).branches?.groups).toEqual([{ after: null, selected: 1, siblingIds: ["u1", "u1e"] }]);
});

test("an official client joining a forking run live follows it to its end, with no error, and holds the new path", async () => {
  const seen: Seen = { inputs: [] };
  const reached = gate();
  const pause = gate();
  const { url, store } = await serveStored(echoAgent(seen, { runId: "g1", reached: () => reached.open(), opened: pause.opened }));
  const official = new HttpAgent({ url, threadId: "t" });
  for (const n of [1, 2]) {
    official.addMessage(userText(`u${n}`, `question ${n}`));
    await official.runAgent({ runId: `r${n}` });
  }
  // a second tab has joined the thread already: it holds the old answer
  const watcher = new JoiningAgent({ url, threadId: "t" });
  await watcher.connectAgent();
  expect(watcher.messages.map((message) => message.id)).toEqual(["u1", "a-r1", "u2", "a-r2"]);

  official.setMessages(official.messages.slice(0, -1));
  const regenerating = official.runAgent({ runId: "g1" });
  await reached.opened;
  const joined = gate();
  const watching = watcher.connectAgent({}, { onMessagesSnapshotEvent: () => joined.open() });
  await joined.opened;
  pause.open();
  await Promise.all([regenerating, watching]);

  const stored = await snapshotOf(store, "t");
  expect(stored.messages.map((message) => message.id)).toEqual(["u1", "a-r1", "u2", "a-g1"]);
  expect(watcher.messages).toEqual(stored.messages);
  expect(watcher.state).toEqual(stored.state);
  expect(watcher.messages[3]).toMatchObject({ content: "answer to question 2" });
});
