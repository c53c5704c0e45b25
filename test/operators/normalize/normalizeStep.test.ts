import * as E from "fp-ts/Either";
import { initialNormalizerState, normalizeStep } from "../../../src/operators/normalize/normalizeStep";
import { ProtocolError } from "../../../src/operators/ProtocolError";
import { rows } from "./rows";
import { RF, TMC, TME, TMS, counter, runSteps, snapshotState, txc } from "./notation";

describe("normalizeStep: docs/rules.md#edge-cases rows 50–68 and rules C1–C13", () => {
  it.each(rows.map((row) => [row.name, row] as const))("%s", (_name, row) => {
    expect(runSteps(row.input).output).toStrictEqual(row.expected);
  });

  it("covers every chunk row of §8 and every rule C1–C13", () => {
    const names = rows.map((row) => row.name);
    for (let n = 50; n <= 68; n++) expect(names.some((name) => name.startsWith(`#${n} `))).toBe(true);
    for (let c = 1; c <= 13; c++) expect(names.some((name) => name.startsWith(`C${c} `))).toBe(true);
  });
});

describe("normalizeStep: rejections", () => {
  const rejection = (input: Parameters<typeof runSteps>[0]): ProtocolError => {
    let state = initialNormalizerState();
    for (const event of input) {
      const result = normalizeStep(state, event);
      if (E.isLeft(result)) return result.left;
      state = result.right.state;
    }
    throw new Error("expected a rejection");
  };

  it("C2 names the id, both owners and what was expected", () => {
    const error = rejection([txc({ messageId: "m1", subagentRunId: "s1", delta: "A" }), txc({ messageId: "m1", subagentRunId: "s2" })]);
    expect(error).toBeInstanceOf(ProtocolError);
    expect([error.code, error.rule]).toEqual(["chunk", "C2"]);
    expect(error.message).toMatch(/"m1"/);
    expect(error.message).toMatch(/"s2"/);
    expect(error.message).toMatch(/subagent "s1"/);
  });

  it("C3 lists the candidate lanes", () => {
    const error = rejection([txc({ messageId: "m1", subagentRunId: "s1" }), txc({ messageId: "m2", subagentRunId: "s2" }), txc({ delta: "?" })]);
    expect([error.code, error.rule]).toEqual(["chunk", "C3"]);
    expect(error.message).toMatch(/"m1" in the lane of subagent "s1"/);
    expect(error.message).toMatch(/"m2" in the lane of subagent "s2"/);
  });

  it("C5 names the missing members", () => {
    const error = rejection([{ type: "TOOL_CALL_CHUNK", delta: "{" }]);
    expect([error.code, error.rule]).toEqual(["chunk", "C5"]);
    expect(error.message).toMatch(/toolCallId and toolCallName/);
  });

  it("a rejected chunk leaves the very same state object untouched", () => {
    const state = initialNormalizerState();
    const first = normalizeStep(state, txc({ messageId: "m1", subagentRunId: "s1", delta: "A" }));
    expect(E.isRight(first) && first.right.state).toBe(state);
    const before = snapshotState(state);
    expect(E.isLeft(normalizeStep(state, txc({ messageId: "m1", subagentRunId: "s2", delta: "B" })))).toBe(true);
    expect(snapshotState(state)).toEqual(before);
  });
});

describe("normalizeStep: THINKING_* become REASONING_*", () => {
  it("maps a whole thinking span with minted ids, untagged", () => {
    const { output } = runSteps(
      [
        { type: "THINKING_START", title: "plan" },
        { type: "THINKING_TEXT_MESSAGE_START" },
        { type: "THINKING_TEXT_MESSAGE_CONTENT", delta: "hm", timestamp: 7 },
        { type: "THINKING_TEXT_MESSAGE_END" },
        { type: "THINKING_END" },
      ],
      counter("u"),
    );
    expect(output).toStrictEqual([
      { type: "REASONING_START", messageId: "u1" },
      { type: "REASONING_MESSAGE_START", messageId: "u2", role: "reasoning" },
      { type: "REASONING_MESSAGE_CONTENT", messageId: "u2", delta: "hm", timestamp: 7 },
      { type: "REASONING_MESSAGE_END", messageId: "u2" },
      { type: "REASONING_END", messageId: "u1" },
    ]);
  });

  it("a THINKING event closes the parent's chunk lane only (C10 b)", () => {
    const { output } = runSteps(
      [txc({ messageId: "p1", delta: "A" }), txc({ messageId: "m1", subagentRunId: "s1", delta: "B" }), { type: "THINKING_START" }, RF()],
      counter("u"),
    );
    expect(output).toStrictEqual([
      TMS("p1"),
      TMC("p1", "A"),
      TMS("m1", "s1"),
      TMC("m1", "B", "s1"),
      TME("p1"),
      { type: "REASONING_START", messageId: "u1" },
      TME("m1", "s1"),
      RF(),
    ]);
  });

  it("RUN_STARTED forgets a thinking span left open by the previous run", () => {
    const { output } = runSteps(
      [{ type: "THINKING_START" }, RF(), { type: "RUN_STARTED", threadId: "t1", runId: "r2" }, { type: "THINKING_END" }],
      counter("u"),
    );
    expect(output.at(-1)).toStrictEqual({ type: "REASONING_END", messageId: "u2" });
  });
});

describe("normalizeStep: fields carried from the chunk", () => {
  it("timestamp goes on every event made from the chunk, rawEvent on the delta event only", () => {
    const { output } = runSteps([txc({ messageId: "m1", delta: "A", timestamp: 5, rawEvent: { p: 1 } }), RF()]);
    expect(output).toStrictEqual([
      { type: "TEXT_MESSAGE_START", messageId: "m1", role: "assistant", timestamp: 5 },
      { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "A", timestamp: 5, rawEvent: { p: 1 } },
      TME("m1"),
      RF(),
    ]);
  });

  it("state holds only what is open: closed lanes leave no trace", () => {
    const { state } = runSteps([txc({ messageId: "m1", subagentRunId: "s1" }), txc({ messageId: "m2", subagentRunId: "s2" }), RF()]);
    expect(snapshotState(state)).toEqual({ lanes: [], text: [], tool: [], reasoning: [], blocks: [], blocksPerOwner: [], reasoningOwners: [], thinking: {} });
  });
});

describe("normalizeStep: an event type unknown at run time", () => {
  it("passes through and closes nothing, leaving the reporting to the verifier", () => {
    const telepathy = { type: "TELEPATHY_START" } as unknown as Parameters<typeof normalizeStep>[1]; // not an Event on purpose
    const { output } = runSteps([txc({ messageId: "m1", delta: "A" }), telepathy, RF()]);
    expect(output).toStrictEqual([TMS("m1"), TMC("m1", "A"), telepathy, TME("m1"), RF()]);
  });
});
