/**
 * The checked step (src/operators/checkedStep.ts): the normalizer and the verifier as one. In strict
 * mode (the server's) a refusal part-way through an expansion leaves both holding exactly what was
 * sent: the events before the refused one go out, the normalizer forgets what was not sent, and
 * the stream goes on and ends with RUN_FINISHED. The first four cases are the server's
 * (test/server/chunkRejection.test.ts, where the fuzz suite found them) as the step sees them.
 */
import fc from "fast-check";
import { Diagnostic, ProtocolError } from "../../src/operators/ProtocolError";
import { checkedStep, initialCheckedState, type CheckedState } from "../../src/operators/checkedStep";
import type { Event } from "../../src/protocol/events";
import { expectAccepted, types } from "../server/support";
import { MS, RF, RME, RMS, RS, RST, REND, SAF, SAS, SD, TMC, TME, TMS, counter, rxc, tlc, txc } from "./normalize/notation";

/** Every input through one strict state: what was sent, and each refusal with the index of its input. */
function strict(inputs: readonly Event[]): { sent: Event[]; refused: { at: number; error: ProtocolError }[]; state: CheckedState } {
  const state = initialCheckedState({ mode: "strict", newId: counter() });
  const sent: Event[] = [];
  const refused: { at: number; error: ProtocolError }[] = [];
  inputs.forEach((input, at) => checkedStep(state, input, { sent: (event) => sent.push(event), refused: (error) => refused.push({ at, error }) }));
  return { sent, refused, state };
}

describe("checkedStep, strict: a refusal part-way through an expansion", () => {
  it("a refused opening chunk (nothing sent) leaves no stream open in the normalizer", async () => {
    const refusedChunk = txc({ messageId: "m1", delta: "not yours", subagentRunId: "s1" }); // m1 belongs to the parent: R38
    const { sent, refused, state } = strict([
      RS(),
      txc({ messageId: "m1", delta: "parent text" }),
      ...[TMS("x"), TMC("x", "between"), TME("x")], // closes the chunk stream m1
      SAS("s1"),
      refusedChunk,
      ...[TMS("y", "s1"), TMC("y", "the subagent goes on", "s1"), TME("y", "s1")],
      SAF("s1"),
      RF(),
    ]);
    expect(refused).toHaveLength(1);
    expect(refused[0].error).toBeInstanceOf(ProtocolError);
    expect(refused[0].at).toBe(6);
    expect(state.normalizer.lanes.size).toBe(0);
    expect(sent[sent.length - 1].type).toBe("RUN_FINISHED");
    await expectAccepted(sent);
  });

  it("a chunk refused after the END it synthesized was sent: the END stays sent, the refused stream is not opened", async () => {
    const { sent, refused } = strict([
      RS(),
      ...[TMS("owned"), TMC("owned", "mine"), TME("owned")], // "owned" now belongs to the parent
      SAS("s1"),
      txc({ messageId: "m1", delta: "open", subagentRunId: "s1" }), // the subagent's lane holds m1
      txc({ messageId: "owned", delta: "steal", subagentRunId: "s1" }), // expands to END(m1), START(owned): START is refused (R38)
      ...[TMS("a", "s1"), TMC("a", "after", "s1"), TME("a", "s1")],
      SAF("s1"),
      RF(),
    ]);
    expect(refused).toHaveLength(1);
    expect(refused[0].error).toBeInstanceOf(ProtocolError);
    expect(types(sent).slice(-7)).toEqual([
      "TEXT_MESSAGE_CONTENT",
      "TEXT_MESSAGE_END",
      "TEXT_MESSAGE_START",
      "TEXT_MESSAGE_CONTENT",
      "TEXT_MESSAGE_END",
      "SUBAGENT_FINISHED",
      "RUN_FINISHED",
    ]);
    expect(sent.filter((event) => event.type === "TEXT_MESSAGE_END" && event.messageId === "m1")).toHaveLength(1);
    await expectAccepted(sent);
  });

  it("a reasoning chunk whose own block is sent but whose message is refused: the block alone stays open and is ended with the lane (R22)", async () => {
    const { sent, refused } = strict([
      RS(),
      SAS("s1"),
      RST("b", "s1"),
      RMS("m", "s1"), // m is open, inside b
      REND("b", "s1"), // m outlives its block: legal, only opening needs one
      rxc({ messageId: "m", delta: "again", subagentRunId: "s1" }), // no block of s1 open: REASONING_START(m) goes out, REASONING_MESSAGE_START(m) is refused (open)
      RME("m", "s1"), // closes the lane first: the block's REASONING_END, then this
      SAF("s1"),
      RF(),
    ]);
    expect(refused).toHaveLength(1);
    expect(refused[0].error).toMatchObject({ code: "reasoning", rule: "R22" });
    const reasoning = sent
      .filter((event) => event.type.startsWith("REASONING_"))
      .map((event) => `${event.type} ${"messageId" in event ? event.messageId : ""}`);
    expect(reasoning).toEqual([
      "REASONING_START b",
      "REASONING_MESSAGE_START m",
      "REASONING_END b",
      "REASONING_START m", // the block the normalizer opened for the refused message
      "REASONING_END m", // ended when the lane closed, without a REASONING_MESSAGE_END for a message it never opened
      "REASONING_MESSAGE_END m",
    ]);
    expect(sent[sent.length - 1].type).toBe("RUN_FINISHED");
    await expectAccepted(sent);
  });

  it("a synthesized END refused because its stream was already closed on the wire does not re-open it", async () => {
    const { sent, refused } = strict([
      RS(),
      SAS("s1"),
      rxc({ messageId: "r1", delta: "hm", subagentRunId: "s1" }), // s1's lane holds r1, in a block of its own
      RME("r1"), // untagged: the verifier lets it end s1's r1 (no tag, no conflict)
      rxc({ messageId: "r2", delta: "next", subagentRunId: "s1" }), // closing r1 synthesizes REASONING_MESSAGE_END(r1): refused, r1 is closed
      rxc({ messageId: "r3", delta: "still going", subagentRunId: "s1" }), // the normalizer did not re-open r1, so nothing ends it twice
      SAF("s1"),
      RF(),
    ]);
    expect(refused).toHaveLength(1);
    expect(refused[0].error).toMatchObject({ code: "reasoning", rule: "R22" });
    expect(sent[sent.length - 1].type).toBe("RUN_FINISHED");
    await expectAccepted(sent);
  });

  it("the lanes after a refused END stay open as they were, opener fields included (docs/rules.md#C6)", async () => {
    const { sent, refused } = strict([
      RS(),
      SAS("s1"),
      txc({ messageId: "m1", delta: "a", subagentRunId: "s1" }), // s1's lane opens first
      TME("m1"), // untagged: ends s1's m1 on the wire, behind the normalizer's back
      txc({ messageId: "m2", delta: "b", role: "assistant" }), // the parent's lane, second in lane order
      MS(), // closes every lane: END(m1@s1) is refused (R15), so END(m2) and the snapshot are not sent
      txc({ messageId: "m2", delta: "c", role: "assistant" }), // repeats m2's opener role: a continuation, not a contradiction
      SAF("s1"),
      RF(),
    ]);
    expect(refused.map(({ at, error }) => ({ at, rule: error.rule }))).toEqual([{ at: 5, rule: "R15" }]);
    expect(
      sent
        .filter((event) => event.type === "TEXT_MESSAGE_CONTENT" && event.messageId === "m2")
        .map((event) => event.type === "TEXT_MESSAGE_CONTENT" && event.delta),
    ).toEqual(["b", "c"]);
    expect(sent.filter((event) => event.type === "MESSAGES_SNAPSHOT")).toEqual([]);
    expect(types(sent).slice(-3)).toEqual(["SUBAGENT_FINISHED", "TEXT_MESSAGE_END", "RUN_FINISHED"]); // m2 ends with the run
    await expectAccepted(sent);
  });

  it("a chunk the normalizer rejects (docs/rules.md#C5) is refused before anything is sent or recorded", () => {
    const { sent, refused, state } = strict([RS(), txc({ delta: "no id, nothing open" })]);
    expect(types(sent)).toEqual(["RUN_STARTED"]);
    expect(refused.map(({ error }) => [error.code, error.rule])).toEqual([["chunk", "C5"]]);
    expect(state.normalizer.lanes.size).toBe(0);
  });
});

