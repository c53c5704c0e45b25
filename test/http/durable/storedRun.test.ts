/**
 * POST {url} with a store (docs/durability.md#stores-and-routes), over loopback HTTP: every frame has `id: <cursor>` and the
 * response is exactly the log; a client that goes away only detaches (the agent runs on, logged);
 * refusals (409, 503); run functions are checked before they are logged; the official HttpAgent
 * still works; without a store nothing changed.
 */
import { HttpAgent } from "@ag-ui/client";
import { Observable, of } from "rxjs";
import { ev } from "../../../src/protocol/build";
import type { Event } from "../../../src/protocol/events";
import { RESUMABLE_HEADER } from "../../../src/protocol/connectMode";
import { success, type Agent } from "../../../src/server/Agent";
import { memoryStore } from "../../../src/server/store/memory/memoryStore";
import { createHandler, type RunFunction } from "../../../src/server/http/createHandler";
import { serve } from "../../../src/node/serve";
import { expectAccepted } from "../../server/support";
import { openPost } from "../loopback";
import { closeAll, framesOf, gate, inputFor, postJson, serveStored, until } from "./support";

afterEach(closeAll);

const greeter: Agent = {
  async run(ctx) {
    ctx.say("Hello.");
    ctx.setState({ greeted: true });
    return success();
  },
};

test("every frame carries id: <cursor>, strictly increasing, and the response is the run as logged", async () => {
  const { url, store } = await serveStored(greeter);
  const { response, text } = await postJson(url, inputFor("t1", "r1"));
  expect(response.status).toBe(200);
  expect(response.headers.get(RESUMABLE_HEADER)).toBe("true");
  const frames = await framesOf(text);
  expect(frames.map((frame) => frame.event.type)).toEqual([
    "RUN_STARTED",
    "TEXT_MESSAGE_START",
    "TEXT_MESSAGE_CONTENT",
    "TEXT_MESSAGE_END",
    "STATE_SNAPSHOT",
    "RUN_FINISHED",
  ]);
  expect(frames.every((frame) => typeof frame.id === "string" && frame.id.length > 0)).toBe(true);
  expect(new Set(frames.map((frame) => frame.id)).size).toBe(frames.length);
  await expectAccepted(frames.map((frame) => frame.event));
  // the log has them under the same cursors: reading after the first gives the rest
  const read = await store.read("t1", frames[0].id);
  expect(read?.kind).toBe("resume");
  if (read?.kind !== "resume") throw new Error("unreachable");
  expect(read.events).toEqual(frames.slice(1).map((frame) => ({ cursor: frame.id, event: frame.event })));
  const snapshot = await store.read("t1");
  expect(snapshot?.kind === "snapshot" && snapshot.snapshot.messages.map((message) => message.content)).toEqual(["go", "Hello."]);
});

test("a client that goes away only detaches: the agent runs on to its end, and everything is logged", async () => {
  const halfway = gate();
  const resume = gate();
  let aborted = false;
  let finished = false;
  const agent: Agent = {
    async run(ctx) {
      ctx.signal.addEventListener("abort", () => (aborted = true));
      const message = ctx.assistantMessage();
      message.delta("first half, ");
      halfway.open();
      await resume.opened;
      message.delta("second half.");
      message.end();
      finished = true;
      return success();
    },
  };
  const { url, store } = await serveStored(agent);
  const open = await openPost(url, JSON.stringify(inputFor("t2", "r1")));
  await halfway.opened;
  open.destroy(); // the client goes away mid-run
  await until(() => open.response.destroyed, "the response to close");
  resume.open();
  await until(() => finished, "the agent to finish");
  await until(() => store.stats().liveRuns === 0, "the run to end in the store");
  expect(aborted).toBe(false);
  const read = await store.read("t2");
  if (read?.kind !== "snapshot") throw new Error("expected the snapshot path");
  expect(read.snapshot.run.status).toBe("finished");
  expect(read.snapshot.messages.map((message) => message.content)).toEqual(["go", "first half, second half."]);
});

