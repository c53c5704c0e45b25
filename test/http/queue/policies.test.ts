/**
 * The policies end to end over loopback HTTP (docs/queue.md#policies): a queued message starts when
 * the live run ends, an interrupting one stops it and runs ahead of the queue, a steer reaches the
 * live run's agent or becomes a queued run, each with its own stream's notices.
 */
import { QUEUED_HEADER } from "../../../src/protocol/queueMeta";
import { ManualClock } from "../../server/store/manualClock";
import { expectAccepted } from "../../server/support";
import { closeAll, postJson, serveStored, until } from "../durable/support";
import { noticeOf, post, readQueued, scriptedAgent, sendInput, statuses, types } from "./support";

afterEach(closeAll);

async function holding() {
  const { agent, script } = scriptedAgent();
  const served = await serveStored(agent, { clock: new ManualClock() });
  const first = await post(served.url, sendInput("r1", "hold"));
  await script.reached("r1");
  return { ...served, script, first };
}

test("queue: the message waits while the run is live, then starts the next run, on the same stream", async () => {
  const { url, script, first } = await holding();
  const queued = await post(url, sendInput("r2", "next", "queue"));
  expect(queued.response.status).toBe(200);
  expect(queued.response.headers.get(QUEUED_HEADER)).toBe("r2");
  expect(queued.response.headers.get("AGUI-Resumable")).toBe("true");
  await queued.until(noticeOf("queued"));

  script.release("r1");
  await first.rest();
  const read = await readQueued(await queued.rest());
  expect(statuses(read)).toEqual(["queued", "started"]);
  expect(read.notices[0]).toMatchObject({ id: "r2", queued: { id: "r2", policy: "queue", status: "queued", message: { id: "u-r2", content: "next" } } });
  expect(read.notices[1]).toMatchObject({ id: "r2", status: "started", runId: "r2" });
  expect(read.events[0]).toMatchObject({ type: "RUN_STARTED", runId: "r2" });
  expect(read.events[read.events.length - 1]).toMatchObject({ type: "RUN_FINISHED", runId: "r2" });
  expect(read.ids.every((id) => id !== undefined)).toBe(true);
  // the queued run's input is the thread as it is when it starts, then its message
  const ids = script.inputs[1].messages.map((message) => message.id);
  expect([ids[0], ids[ids.length - 1]]).toEqual(["u-r1", "u-r2"]);
  expect(script.inputs[1].messages.filter((message) => message.role === "tool")).toHaveLength(1); // r1's lookup, answered
  expect(script.inputs[1].forwardedProps).toEqual({});
});

test("interrupt: the live run ends cancelled, its open call closed in the next input, and the message runs ahead of queued ones", async () => {
  const { url, script, first } = await holding();
  const queued = await post(url, sendInput("r2", "later", "queue"));
  await queued.until(noticeOf("queued"));
  const interrupting = await post(url, sendInput("r3", "now", "interrupt"));
  expect(interrupting.response.headers.get(QUEUED_HEADER)).toBe("r3");

  const firstRun = (await readQueued(await first.rest())).events;
  expect(firstRun[firstRun.length - 1]).toMatchObject({ type: "RUN_FINISHED", runId: "r1", outcome: { type: "cancelled" } });
  const third = await readQueued(await interrupting.rest());
  expect(statuses(third).slice(-1)).toEqual(["started"]);
  expect(third.events[third.events.length - 1]).toMatchObject({ type: "RUN_FINISHED", runId: "r3" });
  const second = await readQueued(await queued.rest());
  expect(statuses(second).slice(-1)).toEqual(["started"]);

  expect(script.inputs.map((input) => input.runId)).toEqual(["r1", "r3", "r2"]);
  const closing = script.inputs[1].messages.find((message) => message.role === "tool");
  expect(closing).toMatchObject({ role: "tool", content: expect.stringContaining("cancelled") });
  expect(script.inputs[1].messages[script.inputs[1].messages.length - 1]).toMatchObject({ id: "u-r3" });
});

test("steer: the live run's agent takes the message; it is logged where it was taken and the official verifier accepts the run", async () => {
  const { agent, script } = scriptedAgent();
  const { url } = await serveStored(agent, { clock: new ManualClock() });
  const live = await post(url, sendInput("r1", "listen"));
  await script.reached("r1");
  const steer = await post(url, sendInput("r2", "also this", "steer"));
  const read = await readQueued(await steer.rest());
  expect(statuses(read)[statuses(read).length - 1]).toBe("taken");
  expect(read.notices[read.notices.length - 1]).toMatchObject({ id: "r2", status: "taken", runId: "r1" });
  expect(read.events).toEqual([]);

  const run = (await readQueued(await live.rest())).events;
  const start = run.findIndex((event) => event.type === "TEXT_MESSAGE_START" && event.role === "user");
  expect(run[start]).toMatchObject({ type: "TEXT_MESSAGE_START", messageId: "u-r2", role: "user" });
  expect(run[start + 1]).toMatchObject({ type: "TEXT_MESSAGE_CONTENT", messageId: "u-r2", delta: "also this" });
  expect(run[start + 2]).toMatchObject({ type: "TEXT_MESSAGE_END", messageId: "u-r2" });
  expect(run.some((event) => event.type === "TEXT_MESSAGE_CONTENT" && event.delta === "heard also this")).toBe(true);
  await expectAccepted(run);
  expect(script.inputs).toHaveLength(1);
});

test("steer: a message the run did not take when it ended becomes a queued run of its own", async () => {
  const { url, script, first } = await holding();
  const steer = await post(url, sendInput("r2", "by the way", "steer"));
  await steer.until(noticeOf("steering"));
  script.release("r1");
  await first.rest();
  const read = await readQueued(await steer.rest());
  // steering while r1 ran; once it ended unread, a queued run at the front (a `queued` notice may come between)
  expect(statuses(read)[0]).toBe("steering");
  expect(statuses(read).slice(-1)).toEqual(["started"]);
  expect(statuses(read)).not.toContain("taken");
  expect(read.notices[0]).toMatchObject({ queued: { policy: "steer", status: "steering", target: "r1" } });
  expect(types(read.events)[0]).toBe("RUN_STARTED");
  expect(script.inputs.map((input) => input.runId)).toEqual(["r1", "r2"]);
});

test("nothing live and nothing waiting: a post with any policy runs now", async () => {
  const { agent, script } = scriptedAgent();
  const { url } = await serveStored(agent);
  for (const [runId, policy] of [
    ["r1", "queue"],
    ["r2", "steer"],
    ["r3", "interrupt"],
  ] as const) {
    const answer = await postJson(url, sendInput(runId, `hello ${runId}`, policy));
    expect(answer.response.headers.get(QUEUED_HEADER)).toBeNull();
    expect(answer.text).toContain(`answer to hello ${runId}`);
  }
  await until(() => script.inputs.length === 3, "three runs");
});
