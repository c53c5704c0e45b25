/**
 * POST {url}/stop and authorize (docs/durability.md#stores-and-routes) over loopback HTTP: a stop ends the run RUN_FINISHED
 * cancelled for every client (an Agent through its driver, a run function through endOnStop),
 * keeping what was sent; 409 once over, 404 for an unknown run; and access: a denial on every
 * route answers 403 and sends nothing of the thread, before the store is asked, so an unknown
 * thread and a forbidden one answer alike to a caller without access.
 */
import { Observable } from "rxjs";
import { ev } from "../../../src/protocol/build";
import type { Event } from "../../../src/protocol/events";
import { success, type Agent } from "../../../src/server/Agent";
import type { Authorize, RunFunction, ThreadAccess } from "../../../src/server/http/createHandler";
import { expectAccepted } from "../../server/support";
import { closeAll, framesOf, gate, inputFor, openStream, postJson, serveStored, until } from "./support";

afterEach(closeAll);

/** Says something, opens a step and a message, then waits for its signal. */
function parked(started: { open(): void }, seen: { signal?: AbortSignal }): Agent {
  return {
    async run(ctx) {
      seen.signal = ctx.signal;
      ctx.say("Working on it.");
      ctx.step("research");
      ctx.assistantMessage().delta("Half a senten");
      started.open();
      await new Promise<void>((resolve) => ctx.signal.addEventListener("abort", () => resolve(), { once: true }));
      return success();
    },
  };
}

test("a stop aborts ctx.signal and the run ends RUN_FINISHED cancelled for the run's client and a joined one; 409 after, 404 for an unknown run", async () => {
  const started = gate();
  const seen: { signal?: AbortSignal } = {};
  const { url, store } = await serveStored(parked(started, seen));
  const live = await openStream(url, inputFor("t1", "r1"));
  await started.opened;
  await live.until("Half a senten");
  const joined = await openStream(`${url}/connect`, { threadId: "t1" });
  await joined.until("TEXT_MESSAGE_START");
  const stop = await postJson(`${url}/stop`, { threadId: "t1", runId: "r1" });
  expect(stop.response.status).toBe(202);
  expect(JSON.parse(stop.text)).toEqual({ threadId: "t1", runId: "r1", status: "stopping" });
  for (const text of [await live.rest(), await joined.rest()]) {
    const frames = await framesOf(text);
    expect(frames.slice(-3).map((frame) => frame.event.type)).toEqual(["TEXT_MESSAGE_END", "STEP_FINISHED", "RUN_FINISHED"]);
    expect(frames[frames.length - 1].event).toMatchObject({ outcome: { type: "cancelled" } });
    await expectAccepted(frames.map((frame) => frame.event));
  }
  expect(seen.signal?.aborted).toBe(true);
  await until(() => store.stats().liveRuns === 0, "the run to end");
  const read = await store.read("t1");
  expect(read?.kind === "snapshot" && read.snapshot.run.status).toBe("cancelled");
  // everything sent before the stop stays in the log
  expect(read?.kind === "snapshot" && read.snapshot.messages.map((message) => message.content)).toEqual(["go", "Working on it.", "Half a senten"]);
  const again = await postJson(`${url}/stop`, { threadId: "t1", runId: "r1" });
  expect(again.response.status).toBe(409);
  expect(JSON.parse(again.text)).toMatchObject({ error: "run-ended" });
  for (const unknown of [
    { threadId: "t1", runId: "r9" },
    { threadId: "nobody", runId: "r1" },
  ]) {
    const answer = await postJson(`${url}/stop`, unknown);
    expect(answer.response.status).toBe(404);
    expect(JSON.parse(answer.text)).toMatchObject({ error: "not-found" });
  }
  expect((await postJson(`${url}/stop`, { threadId: "t1" })).response.status).toBe(400);
});

test("a stopped run function is closed for it: what it left open ends, then RUN_FINISHED cancelled, and its signal aborts", async () => {
  let signal: AbortSignal | undefined;
  const opened = gate();
  const endless: RunFunction = (input, request) =>
    new Observable<Event>((subscriber) => {
      signal = request.signal;
      subscriber.next(ev.runStarted(input.threadId, input.runId));
      subscriber.next(ev.subagentStarted("sub-1", "researcher"));
      subscriber.next({ ...ev.textMessageStart("m1", { role: "assistant" }), subagentRunId: "sub-1" });
      subscriber.next({ ...ev.textMessageContent("m1", "Looking"), subagentRunId: "sub-1" });
      subscriber.next(ev.toolCallStart("tc1", "search"));
      opened.open();
      return () => undefined; // it never ends by itself
    });
  const { url } = await serveStored(endless);
  const live = await openStream(url, inputFor("t2", "r1"));
  await opened.opened;
  await live.until("TOOL_CALL_START");
  expect((await postJson(`${url}/stop`, { threadId: "t2", runId: "r1" })).response.status).toBe(202);
  const frames = await framesOf(await live.rest());
  // innermost first: the tool call, the subagent's message, the subagent
  expect(frames.slice(-5).map((frame) => frame.event.type)).toEqual([
    "TOOL_CALL_START",
    "TOOL_CALL_END",
    "TEXT_MESSAGE_END",
    "SUBAGENT_FINISHED",
    "RUN_FINISHED",
  ]);
  expect(frames[frames.length - 3].event).toMatchObject({ type: "TEXT_MESSAGE_END", subagentRunId: "sub-1" });
  await expectAccepted(frames.map((frame) => frame.event));
  expect(signal?.aborted).toBe(true);
});

