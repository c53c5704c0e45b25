/**
 * Waiting messages on a thread that waits on answers, the queue going first, the bounds and the
 * refusals of a post with a policy, cancel, `/connect` with `queued` and the prelude's queue
 * (docs/queue.md#policies, docs/queue.md#on-the-wire, docs/queue.md#cancel).
 */
import { queueOf } from "../../../src/protocol/queueMeta";
import { runAgentInput } from "../../../src/protocol/build";
import { serve } from "../../../src/node/serve";
import { createHandler } from "../../../src/server/http/createHandler";
import { ManualClock } from "../../server/store/manualClock";
import { closeAll, framesOf, openStream, postJson, serveStored } from "../durable/support";
import { noticeOf, post, readQueued, scriptedAgent, sendInput, statuses, userMessage } from "./support";

afterEach(closeAll);

async function served(options: { readonly maxQueuedMessages?: number } = {}) {
  const { agent, script } = scriptedAgent();
  const server = await serveStored(agent, { clock: new ManualClock(), ...options });
  return { ...server, script };
}

/** The queue the connect prelude's MESSAGES_SNAPSHOT reports. */
async function preludeQueue(url: string) {
  const frames = await framesOf((await postJson(`${url}/connect`, { threadId: "t" })).text);
  const snapshot = frames.find((frame) => frame.event.type === "MESSAGES_SNAPSHOT")?.event;
  return snapshot?.type === "MESSAGES_SNAPSHOT" ? queueOf(snapshot.metadata) : undefined;
}

test("a thread waiting on an interrupt keeps queued messages waiting; a plain post is 409 queue-pending; the answer passes the queue, which then runs", async () => {
  const { url, script } = await served();
  await postJson(url, sendInput("r1", "confirm"));
  const waiting = await post(url, sendInput("r2", "meanwhile", "queue"));
  await waiting.until(noticeOf("waiting"));
  expect(await preludeQueue(url)).toEqual([expect.objectContaining({ id: "r2", status: "waiting", policy: "queue" })]);

  const plain = await postJson(url, sendInput("r3", "hello?"));
  expect(plain.response.status).toBe(409);
  expect(JSON.parse(plain.text)).toMatchObject({ error: "queue-pending" });

  const answer = await postJson(url, runAgentInput("t", "r4", { messages: [], resume: [{ interruptId: "i-placeholder", status: "cancelled" }] }));
  expect(answer.response.status).toBe(200);
  const read = await readQueued(await waiting.rest());
  // waiting on the interrupt, queued behind the answer's run, then its own run
  expect(statuses(read)).toEqual(["waiting", "queued", "started"]);
  expect(script.inputs.map((input) => input.runId)).toEqual(["r1", "r4", "r2"]);
  expect(await preludeQueue(url)).toBeUndefined();
});

test("a thread waiting on client tool results: the tool message passes the queue", async () => {
  const { url, script } = await served();
  const askUser = { name: "ask_user", description: "asks the user", parameters: { type: "object" } };
  await postJson(url, sendInput("r1", "ask", "refuse", { tools: [askUser] }));
  const waiting = await post(url, sendInput("r2", "meanwhile", "queue"));
  await waiting.until(noticeOf("waiting"));
  const connect = await framesOf((await postJson(`${url}/connect`, { threadId: "t" })).text);
  const end = connect[connect.length - 1].event;
  const pending = end.type === "RUN_FINISHED" && end.outcome?.type === "success" ? (end.outcome.pendingToolCallIds ?? []) : [];
  expect(pending).toHaveLength(1);

  const result = runAgentInput("t", "r3", { messages: [{ id: "res-1", role: "tool", toolCallId: pending[0], content: "this one" }] });
  expect((await postJson(url, result)).response.status).toBe(200);
  expect(statuses(await readQueued(await waiting.rest()))).toEqual(["waiting", "queued", "started"]);
  expect(script.inputs.map((input) => input.runId)).toEqual(["r1", "r3", "r2"]);
});

test("the queue holds at most maxQueuedMessages: past it 429 queue-full", async () => {
  const { url, script } = await served({ maxQueuedMessages: 2 });
  const first = await post(url, sendInput("r1", "hold"));
  await script.reached("r1");
  const a = await post(url, sendInput("r2", "a", "queue"));
  const b = await post(url, sendInput("r3", "b", "queue"));
  await a.until(noticeOf("queued"));
  await b.until(noticeOf("queued"));
  const full = await postJson(url, sendInput("r4", "c", "queue"));
  expect(full.response.status).toBe(429);
  expect(JSON.parse(full.text)).toMatchObject({ error: "queue-full" });
  script.release("r1");
  await Promise.all([first.rest(), a.rest(), b.rest()]);
  expect(script.inputs.map((input) => input.runId)).toEqual(["r1", "r2", "r3"]);
});

