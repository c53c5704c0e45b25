/** ThreadFold and OpenSpans: the compacted thread folded with the client's reducer, restorable from its JSON (what a persisting store reads back). */
import * as E from "fp-ts/Either";
import fc from "fast-check";
import { ev } from "../../src/protocol/build";
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
