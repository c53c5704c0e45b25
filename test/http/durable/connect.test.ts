/**
 * POST {url}/connect (docs/durability.md#stores-and-routes) over loopback HTTP: the cursor path after a Last-Event-ID, the
 * snapshot path (no cursor, an evicted one), the live tail of a run in progress, an unknown thread,
 * abandoned runs seen by connected clients (a manual clock, no sleeps), and GET {url}/capabilities.
 */
import { AgentCapabilitiesSchema } from "@ag-ui/core/schemas";
import { ev } from "../../../src/protocol/build";
import { CONNECT_MODE_HEADER, HISTORY_OLDER_HEADER, RESUMABLE_HEADER } from "../../../src/protocol/connectMode";
import { success, type Agent } from "../../../src/server/Agent";
import { memoryStore } from "../../../src/server/store/memory/memoryStore";
import { ABANDONED_ERROR_CODE } from "../../../src/server/store/ThreadStore";
import { expectAccepted } from "../../server/support";
import { ManualClock } from "../../server/store/manualClock";
import { openPost } from "../loopback";
import { closeAll, framesOf, gate, inputFor, openStream, postJson, serveStored, until } from "./support";

afterEach(closeAll);

/** An agent that writes half a message, waits for `resume`, then finishes it. */
function pausing(halfway: { open(): void }, resume: { opened: Promise<void> }): Agent {
  return {
    async run(ctx) {
      ctx.setState({ stage: "writing" });
      const message = ctx.assistantMessage();
      message.delta("The answer ");
      halfway.open();
      await resume.opened;
      message.delta("is 42.");
      message.end();
      ctx.setState({ stage: "done" });
      return success();
    },
  };
}

test("after a Last-Event-ID still in the log: the events after it (mode resume), each with its id, then the live tail", async () => {
  const halfway = gate();
  const resume = gate();
  const { url } = await serveStored(pausing(halfway, resume));
  const open = await openPost(url, JSON.stringify(inputFor("t1", "r1")));
  open.response.resume();
  let received = "";
  open.response.setEncoding("utf8");
  open.response.on("data", (chunk: string) => (received += chunk));
  await halfway.opened;
  await until(() => received.includes("The answer"), "the first delta to arrive");
  const before = await framesOf(received);
  const cursor = before[1].id; // the second frame's: the client resumes after RUN_STARTED and the first STATE_SNAPSHOT
  const connected = postJson(`${url}/connect`, { threadId: "t1" }, { "Last-Event-ID": cursor ?? "" });
  resume.open();
  const { response, text } = await connected;
  expect(response.status).toBe(200);
  expect(response.headers.get(CONNECT_MODE_HEADER)).toBe("resume");
  expect(response.headers.get(RESUMABLE_HEADER)).toBe("true");
  const after = await framesOf(text);
  expect(after.every((frame) => frame.id !== undefined)).toBe(true);
  await until(() => received.includes("RUN_FINISHED"), "the live client to finish");
  const whole = await framesOf(received);
  // the continuation is exactly the log after the cursor: what the live client got after it, ids and all
  expect(after).toEqual(whole.slice(2));
  await expectAccepted([...whole.slice(0, 2), ...after].map((frame) => frame.event));
});

test("without a cursor, or with one the store does not know: the compacted prelude (mode snapshot), then the live tail", async () => {
  const halfway = gate();
  const resume = gate();
  const { url } = await serveStored(pausing(halfway, resume));
  const open = await openPost(url, JSON.stringify(inputFor("t2", "r1")));
  open.response.resume();
  await halfway.opened;
  for (const lastEventId of [undefined, "not-a-cursor-of-this-store"]) {
    const headers: Record<string, string> = lastEventId === undefined ? {} : { "Last-Event-ID": lastEventId };
    const stream = await openStream(`${url}/connect`, { threadId: "t2" }, headers);
    expect(stream.response.headers.get(CONNECT_MODE_HEADER)).toBe("snapshot");
    const prelude = await framesOf(await stream.until("TEXT_MESSAGE_START"));
    expect(prelude.map((frame) => frame.event.type)).toEqual(["RUN_STARTED", "MESSAGES_SNAPSHOT", "STATE_SNAPSHOT", "TEXT_MESSAGE_START"]);
    // prelude frames carry no id, except the last one: the snapshot's cursor
    expect(prelude.map((frame) => frame.id !== undefined)).toEqual([false, false, false, true]);
    expect(prelude[1].event).toMatchObject({ messages: [{ content: "go" }, { content: "The answer " }] });
    await stream.cancel();
  }
  const tail = postJson(`${url}/connect`, { threadId: "t2" });
  resume.open();
  const frames = await framesOf((await tail).text);
  await expectAccepted(frames.map((frame) => frame.event));
  expect(frames[frames.length - 1].event.type).toBe("RUN_FINISHED");
  open.destroy();
});

