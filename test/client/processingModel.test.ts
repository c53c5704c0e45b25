/**
 * The Session under AG-UI 1.1's processing and versioning rules, read from the spec (issue #14 A1,
 * A2, A5, A6): stripped material is an in-band `warning` where it happened and never ends the run;
 * the client declares its protocol version and warns once per run about a newer or uninterpretable
 * one; a cancelled outcome is not a failure.
 */
import { from } from "rxjs";
import { ev } from "../../src/protocol/build";
import { Session } from "../../src/client/Session";
import type { Transport } from "../../src/client/transports/Transport";
import type { Event } from "../../src/protocol/events";
import type { Update } from "../../src/thread/Update";
import { collect, counter, endOf, errorsOf, expectRunEndContract, replaySession, sse } from "./support";

const START = ev.runStarted("thread-1", "run-1");
const FINISH = ev.runFinished("thread-1", "run-1");
const frame = (json: unknown) => `data: ${JSON.stringify(json)}\n\n`;

/** Each update as a short label: `message m1 content`, `warning unknown-member`, `done success` … */
function label(update: Update): string {
  switch (update.kind) {
    case "message":
      return `message ${update.id} ${update.change.kind}`;
    case "error":
      return update.error.kind === "warning" ? `warning ${update.error.code}` : `error ${update.error.kind}`;
    case "done":
      return `done ${update.end.kind}`;
    default:
      return update.kind;
  }
}

describe("A1/A2: stripped material is a warning at its position; the run goes on and ends as the agent says", () => {
  test("an unknown outcome type: RUN_FINISHED arrives without it, so the run ends success after one warning", async () => {
    const body = sse([START]) + frame({ ...FINISH, outcome: { type: "paused" } });
    const updates = await collect(replaySession(body).send("go"));
    // the first three updates are the user message (started, content, ended)
    expect(updates.slice(3).map(label)).toEqual(["warning unknown-member", "done success"]);
    const [warning] = errorsOf(updates);
    expect(warning.kind).toBe("warning");
    expect(warning.message).toContain("event 1 (RUN_FINISHED)");
    expect(warning.message).toContain("/outcome");
    expect(warning.message).toContain('"paused"');
    expectRunEndContract(updates);
  });

  test("an unknown property and an unknown content part: the message is built without them, each named where it was", async () => {
    const body =
      sse([START]) +
      frame({ type: "TEXT_MESSAGE_START", messageId: "m1", role: "assistant", sentiment: "warm" }) +
      sse([ev.textMessageContent("m1", "hi"), ev.textMessageEnd("m1")]) +
      frame({ type: "TOOL_CALL_RESULT", messageId: "r1", toolCallId: "t1", content: [{ type: "hologram" }, { type: "text", text: "ok" }] }) +
      sse([FINISH]);
    const session = replaySession(body);
    const updates = await collect(session.send("go"));
    expect(updates.slice(3).map(label)).toEqual([
      "warning unknown-property",
      "message m1 started",
      "message m1 content",
      "message m1 ended",
      "warning unknown-member",
      "message r1 toolResult",
      "done success",
    ]);
    expect(errorsOf(updates).map((error) => [error.code, error.message.includes("/sentiment") || error.message.includes("/content/0")])).toEqual([
      ["unknown-property", true],
      ["unknown-member", true],
    ]);
    expect(session.messages.slice(1)).toEqual([
      { id: "m1", role: "assistant", content: "hi" },
      { id: "r1", role: "tool", toolCallId: "t1", content: [{ type: "text", text: "ok" }] },
    ]);
  });

  test("an unknown patch op: that op is dropped with a warning, the rest of the delta applies, later deltas apply (revised: the whole delta used to be dropped)", async () => {
    const body =
      sse([START, ev.stateSnapshot({ n: 1 })]) +
      frame({
        type: "STATE_DELTA",
        delta: [
          { op: "replace", path: "/n", value: 5 },
          { op: "increment", path: "/n" },
        ],
      }) +
      sse([ev.stateDelta([{ op: "add", path: "/m", value: 2 }]), FINISH]);
    const session = replaySession(body);
    const updates = await collect(session.send("go"));
    // The two deltas arrive in one read: one `state` update for both (applyEvents' delivery batch), after the warning.
    expect(updates.slice(3).map(label)).toEqual(["state", "warning unknown-member", "state", "done success"]);
    expect(errorsOf(updates)[0].message).toContain("/delta/1");
    expect(updates.filter((update) => update.kind === "state").map((update) => update.kind === "state" && update.rawState)).toEqual([{ n: 1 }, { n: 5, m: 2 }]);
    expect(session.rawState).toEqual({ n: 5, m: 2 });
  });

  test("an unknown role on a snapshot message drops that message only; an unknown event type still fails the run, named (seed)", async () => {
    const snapshot = frame({
      type: "MESSAGES_SNAPSHOT",
      messages: [
        { id: "a", role: "narrator", content: "?" },
        { id: "b", role: "user", content: "kept" },
      ],
    });
    const session = replaySession(sse([START]) + snapshot + frame({ type: "TELEPATHY_START" }));
    const updates = await collect(session.send("go"));
    expect(updates.slice(3).map(label)).toEqual(["warning unknown-member", "messages", "error decode", "done failed"]);
    expect(session.messages.map((message) => message.id)).toEqual(["b"]);
    expect(endOf(updates)).toMatchObject({ kind: "failed", code: "unknown-type", message: expect.stringContaining("TELEPATHY_START") });
  });

  test("events handed as objects are judged the same way (ReplayTransport decodes them)", async () => {
    const events = [START, { ...FINISH, outcome: { type: "paused" } } as unknown as Event]; // an unknown outcome, as a peer would send it
    const updates = await collect(replaySession(events).send("go"));
    expect(updates.slice(3).map(label)).toEqual(["warning unknown-member", "done success"]);
  });
});