describe("checkedStep, report and strict agree", () => {
  const tag = fc.constantFrom<string | undefined>(undefined, "s1");
  const id = fc.constantFrom("a", "b");
  const at = (t: string | undefined) => (t === undefined ? {} : { subagentRunId: t });
  const input: fc.Arbitrary<Event> = fc.oneof(
    fc.tuple(id, tag).map(([i, t]) => txc({ messageId: i, delta: "x", ...at(t) })),
    fc.tuple(id, tag).map(([i, t]) => tlc({ toolCallId: `t${i}`, toolCallName: "f", delta: "{", ...at(t) })),
    fc.tuple(id, tag).map(([i, t]) => rxc({ messageId: `r${i}`, delta: "hm", ...at(t) })),
    fc.tuple(id, tag).map(([i, t]) => RST(`r${i}`, t)),
    fc.tuple(id, tag).map(([i, t]) => REND(`r${i}`, t)),
    fc.tuple(id, tag).map(([i, t]) => RME(`r${i}`, t)),
    fc.tuple(id, tag).map(([i, t]) => TME(i, t)),
    tag.map((t) => SD(t)),
    fc.constantFrom<Event>(MS(), SAS("s1"), SAF("s1"), { type: "THINKING_START" }, { type: "THINKING_END" }),
  );
  const runs = fc.array(input, { maxLength: 25 }).map((events) => [RS(), ...events, RF()]);

  it("up to the first refusal, strict sends exactly what report sends, and refuses where report first reports", () => {
    let refusedSome = 0;
    fc.assert(
      fc.property(runs, (inputs) => {
        const strictState = initialCheckedState({ mode: "strict", newId: counter() });
        const reportState = initialCheckedState({ mode: "report", newId: counter() });
        for (const event of inputs) {
          const fromStrict: unknown[] = [];
          const fromReport: unknown[] = [];
          checkedStep(strictState, event, { sent: (e) => fromStrict.push(e), refused: (error) => fromStrict.push(new Diagnostic(error)) });
          checkedStep(reportState, event, { sent: (e) => fromReport.push(e), refused: (error) => fromReport.push(new Diagnostic(error)) });
          const firstReported = fromReport.findIndex((item) => item instanceof Diagnostic);
          if (firstReported === -1) {
            expect(fromStrict).toEqual(fromReport);
            continue;
          }
          // Strict stops at the refusal: what it sent is report's prefix, then the same refusal, and nothing after.
          expect(fromStrict).toEqual(fromReport.slice(0, firstReported + 1));
          refusedSome++;
          return;
        }
      }),
      { numRuns: 500 },
    );
    expect(refusedSome).toBeGreaterThan(50); // not vacuous: many runs reach a refusal
  });
});