test("an idle thread connects as its history; an unknown thread is a new, empty thread (200, mode new)", async () => {
  const { url } = await serveStored({ run: async (ctx) => void ctx.say("Hi.") });
  await postJson(url, inputFor("t3", "r1"));
  const { response, text } = await postJson(`${url}/connect`, { threadId: "t3" });
  const frames = await framesOf(text);
  expect(response.headers.get(CONNECT_MODE_HEADER)).toBe("snapshot");
  expect(frames.map((frame) => frame.event.type)).toEqual(["RUN_STARTED", "MESSAGES_SNAPSHOT", "STATE_SNAPSHOT", "RUN_FINISHED"]);
  const unknown = await postJson(`${url}/connect`, { threadId: "nobody" });
  expect(unknown.response.status).toBe(200);
  expect(unknown.response.headers.get(CONNECT_MODE_HEADER)).toBe("new");
  const bad = await postJson(`${url}/connect`, { thread: "t3" });
  expect(bad.response.status).toBe(400);
  expect(JSON.parse(bad.text)).toMatchObject({ error: "invalid-input", path: "/threadId" });
  const get = await fetch(`${url}/connect`);
  expect(get.status).toBe(405);
});

test("an evicted cursor is answered with the snapshot path, never an error", async () => {
  // one run per thread: the second run drops the first's events, and with them its cursors
  const { url } = await serveStored({ run: async (ctx) => void ctx.say("Hi.") }, { store: memoryStore({ maxRunsPerThread: 1 }) });
  const first = await framesOf((await postJson(url, inputFor("t4", "r1"))).text);
  await postJson(url, inputFor("t4", "r2"));
  const { response, text } = await postJson(`${url}/connect`, { threadId: "t4" }, { "Last-Event-ID": first[1].id ?? "" });
  expect(response.status).toBe(200);
  expect(response.headers.get(CONNECT_MODE_HEADER)).toBe("snapshot");
  const frames = await framesOf(text);
  expect(frames[1].event).toMatchObject({ messages: [{ content: "go" }, { content: "Hi." }, { content: "go" }, { content: "Hi." }] });
  await expectAccepted(frames.map((frame) => frame.event));
});

test("a reconnecting client (it names the run) learns how a run that ended meanwhile ended: failed, with its message", async () => {
  const { url } = await serveStored({
    run: async (ctx) => {
      if (ctx.runId === "r2") throw new Error("the model is down");
      ctx.say("ok");
    },
  });
  await postJson(url, inputFor("t5", "r1"));
  await postJson(url, inputFor("t5", "r2"));
  const joined = await framesOf((await postJson(`${url}/connect`, { threadId: "t5" })).text);
  expect(joined[3].event).toMatchObject({ type: "RUN_FINISHED", outcome: { type: "success" } }); // joining: history (ag-ui #2408)
  const following = await framesOf((await postJson(`${url}/connect`, { threadId: "t5", runId: "r2" })).text);
  expect(following[3].event).toMatchObject({ type: "RUN_ERROR", message: "the model is down" });
  await expectAccepted(following.map((frame) => frame.event));
});

