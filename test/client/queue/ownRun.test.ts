/**
 * A Session sending while its own run is live (docs/queue.md#in-the-client), against the real
 * handler over loopback HTTP: the message waits in `queued`, not in `messages`; its run follows the
 * live one in the same subscription, with one `done`; steers are taken or become queued runs.
 */
import { closeAll, until } from "../../http/durable/support";
import { run } from "../branches/support";
import { serveQueue, userTexts } from "./support";

afterEach(closeAll);

test("queue while the session's own run is live: queued updates, then the run after the first's done, one done, the message shown once", async () => {
  const { script, session: open } = await serveQueue();
  const session = open();
  const first = run(session.send("hold", { runId: "r1" }));
  await script.reached("r1");
  const second = run(session.send("next", { whileRunning: "queue", runId: "r2" }));
  await until(() => session.queued.length === 1, "the queued message listed");
  expect(session.queued[0]).toMatchObject({ id: "r2", policy: "queue", status: "queued", message: { content: "next" } });
  expect(userTexts(session)).toEqual(["hold"]);
  expect(session.running).toBe(true);

  script.release("r1");
  const firstUpdates = await first;
  const updates = await second;
  expect(firstUpdates.filter((update) => update.kind === "done")).toEqual([{ kind: "done", end: { kind: "success" } }]);
  const kinds = updates.map((update) => update.kind);
  expect(kinds.filter((kind) => kind === "queued")).toHaveLength(2);
  expect(updates.filter((update) => update.kind === "queued").map((update) => (update.kind === "queued" ? update.notice.status : ""))).toEqual([
    "queued",
    "started",
  ]);
  expect(kinds.filter((kind) => kind === "done")).toEqual(["done"]);
  expect(updates[updates.length - 1]).toEqual({ kind: "done", end: { kind: "success" } });
  expect(userTexts(session)).toEqual(["hold", "next"]);
  expect(session.messages[session.messages.length - 1]).toMatchObject({ role: "assistant", content: "answer to next" });
  expect(session.queued).toEqual([]);
  expect(session.running).toBe(false);
});

test("steer taken: the message appears once, where the live run's agent took it, and the steer ends with done success", async () => {
  const { script, session: open } = await serveQueue();
  const session = open();
  const live = run(session.send("listen", { runId: "r1" }));
  await script.reached("r1");
  const steer = await run(session.send("also this", { whileRunning: "steer", runId: "r2" }));
  expect(steer[steer.length - 1]).toEqual({ kind: "done", end: { kind: "success" } });
  expect(
    steer
      .filter((update) => update.kind === "queued")
      .map((update) => (update.kind === "queued" ? update.notice.status : ""))
      .pop(),
  ).toBe("taken");
  await live;
  expect(userTexts(session)).toEqual(["listen", "also this"]);
  expect(session.messages[session.messages.length - 1]).toMatchObject({ role: "assistant", content: "heard also this" });
  expect(session.queued).toEqual([]);
});

test("steer not taken: it becomes a queued run after the live one, followed in the same subscription", async () => {
  const { script, session: open } = await serveQueue();
  const session = open();
  const live = run(session.send("hold", { runId: "r1" }));
  await script.reached("r1");
  const steer = run(session.send("also this", { whileRunning: "steer", runId: "r2" }));
  await until(() => session.queued.length === 1, "the steer listed");
  script.release("r1");
  await live;
  const updates = await steer;
  expect(
    updates
      .filter((update) => update.kind === "queued")
      .map((update) => (update.kind === "queued" ? update.notice.status : ""))
      .pop(),
  ).toBe("started");
  expect(updates.filter((update) => update.kind === "done")).toEqual([{ kind: "done", end: { kind: "success" } }]);
  expect(userTexts(session)).toEqual(["hold", "also this"]);
  expect(session.messages[session.messages.length - 1]).toMatchObject({ content: "answer to also this" });
});

test("interrupt: the live run ends cancelled, then the message's run follows in its own subscription", async () => {
  const { script, session: open } = await serveQueue();
  const session = open();
  const live = run(session.send("hold", { runId: "r1" }));
  await script.reached("r1");
  const updates = await run(session.send("stop that", { whileRunning: "interrupt", runId: "r2" }));
  const first = await live;
  expect(first[first.length - 1]).toEqual({ kind: "done", end: { kind: "cancelled" } });
  expect(updates[updates.length - 1]).toEqual({ kind: "done", end: { kind: "success" } });
  expect(userTexts(session)).toEqual(["hold", "stop that"]);
  expect(session.messages[session.messages.length - 1]).toMatchObject({ content: "answer to stop that" });
});

test("an idle session's send with a policy runs at once, its message shown once", async () => {
  const { session: open } = await serveQueue();
  const session = open();
  const updates = await run(session.send("hello", { whileRunning: "queue", runId: "r1" }));
  expect(updates.some((update) => update.kind === "queued")).toBe(false);
  expect(updates[updates.length - 1]).toEqual({ kind: "done", end: { kind: "success" } });
  expect(userTexts(session)).toEqual(["hello"]);
});

test("regenerate and resume refuse a policy (config), sending nothing", async () => {
  const { session: open } = await serveQueue();
  const session = open();
  const refused = await run(session.regenerate(undefined, { whileRunning: "queue" }));
  expect(refused[0]).toMatchObject({ kind: "error", error: { kind: "config" } });
  const resumed = await run(session.resume([], { whileRunning: "steer" }));
  expect(resumed[0]).toMatchObject({ kind: "error", error: { kind: "config" } });
});
