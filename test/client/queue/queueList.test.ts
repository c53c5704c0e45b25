/** The Session's queue list fold (docs/queue.md#in-the-client) and the decoder's named frames (docs/queue.md#on-the-wire), without a server. */
import { lastValueFrom, of, toArray } from "rxjs";
import type { QueuedMessage } from "../../../src/protocol/queueMeta";
import { QueueList } from "../../../src/client/queue/QueueList";
import { decodeSse } from "../../../src/wire/decodeSse";
import { SseNamedFrame } from "../../../src/wire/SseNamedFrame";

const entry = (id: string, policy: QueuedMessage["policy"] = "queue"): QueuedMessage => ({
  id,
  policy,
  status: "queued",
  message: { id: `u-${id}`, role: "user", content: id },
  at: 1,
});

test("front entries (interrupt, steer) go before plain queued ones, each in the order heard", () => {
  const list = new QueueList();
  list.thread({ type: "queue-enqueued", queued: entry("q1") });
  list.thread({ type: "queue-enqueued", queued: entry("s1", "steer") });
  list.thread({ type: "queue-enqueued", queued: entry("q2") });
  list.thread({ type: "queue-enqueued", queued: entry("i1", "interrupt") });
  expect(list.list.map((e) => e.id)).toEqual(["s1", "i1", "q1", "q2"]);
});

test("an entry leaves on its RUN_STARTED, on its message recorded (a taken steer), on an end notice, and a prelude replaces the list", () => {
  const list = new QueueList();
  for (const id of ["a", "b", "c", "d"]) list.thread({ type: "queue-enqueued", queued: entry(id) });
  expect(list.event({ type: "RUN_STARTED", threadId: "t", runId: "a" })).toBe(true);
  expect(list.event({ type: "TEXT_MESSAGE_START", messageId: "u-b", role: "user" })).toBe(true);
  expect(list.notice({ id: "c", status: "cancelled" }, () => entry("c"))).toBe(true);
  expect(list.list.map((e) => e.id)).toEqual(["d"]);
  expect(list.event({ type: "RUN_STARTED", threadId: "t", runId: "zzz" })).toBe(false);
  expect(list.snapshot({ "agui-rx": { queue: [entry("x"), { id: "malformed" }] } })).toBe(true);
  expect(list.list.map((e) => e.id)).toEqual(["x"]);
  expect(list.snapshot(undefined)).toBe(true);
  expect(list.list).toEqual([]);
  expect(list.snapshot(undefined)).toBe(false);
});

test("a waiting notice without its entry lists what the session posted; the list is frozen and kept until it changes", () => {
  const list = new QueueList();
  list.notice({ id: "r2", status: "queued" }, () => entry("r2"));
  const before = list.list;
  expect(Object.isFrozen(before)).toBe(true);
  expect(list.event({ type: "RUN_STARTED", threadId: "t", runId: "other" })).toBe(false);
  expect(list.list).toBe(before);
  list.notice({ id: "r2", status: "waiting" }, () => entry("r2"));
  expect(list.list[0]).toMatchObject({ id: "r2", status: "waiting" });
});

test("decodeSse hands frames of a named event on undecoded, and decodes the rest as events", async () => {
  const body = 'event: agui-rx-queue\ndata: {"id":"r2","status":"queued"}\n\ndata: {"type":"RUN_STARTED","threadId":"t","runId":"r2"}\n\n';
  const items = await lastValueFrom(of(body).pipe(decodeSse({ controls: true, named: ["agui-rx-queue"] }), toArray()));
  expect(items[0]).toEqual(new SseNamedFrame("agui-rx-queue", '{"id":"r2","status":"queued"}'));
  expect(items[1]).toEqual({ type: "RUN_STARTED", threadId: "t", runId: "r2" });
  // without `named`, the reference client's reading: every data frame is an event (this one is not)
  await expect(lastValueFrom(of(body).pipe(decodeSse(), toArray()))).rejects.toMatchObject({ code: "not-an-event" });
});
