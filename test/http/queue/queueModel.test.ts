/**
 * The queue property test's model against the examples docs/queue.md gives, so that the property
 * compares the server with the contract and not with a model's slip: each policy while a run is
 * live and on an idle thread, the queue's order, steers taken or left, nothing starting while the
 * thread waits for answers, and cancels.
 */
import { QueueModel } from "./queueModel";

test("on an idle thread every policy runs now; while a run is live a plain send is refused and a queued one waits", () => {
  for (const policy of ["refuse", "queue", "steer", "interrupt"] as const) {
    const model = new QueueModel();
    expect(model.send("m1", "r1", policy, 0)).toBe("ran");
    expect(model.view()).toEqual({ live: "r1", queue: [], path: ["m1"], awaiting: null });
  }
  const model = new QueueModel();
  model.send("m1", "r1", "queue", 0);
  expect(model.send("m2", "r2", "refuse", 1)).toBe("refused");
  expect(model.send("m3", "r3", "queue", 1)).toBe("waiting");
  expect(model.view()).toEqual({ live: "r1", queue: ["r3"], path: ["m1"], awaiting: null });
  model.step("finish");
  expect(model.view()).toEqual({ live: "r3", queue: [], path: ["m1", "m3"], awaiting: null });
  expect(model.sends.map((sent) => sent.fate)).toEqual(["ran", "refused", "ran"]);
});

test("front entries (interrupting messages, steers) go before queued ones, each part in the order sent; an interrupt stops the live run", () => {
  const model = new QueueModel();
  model.send("m1", "r1", "queue", 0);
  model.send("m2", "r2", "queue", 0);
  model.send("m3", "r3", "steer", 0);
  model.send("m4", "r4", "queue", 0);
  expect(model.view().queue).toEqual(["r3", "r2", "r4"]);
  model.send("m5", "r5", "interrupt", 0); // r1 is stopped; the earlier steer (now untaken) runs first
  expect(model.view()).toEqual({ live: "r3", queue: ["r5", "r2", "r4"], path: ["m1", "m3"], awaiting: null });
  model.step("finish");
  model.step("finish");
  model.step("finish");
  model.step("finish");
  expect(model.view()).toEqual({ live: null, queue: [], path: ["m1", "m3", "m5", "m2", "m4"], awaiting: null });
});

test("a listening agent takes the steers sent into it where it is, before and after it listens; one sent into an earlier run is left for its own run", () => {
  const model = new QueueModel();
  model.send("m1", "r1", "queue", 0);
  model.step("say");
  model.send("m2", "r2", "steer", 0);
  model.step("say");
  model.step("listen");
  model.send("m3", "r3", "steer", 1);
  expect(model.view()).toEqual({ live: "r1", queue: [], path: ["m1", "a-r1-1", "a-r1-2", "m2", "m3"], awaiting: null });
  expect(model.sends.map((sent) => sent.fate)).toEqual(["ran", "taken", "taken"]);
  model.send("m4", "r4", "queue", 0);
  model.step("finish");
  model.send("m5", "r5", "steer", 0); // into r4, which does not listen
  model.step("finish");
  expect(model.view()).toEqual({ live: "r5", queue: [], path: ["m1", "a-r1-1", "a-r1-2", "m2", "m3", "m4", "m5"], awaiting: null });
});

test("nothing starts while the thread waits on an interrupt or a client tool; the answer passes the queue, which then runs", () => {
  const model = new QueueModel();
  model.send("m1", "r1", "queue", 0);
  model.send("m2", "r2", "queue", 1);
  model.step("interrupt");
  expect(model.view()).toEqual({ live: null, queue: ["r2"], path: ["m1"], awaiting: "i-r1" });
  expect(model.plainSendApplies()).toBe(true); // the queue is not empty: 409 queue-pending
  expect(model.send("m3", "r3", "refuse", 0)).toBe("refused");
  expect(model.send("m4", "r4", "interrupt", 0)).toBe("waiting");
  model.resume("r5");
  expect(model.view()).toEqual({ live: "r5", queue: ["r4", "r2"], path: ["m1"], awaiting: null });
  model.step("clientTool");
  expect(model.view()).toEqual({ live: null, queue: ["r4", "r2"], path: ["m1", "t-r5"], awaiting: "c-r5" });
  model.answerTool();
  expect(model.view().live).toBe("?");
  model.learnRunId("s0-1");
  model.step("say");
  model.step("finish");
  expect(model.view()).toEqual({ live: "r4", queue: ["r2"], path: ["m1", "t-r5", "a-s0-1-1", "m4"], awaiting: null });
  expect(model.started).toEqual(["r1", "r5", "s0-1", "r4"]);
});

test("a cancel takes a waiting message out; one that started or was taken is not cancelled", () => {
  const model = new QueueModel();
  model.send("m1", "r1", "queue", 0);
  model.send("m2", "r2", "queue", 0);
  model.send("m3", "r3", "queue", 0);
  expect(model.cancel("r2")).toBe(true);
  expect(model.cancel("r1")).toBe(false);
  model.endLive();
  expect(model.view()).toEqual({ live: "r3", queue: [], path: ["m1", "m3"], awaiting: null });
  expect(model.cancel("r3")).toBe(false);
  expect(model.sends.map((sent) => sent.fate)).toEqual(["ran", "cancelled", "ran"]);
});
