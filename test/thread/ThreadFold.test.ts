/** ThreadFold and OpenSpans: the compacted thread folded with the client's reducer, restorable from its JSON (what a persisting store reads back). */
import * as E from "fp-ts/Either";
import fc from "fast-check";
import { ev, outcome, runAgentInput } from "../../src/protocol/build";
import type { Message } from "../../src/protocol/messages";
import type { Event } from "../../src/protocol/events";
import { OpenSpans } from "../../src/thread/OpenSpans";
import { ThreadFold } from "../../src/thread/ThreadFold";
import { ThreadSnapshot } from "../../src/thread/ThreadSnapshot";
import { fuzzParameters } from "../support/fuzz";
import { endingArbitrary, opArbitrary, recordThread } from "../server/store/threads";

function foldAll(fold: ThreadFold, events: readonly { event: Event; cursor: string }[]): ThreadFold {
  for (const { event, cursor } of events) fold.apply(event, cursor);
  return fold;
}

describe("OpenSpans", () => {
  test.each<[string, Event[], Event[]]>([
    [
      "openers in the order they happened, closed ones gone",
      [ev.textMessageStart("m1"), ev.toolCallStart("t1", "f"), ev.textMessageEnd("m1"), ev.reasoningStart("r1"), ev.reasoningMessageStart("r1")],
      [ev.toolCallStart("t1", "f"), ev.reasoningStart("r1"), ev.reasoningMessageStart("r1")],
    ],
    [
      "a reopened id comes back where it reopened",
      [ev.textMessageStart("m1"), ev.textMessageEnd("m1"), ev.stepStarted("s"), ev.textMessageStart("m1")],
      [ev.stepStarted("s"), ev.textMessageStart("m1")],
    ],
    [
      "steps are per owner: the parent's and subagent \"\"'s are different",
      [ev.stepStarted("s"), { ...ev.stepStarted("s"), subagentRunId: "" }, ev.stepFinished("s")],
      [{ ...ev.stepStarted("s"), subagentRunId: "" }],
    ],
    ["ids are per kind", [ev.textMessageStart("x"), ev.toolCallStart("x", "f"), ev.toolCallEnd("x")], [ev.textMessageStart("x")]],
    [
      "every subagent lifecycle event stays, in order",
      [ev.subagentStarted("a", "one"), ev.subagentFinished("a"), ev.subagentStarted("b", "two", { parentSubagentRunId: "a" }), ev.subagentError("b", "no")],
      [ev.subagentStarted("a", "one"), ev.subagentFinished("a"), ev.subagentStarted("b", "two", { parentSubagentRunId: "a" }), ev.subagentError("b", "no")],
    ],
    ["openers lose their metadata (the messages carry it)", [ev.textMessageStart("m1", { metadata: { k: 1 } })], [ev.textMessageStart("m1")]],
    ["other events change nothing", [ev.stateSnapshot({}), ev.custom("c", 1), ev.toolCallResult("m9", "t9", "ok")], []],
  ])("%s", (_name, events, expected) => {
    const spans = new OpenSpans();
    for (const event of events) spans.apply(event);
    expect(spans.reopeners()).toEqual(expected);
    expect(OpenSpans.from(spans.reopeners()).reopeners()).toEqual(expected);
  });
});

describe("ThreadFold", () => {
  test("nothing folded, no snapshot; a terminal before any RUN_STARTED ends nothing", () => {
    const fold = new ThreadFold("t");
    expect(fold.snapshot()).toBeUndefined();
    fold.apply(ev.runError("early"), "c0");
    expect(fold.snapshot()).toBeUndefined();
  });

  test("a snapshot's JSON decodes with its codec, and a fold restored from it folds the rest exactly as the uncut fold", async () => {
    const script = fc.record({ ops: fc.array(opArbitrary, { maxLength: 25 }), ending: endingArbitrary });
    await fc.assert(
      fc.asyncProperty(fc.array(script, { minLength: 1, maxLength: 3 }), fc.double({ min: 0, max: 1, noNaN: true }), async (scripts, at) => {
        const runs = await recordThread("t", scripts);
        const all = runs.flatMap((recorded) =>
          recorded.events.map((event, i) => (i === 0 && event.type === "RUN_STARTED" ? { ...event, input: recorded.input } : event)),
        );
        const stored = all.map((event, i) => ({ event, cursor: `c${i}` }));
        const cut = Math.min(stored.length - 1, Math.floor(at * stored.length));
        const uncut = foldAll(new ThreadFold("t"), stored);
        const before = foldAll(new ThreadFold("t"), stored.slice(0, cut + 1)).snapshot();
        const decoded = ThreadSnapshot.decode(JSON.parse(JSON.stringify(before)));
        if (E.isLeft(decoded)) throw new Error(`the snapshot's JSON does not decode: ${JSON.stringify(decoded.left[0]?.context.map((c) => c.key))}`);
        expect(decoded.right).toEqual(before);
        const restored = foldAll(ThreadFold.restore(decoded.right), stored.slice(cut + 1));
        expect(JSON.parse(JSON.stringify(restored.snapshot()))).toEqual(JSON.parse(JSON.stringify(uncut.snapshot())));
      }),
      fuzzParameters(60),
    );
  });
});