describe("A5: protocolVersion", () => {
  test.each([
    ["1.1", "newer than the 1.0"],
    ["2.0", "newer than the 1.0"],
    ["1.0.0", "cannot interpret"],
    ["latest", "cannot interpret"],
  ])("a RUN_STARTED declaring %p gets exactly one warning, and the run succeeds", async (version, says) => {
    const session = replaySession([ev.runStarted("thread-1", "run-1", { protocolVersion: version }), FINISH]);
    const updates = await collect(session.send("go"));
    const errors = errorsOf(updates);
    expect(errors).toHaveLength(1);
    expect([errors[0].kind, errors[0].code]).toEqual(["warning", "protocol-version"]);
    expect(errors[0].message).toContain(JSON.stringify(version));
    expect(errors[0].message).toContain(says);
    expect(endOf(updates)).toEqual({ kind: "success" });
  });

  test.each([["1.0"], ["0.9"], [undefined]])("%p (our own, an older one, or none) is not warned about", async (version) => {
    const started = version === undefined ? START : ev.runStarted("thread-1", "run-1", { protocolVersion: version });
    expect(errorsOf(await collect(replaySession([started, FINISH]).send("go")))).toEqual([]);
  });

  test("one warning per run: each run's RUN_STARTED is judged once", async () => {
    const session = replaySession([ev.runStarted("thread-1", "run-1", { protocolVersion: "1.9" }), FINISH]);
    expect(errorsOf(await collect(session.send("one")))).toHaveLength(1);
    expect(errorsOf(await collect(session.send("two")))).toHaveLength(1);
  });
});

describe("A6: a cancelled outcome is not a failure", () => {
  test("done cancelled, no error before it; what the run built stays; pending interrupts stay pending", async () => {
    const runs: Event[][] = [
      [START, ev.runFinished("thread-1", "run-1", { outcome: { type: "interrupt", interrupts: [{ id: "i1", reason: "confirmation" }] } })],
      [
        START,
        ev.textMessageStart("m1"),
        ev.textMessageContent("m1", "so far"),
        ev.textMessageEnd("m1"),
        ev.runFinished("thread-1", "run-1", { outcome: { type: "cancelled" } }),
      ],
    ];
    const oneRecordingPerRun: Transport = { run: () => from(runs.shift() ?? []) };
    const session = new Session(oneRecordingPerRun, { threadId: "thread-1", newId: counter() });
    await collect(session.send("first"));
    expect(session.interrupts.map((i) => i.id)).toEqual(["i1"]);

    const updates = await collect(session.resume([{ interruptId: "i1", status: "resolved", payload: { ok: true } }]));
    expect(endOf(updates)).toEqual({ kind: "cancelled" });
    expect(errorsOf(updates)).toEqual([]);
    expect(session.messages.map((message) => message.id)).toEqual(["id-1", "m1"]);
    expect(session.interrupts.map((i) => i.id)).toEqual(["i1"]);
    expectRunEndContract(updates);
  });
});
