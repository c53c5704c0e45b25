/**
 * The queue as every tab sees it (docs/queue.md#in-the-client), against the real handler over
 * loopback HTTP: a second Session lists another tab's waiting message from its connect prelude and
 * the thread's events, sees it leave on cancel, and after a reload joins the run the server started
 * from the queue.
 */
import { closeAll, until } from "../../http/durable/support";
import { run } from "../branches/support";
import { serveQueue, userTexts } from "./support";

afterEach(closeAll);

test("cancelQueued from the sender: done cancelled, the list empties, the message never shown", async () => {
  const { script, session: open } = await serveQueue();
  const session = open();
  const live = run(session.send("hold", { runId: "r1" }));
  await script.reached("r1");
  const waiting = run(session.send("never mind", { whileRunning: "queue", runId: "r2" }));
  await until(() => session.queued.length === 1, "the message listed");
  expect(await session.cancelQueued("r2")).toBe("cancelled");
  const updates = await waiting;
  expect(updates[updates.length - 1]).toEqual({ kind: "done", end: { kind: "cancelled" } });
  expect(session.queued).toEqual([]);
  expect(await session.cancelQueued("r2")).toBe("cancelled"); // a repeated cancel answers as the first did (docs/queue.md#in-the-store)
  expect(await session.cancelQueued("nope")).toBe("unknown");
  script.release("r1");
  await live;
  expect(userTexts(session)).toEqual(["hold"]);
});

test("another tab sees the waiting message in its prelude and on the thread's events, and it leaves when cancelled there", async () => {
  const { script, session: open } = await serveQueue();
  const sender = open("a");
  const live = run(sender.send("hold", { runId: "r1" }));
  await script.reached("r1");
  const waiting = run(sender.send("first", { whileRunning: "queue", runId: "r2" }));
  await until(() => sender.queued.length === 1, "the first message listed");

  const other = open("b");
  const joined = run(other.connect());
  await until(() => other.queued.length === 1, "the prelude's queue listed");
  expect(other.queued[0]).toMatchObject({ id: "r2", message: { content: "first" } });
  await until(() => other.following, "the other tab following the thread");

  const second = run(sender.send("second", { whileRunning: "queue", runId: "r3" }));
  await until(() => other.queued.length === 2, "the second message heard on the thread's events");
  expect(other.queued.map((entry) => entry.id)).toEqual(["r2", "r3"]);

  expect(await other.cancelQueued("r3")).toBe("cancelled");
  expect(other.queued.map((entry) => entry.id)).toEqual(["r2"]);
  const cancelled = await second;
  expect(cancelled[cancelled.length - 1]).toEqual({ kind: "done", end: { kind: "cancelled" } });
  await until(() => sender.queued.length === 1, "the sender's list without the cancelled message");

  script.release("r1");
  await live;
  await waiting;
  await joined;
  await until(() => other.queued.length === 0 && userTexts(other).includes("first") && !other.running, "the other tab showing the started run");
  expect(userTexts(sender)).toEqual(["hold", "first"]);
  other.close();
});

test("reload: a new Session connects, lists the queue, then joins the queued run when the server starts it", async () => {
  const { script, session: open } = await serveQueue();
  const sender = open("a");
  const live = run(sender.send("hold", { runId: "r1" }));
  await script.reached("r1");
  const waiting = run(sender.send("later", { whileRunning: "queue", runId: "r2" }));
  await until(() => sender.queued.length === 1, "the message listed");
  waiting.catch(() => undefined);

  const reloaded = open("c");
  const joined = run(reloaded.connect());
  await until(() => reloaded.queued.length === 1 && reloaded.following, "the reloaded page listing the queue and following the thread");
  script.release("r1");
  await joined; // the live run, joined through its end
  await live;
  await until(
    () => userTexts(reloaded).includes("later") && !reloaded.running && reloaded.messages.some((m) => m.content === "answer to later"),
    "the reloaded page joined the queued run",
  );
  expect(reloaded.queued).toEqual([]);
  expect(userTexts(reloaded)).toEqual(["hold", "later"]);
  await waiting;
  expect(userTexts(sender)).toEqual(["hold", "later"]);
  reloaded.close();
});

test("a following sender does not join its own queued run twice", async () => {
  const { script, session: open } = await serveQueue();
  const sender = open("a");
  await run(sender.send("hello", { runId: "r0" }));
  await run(sender.connect());
  await until(() => sender.following, "the sender following the thread");
  const live = run(sender.send("hold", { runId: "r1" }));
  await script.reached("r1");
  const waiting = run(sender.send("later", { whileRunning: "queue", runId: "r2" }));
  await until(() => sender.queued.length === 1, "the message listed");
  script.release("r1");
  await live;
  const updates = await waiting;
  expect(updates.filter((update) => update.kind === "done")).toHaveLength(1);
  await until(() => !sender.running, "the sender idle");
  expect(userTexts(sender)).toEqual(["hello", "hold", "later"]);
  expect(script.inputs.map((input) => input.runId)).toEqual(["r0", "r1", "r2"]);
  sender.close();
});
