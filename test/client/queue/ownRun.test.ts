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