describe("access", () => {
  /** Allows only thread "mine", and records what it was asked. */
  function guard(asked: ThreadAccess[]): Authorize {
    return (request, access) => {
      asked.push(access);
      return "threadId" in access && access.threadId === "mine" && request.headers.get("authorization") === "Bearer owner";
    };
  }
  const owner = { Authorization: "Bearer owner" };

  test("a denial on every route answers 403 with a JSON error and sends nothing of the thread", async () => {
    const asked: ThreadAccess[] = [];
    const { url } = await serveStored({ run: async (ctx) => void ctx.say("secret") }, { authorize: guard(asked) });
    expect((await postJson(url, inputFor("mine", "r1"), owner)).response.status).toBe(200);
    const denied = [
      await postJson(url, inputFor("mine", "r2")), // run without the token
      await postJson(`${url}/connect`, { threadId: "mine" }),
      await postJson(`${url}/stop`, { threadId: "mine", runId: "r1" }),
    ];
    for (const { response, text } of denied) {
      expect(response.status).toBe(403);
      expect(response.headers.get("content-type")).toMatch(/^application\/json/);
      expect(JSON.parse(text)).toMatchObject({ error: "forbidden" });
      expect(text).not.toContain("secret");
      expect(text).not.toContain("go");
    }
    expect(asked.map((access) => access.action)).toEqual(["run", "run", "connect", "stop"]);
    expect(asked[3]).toEqual({ action: "stop", threadId: "mine", runId: "r1" });
    // the owner still connects
    const own = await framesOf((await postJson(`${url}/connect`, { threadId: "mine" }, owner)).text);
    expect(own[1].event).toMatchObject({ messages: [{ content: "go" }, { content: "secret" }] });
  });

  test("to a caller without access, an unknown thread and a forbidden one answer alike on every route (status, headers, body); only an allowed caller learns it is unknown", async () => {
    const { url } = await serveStored(
      { run: async (ctx) => void ctx.say("secret") },
      { authorize: (request) => request.headers.get("authorization") === "Bearer owner" },
    );
    await postJson(url, inputFor("exists", "r1"), owner);
    const answer = async (route: string, body: unknown, headers: Record<string, string> = {}) => {
      const { response, text } = await postJson(`${url}${route}`, body, headers);
      const shown = [...response.headers].filter(([name]) => name !== "date"); // the clock is not the thread's
      return { status: response.status, headers: shown, body: JSON.parse(text) as { error: string; message: string } };
    };
    for (const [route, body] of [
      ["", (threadId: string) => inputFor(threadId, "r2")],
      ["/connect", (threadId: string) => ({ threadId })],
      ["/stop", (threadId: string) => ({ threadId, runId: "r1" })],
    ] as const) {
      const forbidden = await answer(route, body("exists"));
      const unknown = await answer(route, body("never-existed"));
      expect(forbidden.status).toBe(403);
      expect(unknown.status).toBe(forbidden.status);
      // the same headers; the length differs by the two ids' lengths, since the message names the id the caller sent
      expect(unknown.headers).toEqual(
        forbidden.headers.map(([name, value]) => [name, name === "content-length" ? String(Number(value) + "never-existed".length - "exists".length) : value]),
      );
      expect(unknown.body.error).toBe(forbidden.body.error);
      // the messages differ only by the thread id the caller sent itself
      expect(unknown.body.message.replace("never-existed", "X")).toBe(forbidden.body.message.replace("exists", "X"));
    }
    // the allowed caller: a new thread on /connect (docs/threads.md#joining-a-new-thread), 404 on /stop (a run on it just starts it)
    const joined = await postJson(`${url}/connect`, { threadId: "never-existed" }, owner);
    expect([joined.response.status, joined.response.headers.get("agui-connect-mode")]).toEqual([200, "new"]);
    expect((await answer("/stop", { threadId: "never-existed", runId: "r1" }, owner)).status).toBe(404);
  });

  test("a throwing authorize answers 500 before the store is asked", async () => {
    const { url, store } = await serveStored(
      { run: async () => undefined },
      {
        authorize: () => {
          throw new Error("the session service is down");
        },
      },
    );
    const { response, text } = await postJson(url, inputFor("t", "r1"));
    expect(response.status).toBe(500);
    expect(JSON.parse(text)).toMatchObject({ error: "internal", message: expect.stringContaining("the session service is down") });
    expect(store.stats().threads).toBe(0);
  });
});