test("a post with a policy is one new user message, without resume or fork; a steer is text; the policy is a known one", async () => {
  const { url, script } = await served();
  const first = await post(url, sendInput("r1", "hold"));
  await script.reached("r1");
  const refusal = async (body: unknown) => {
    const answer = await postJson(url, body);
    return { status: answer.response.status, body: JSON.parse(answer.text) as { error: string; path?: string } };
  };
  const two = sendInput("r2", "a", "queue", { messages: [userMessage("r2", "a"), userMessage("r2b", "b")] });
  expect(await refusal(two)).toMatchObject({ status: 400, body: { error: "invalid-input", path: "/messages" } });
  const none = sendInput("r2", "a", "queue", { messages: [userMessage("r1", "hold")] });
  expect(await refusal(none)).toMatchObject({ status: 400, body: { error: "invalid-input", path: "/messages" } });
  const resume = sendInput("r2", "a", "queue", { resume: [{ interruptId: "i1", status: "cancelled" }] });
  expect(await refusal(resume)).toMatchObject({ status: 400, body: { error: "invalid-input", path: "/resume" } });
  const image = sendInput("r2", "a", "steer", {
    messages: [{ id: "u-r2", role: "user", content: [{ type: "image", source: { type: "url", value: "https://example.com/cat.png" } }] }],
  });
  expect(await refusal(image)).toMatchObject({ status: 422, body: { error: "steer-not-text" } });
  const malformed = { ...sendInput("r2", "a"), forwardedProps: { "agui-rx": { whileRunning: "later" } } };
  expect(await refusal(malformed)).toMatchObject({ status: 400, body: { error: "invalid-input", path: "/forwardedProps/agui-rx/whileRunning" } });
  // the anchor our Session posts is allowed beside the new message
  const anchored = await post(url, sendInput("r2", "a", "queue", { messages: [userMessage("r1", "hold"), userMessage("r2", "a")] }));
  expect(anchored.response.status).toBe(200);
  script.release("r1");
  await Promise.all([first.rest(), anchored.rest()]);
  expect(script.inputs.map((input) => input.runId)).toEqual(["r1", "r2"]);
});

test("history: client refuses a policy; a handler without a store ignores it", async () => {
  const { agent } = scriptedAgent();
  const client = await serveStored(agent, { history: "client" });
  const refused = await postJson(client.url, sendInput("r1", "hi", "queue"));
  expect(refused.response.status).toBe(400);
  expect(JSON.parse(refused.text)).toMatchObject({ error: "invalid-input", path: "/forwardedProps/agui-rx/whileRunning" });

  const bare = await serve(createHandler(agent));
  try {
    const answer = await postJson(`${bare.url}agent`, sendInput("r1", "hi", "steer"));
    expect(answer.response.status).toBe(200);
    expect(answer.text).toContain("answer to hi");
  } finally {
    await bare.close();
  }
});

test("cancel: 200 for a waiting message (its stream ends cancelled), 409 once started, 404 for an unknown one", async () => {
  const { url, script } = await served();
  const first = await post(url, sendInput("r1", "hold"));
  await script.reached("r1");
  const doomed = await post(url, sendInput("r2", "never mind", "queue"));
  const kept = await post(url, sendInput("r3", "keep", "queue"));
  await doomed.until(noticeOf("queued"));
  await kept.until(noticeOf("queued"));

  const cancelled = await postJson(`${url}/cancel`, { threadId: "t", id: "r2" });
  expect(cancelled.response.status).toBe(200);
  expect(JSON.parse(cancelled.text)).toEqual({ result: "cancelled" });
  const read = await readQueued(await doomed.rest());
  expect(read.notices[read.notices.length - 1]).toEqual({ id: "r2", status: "cancelled", reason: "cancelled by a user" });

  expect((await postJson(`${url}/cancel`, { threadId: "t", id: "nope" })).response.status).toBe(404);
  script.release("r1");
  await Promise.all([first.rest(), kept.rest()]);
  const late = await postJson(`${url}/cancel`, { threadId: "t", id: "r3" });
  expect(late.response.status).toBe(409);
  expect(JSON.parse(late.text)).toMatchObject({ error: "queued-started" });
  expect(script.inputs.map((input) => input.runId)).toEqual(["r1", "r3"]);
});

test("/connect with queued: the same stream before the start, the started notice and the run after it, 404 for an unknown id", async () => {
  const { url, script } = await served();
  const first = await post(url, sendInput("r1", "hold"));
  await script.reached("r1");
  const sent = await post(url, sendInput("r2", "next", "queue"));
  await sent.until(noticeOf("queued"));
  await sent.cancel(); // the sender went away: the message still waits

  const again = await openStream(`${url}/connect`, { threadId: "t", queued: "r2" });
  expect(again.response.headers.get("AGUI-Queued")).toBe("r2");
  await again.until(noticeOf("queued"));
  script.release("r1");
  await first.rest();
  const read = await readQueued(await again.rest());
  expect(statuses(read)).toEqual(["queued", "started"]);
  expect(read.events[0]).toMatchObject({ type: "RUN_STARTED", runId: "r2" });
  expect(read.events[read.events.length - 1]).toMatchObject({ type: "RUN_FINISHED", runId: "r2" });

  const after = await readQueued((await postJson(`${url}/connect`, { threadId: "t", queued: "r2" })).text);
  expect(statuses(after)).toEqual(["started"]);
  expect(after.events[0]).toMatchObject({ type: "RUN_STARTED", runId: "r2" });
  expect(after.events[after.events.length - 1]).toMatchObject({ type: "RUN_FINISHED", runId: "r2" });

  expect((await postJson(`${url}/connect`, { threadId: "t", queued: "nope" })).response.status).toBe(404);
});

test("the waiting stream's recheck runs on the handler's clock (queueRecheckMs) and stops with the stream", async () => {
  const clock = new ManualClock();
  const { agent, script } = scriptedAgent();
  const server = await serveStored(agent, { clock, queueRecheckMs: 5_000 });
  const first = await post(server.url, sendInput("r1", "hold"));
  await script.reached("r1");
  const sent = await post(server.url, sendInput("r2", "next", "queue"));
  await sent.until(noticeOf("queued"));
  expect(clock.pending).toBeGreaterThan(0);
  script.release("r1");
  await first.rest();
  clock.advance(5_000); // a recheck: the run's end started the message already, so the drain finds nothing to start
  expect(statuses(await readQueued(await sent.rest()))).toEqual(["queued", "started"]);
  expect(clock.pending).toBe(0); // no recheck outlives the stream
  expect(script.inputs.map((input) => input.runId)).toEqual(["r1", "r2"]);
});