test("a run whose producer is gone ends RUN_ERROR ABANDONED for the clients connected to it (the lease on a manual clock)", async () => {
  const clock = new ManualClock();
  const store = memoryStore({ clock, lease: 1000 });
  const { url } = await serveStored({ run: async () => undefined }, { store });
  // A producer in another process that died: it began a run, logged half a message, and went silent.
  const dead = await store.beginRun(inputFor("t6", "r1"));
  await dead.append([ev.textMessageStart("m1", { role: "assistant" }), ev.textMessageContent("m1", "Hal")]);
  const resuming = await openStream(`${url}/connect`, { threadId: "t6" }, { "Last-Event-ID": dead.started.cursor });
  const joining = await openStream(`${url}/connect`, { threadId: "t6" });
  // A first chunk is written once the answer follows the tail (the tail is subscribed with it)
  await resuming.until("Hal");
  await joining.until("TEXT_MESSAGE_START");
  clock.advance(1000); // the lease runs out
  for (const answer of [await resuming.rest(), await joining.rest()]) {
    const frames = await framesOf(answer);
    expect(frames[frames.length - 1].event).toMatchObject({ type: "RUN_ERROR", code: ABANDONED_ERROR_CODE });
  }
  const joined = await framesOf(joining.text());
  await expectAccepted(joined.map((frame) => frame.event));
  const again = await framesOf((await postJson(`${url}/connect`, { threadId: "t6", runId: "r1" })).text);
  expect(again[again.length - 1].event).toMatchObject({ type: "RUN_ERROR", code: ABANDONED_ERROR_CODE });
});

test("GET {url}/capabilities: AgentCapabilities as @ag-ui/core 1.0.0 types it, resumable with a store", async () => {
  const { url } = await serveStored(
    { run: async () => undefined },
    { capabilities: { identity: { name: "echo" }, transport: { resumable: false, websocket: false } } },
  );
  const response = await fetch(`${url}/capabilities`);
  expect(response.status).toBe(200);
  const body: unknown = await response.json();
  expect(body).toEqual({
    identity: { name: "echo" },
    transport: { websocket: false, streaming: true, resumable: true },
    custom: { "agui-rx": { history: "server", whileRunning: ["refuse", "queue", "steer", "interrupt"] } },
  });
  expect(AgentCapabilitiesSchema.safeParse(body).success).toBe(true);
  expect((await fetch(`${url}/capabilities`, { method: "POST" })).status).toBe(405);
});

test("a thread the caller never had: a valid AG-UI prelude without snapshots (mode new, nothing stored); after a cursor 410 gone; naming only a run 404", async () => {
  const { url, store } = await serveStored({ run: async (ctx) => void ctx.say("Hi.") });
  const { response, text } = await postJson(`${url}/connect`, { threadId: "fresh", limit: 20 });
  expect(response.status).toBe(200);
  expect([response.headers.get(CONNECT_MODE_HEADER), response.headers.get(RESUMABLE_HEADER), response.headers.get(HISTORY_OLDER_HEADER)]).toEqual([
    "new",
    "true",
    "false",
  ]);
  const frames = await framesOf(text);
  expect(frames.map((frame) => [frame.event.type, frame.id])).toEqual([
    ["RUN_STARTED", undefined],
    ["RUN_FINISHED", undefined],
  ]);
  expect(frames[0].event).toMatchObject({ threadId: "fresh", protocolVersion: expect.any(String) });
  expect(frames[1].event).toMatchObject({ threadId: "fresh", runId: (frames[0].event as { runId: string }).runId, outcome: { type: "success" } });
  await expectAccepted(frames.map((frame) => frame.event)); // our verifier and @ag-ui/client 1.0.0's
  expect(store.stats().threads).toBe(0); // a join creates nothing: a thread begins with its first run

  const gone = await postJson(`${url}/connect`, { threadId: "fresh" }, { "Last-Event-ID": "1-0" });
  expect(gone.response.status).toBe(410);
  expect(JSON.parse(gone.text)).toEqual({
    error: "gone",
    message: expect.stringMatching(/"fresh".*"1-0".*no longer knows it: it was deleted, evicted or expired/),
  });
  const namingRun = await postJson(`${url}/connect`, { threadId: "fresh", runId: "r9" });
  expect([namingRun.response.status, JSON.parse(namingRun.text)]).toEqual([404, expect.objectContaining({ error: "not-found" })]);
});