test("a second run on a thread with a live run is refused 409; a store with no room answers 503", async () => {
  const parked = gate();
  const agent: Agent = {
    async run(ctx) {
      await new Promise<void>((resolve) => ctx.signal.addEventListener("abort", () => resolve(), { once: true }));
      return success();
    },
  };
  const { url } = await serveStored(agent, { store: memoryStore({ maxThreads: 1 }) });
  const first = await openPost(url, JSON.stringify(inputFor("t3", "r1")));
  expect(first.response.statusCode).toBe(200);
  const again = await postJson(url, inputFor("t3", "r2"));
  expect(again.response.status).toBe(409);
  expect(JSON.parse(again.text)).toMatchObject({ error: "run-active" });
  const other = await postJson(url, inputFor("t4", "r1"));
  expect(other.response.status).toBe(503);
  expect(JSON.parse(other.text)).toMatchObject({ error: "capacity" });
  first.destroy();
  parked.open();
});

test("a run function is normalized and strictly verified before it is logged: a broken one ends RUN_ERROR in the log", async () => {
  const broken: RunFunction = (input) =>
    of<Event[]>(
      ev.runStarted(input.threadId, input.runId),
      ev.textMessageChunk({ messageId: "m1", delta: "Hi" }), // expanded by the normalizer
      ev.textMessageContent("nope", "x"), // R-rule: content for a message that was never started
      ev.runFinished(input.threadId, input.runId),
    );
  const { url, store } = await serveStored(broken);
  const { text } = await postJson(url, inputFor("t5", "r1"));
  const frames = await framesOf(text);
  expect(frames.map((frame) => frame.event.type)).toEqual(["RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END", "RUN_ERROR"]);
  expect(frames[frames.length - 1].event).toMatchObject({ code: "STREAM_ERROR" });
  await expectAccepted(frames.map((frame) => frame.event));
  const read = await store.read("t5");
  expect(read?.kind === "snapshot" && read.snapshot.run.status).toBe("failed");
});

test("the official HttpAgent (@ag-ui/client 1.0.0) runs against a store-backed endpoint unchanged: it ignores id:", async () => {
  const { url } = await serveStored(greeter);
  const agent = new HttpAgent({ url, threadId: "t6" });
  agent.setMessages([{ id: "u1", role: "user", content: "hi" }]);
  const result = await agent.runAgent({ runId: "r1" });
  expect(result.newMessages.map((message) => message.content)).toEqual(["Hello."]);
  expect(agent.state).toEqual({ greeted: true });
  const second = await agent.runAgent({ runId: "r2" }); // the next run on the same thread
  expect(second.newMessages.map((message) => message.content)).toEqual(["Hello."]);
});

test("without a store nothing changed: no id: lines, no resumable header, /connect and /stop answer 404", async () => {
  const served = await serve(createHandler(greeter));
  try {
    const { response, text } = await postJson(`${served.url}agent`, inputFor("t7", "r1"));
    expect(response.headers.get(RESUMABLE_HEADER)).toBeNull();
    expect(text).not.toMatch(/^id:/m);
    expect((await framesOf(text)).map((frame) => frame.event.type)).toContain("RUN_FINISHED");
    for (const route of ["connect", "stop"]) {
      const answer = await postJson(`${served.url}agent/${route}`, { threadId: "t7", runId: "r1" });
      expect(answer.response.status).toBe(404);
      expect(JSON.parse(answer.text)).toMatchObject({ error: "not-resumable" });
    }
  } finally {
    await served.close();
  }
});

test("a store-backed run outlives its response without growing it: a response that is never read holds nothing", async () => {
  const many: RunFunction = (input) =>
    new Observable<Event>((subscriber) => {
      subscriber.next(ev.runStarted(input.threadId, input.runId));
      subscriber.next(ev.textMessageStart("m1"));
      for (let i = 0; i < 2000; i++) subscriber.next(ev.textMessageContent("m1", "x".repeat(50)));
      subscriber.next(ev.textMessageEnd("m1"));
      subscriber.next(ev.runFinished(input.threadId, input.runId));
      subscriber.complete();
    });
  const { url, store } = await serveStored(many);
  const open = await openPost(url, JSON.stringify(inputFor("t8", "r1")));
  // nobody reads the body: the run is logged to its end all the same
  await until(() => store.stats().liveRuns === 0, "the run to end in the store");
  const read = await store.read("t8");
  expect(read?.kind === "snapshot" && read.snapshot.messages[1]).toMatchObject({ content: "x".repeat(2000 * 50) });
  open.destroy();
});