describe("ThreadFold: pending client tool calls (docs/threads.md#pending-client-tools)", () => {
  const tools = [{ name: "get_local_time", description: "the user's clock", parameters: { type: "object" } }];
  /** Run r1: the model calls get_local_time twice and the run ends leaving `pending` (as the driver names them). */
  function firstRun(fold: ThreadFold, pending: string[]): ThreadFold {
    return foldAll(fold, [
      {
        event: ev.runStarted("t", "r1", { input: runAgentInput("t", "r1", { messages: [{ id: "u1", role: "user", content: "time?" }], tools }) }),
        cursor: "c1",
      },
      { event: ev.toolCallStart("tc1", "get_local_time", { parentMessageId: "a1" }), cursor: "c2" },
      { event: ev.toolCallEnd("tc1"), cursor: "c3" },
      { event: ev.toolCallStart("tc2", "get_local_time", { parentMessageId: "a1" }), cursor: "c4" },
      { event: ev.toolCallEnd("tc2"), cursor: "c5" },
      { event: ev.runFinished("t", "r1", { outcome: { type: "success", pendingToolCallIds: pending } }), cursor: "c6" },
    ]);
  }
  const snapshotOf = (fold: ThreadFold): ThreadSnapshot => {
    const snapshot = fold.snapshot();
    if (snapshot === undefined) throw new Error("expected a snapshot after a run");
    return snapshot;
  };
  const answer = (toolCallId: string): Message => ({ id: `tool-${toolCallId}`, role: "tool", toolCallId, content: "12:00" });

  test("a success outcome's pendingToolCallIds are kept (once each, in order), and survive the JSON and restore", () => {
    const fold = firstRun(new ThreadFold("t"), ["tc1", "tc2", "tc1"]);
    const snapshot = fold.snapshot();
    expect(snapshot?.pendingToolCallIds).toEqual(["tc1", "tc2"]);
    const decoded = ThreadSnapshot.decode(JSON.parse(JSON.stringify(snapshot)));
    if (E.isLeft(decoded)) throw new Error("the snapshot's JSON does not decode");
    expect(decoded.right.pendingToolCallIds).toEqual(["tc1", "tc2"]);
    expect(ThreadFold.restore(decoded.right).snapshot()?.pendingToolCallIds).toEqual(["tc1", "tc2"]);
  });

  test("the next run's RUN_STARTED ends the wait: the calls its input answers, and those it leaves unanswered", () => {
    const fold = firstRun(new ThreadFold("t"), ["tc1", "tc2"]);
    const messages = [...(fold.snapshot()?.messages ?? []), answer("tc1")]; // answers tc1 only
    fold.apply(ev.runStarted("t", "r2", { input: runAgentInput("t", "r2", { messages, tools }) }), "c7");
    const snapshot = fold.snapshot();
    expect(snapshot?.run.status).toBe("running");
    expect(snapshot?.messages.map((message) => message.id)).toContain("tool-tc1");
    expect(snapshot).not.toHaveProperty("pendingToolCallIds");
    fold.apply(ev.runFinished("t", "r2"), "c8");
    expect(fold.snapshot()).not.toHaveProperty("pendingToolCallIds"); // nothing comes back when that run ends with none of its own
  });

  test("a restored fold clears them at the next run as the uncut fold does", () => {
    const restored = ThreadFold.restore(snapshotOf(firstRun(new ThreadFold("t"), ["tc1"])));
    restored.apply(ev.runStarted("t", "r2", { input: runAgentInput("t", "r2", { messages: [{ id: "u2", role: "user", content: "never mind" }] }) }), "c7");
    expect(restored.snapshot()).not.toHaveProperty("pendingToolCallIds");
  });

  test.each<[string, Event]>([
    ["a success without the list", ev.runFinished("t", "r1")],
    ["an empty list", ev.runFinished("t", "r1", { outcome: { type: "success", pendingToolCallIds: [] } })],
    ["an interrupt", ev.runFinished("t", "r1", { outcome: outcome.interrupt([{ id: "i1", reason: "confirm" }]) })],
    ["a cancelled run", ev.runFinished("t", "r1", { outcome: { type: "cancelled" } })],
    ["a failed run", ev.runError("boom")],
  ])("%s leaves none (the snapshot has no pendingToolCallIds)", (_name, end) => {
    const fold = foldAll(new ThreadFold("t"), [
      { event: ev.runStarted("t", "r1", { input: runAgentInput("t", "r1", { tools }) }), cursor: "c1" },
      { event: ev.toolCallStart("tc1", "get_local_time", { parentMessageId: "a1" }), cursor: "c2" },
      { event: ev.toolCallEnd("tc1"), cursor: "c3" },
      { event: end, cursor: "c4" },
    ]);
    expect(fold.snapshot()?.run.status).not.toBe("running");
    expect(fold.snapshot()).not.toHaveProperty("pendingToolCallIds");
  });

  test("a run that fails after one that left calls leaves none", () => {
    const fold = firstRun(new ThreadFold("t"), ["tc1"]);
    fold.apply(ev.runStarted("t", "r2", { input: runAgentInput("t", "r2") }), "c7");
    fold.apply(ev.runError("boom"), "c8");
    expect(fold.snapshot()?.run.status).toBe("failed");
    expect(fold.snapshot()).not.toHaveProperty("pendingToolCallIds");
  });
});
