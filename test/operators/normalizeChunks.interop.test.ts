/**
 * Cross-check against the official normalizer, `transformChunks` of `@ag-ui/client` 1.0.0: the same
 * rows run through both, in strict mode (the official one has no other), must give the same
 * events, deep-equal, and fail at the same chunk; rows marked `"bracketed"` must give the same
 * events once the reasoning blocks our normalizer opens around chunk messages are taken out (R22).
 * The deliberate differences are listed below, each with the input that shows it and what each
 * side does.
 */
import { transformChunks } from "@ag-ui/client";
import { from } from "rxjs";
import { normalizeChunks } from "../../src/operators/normalizeChunks";
import type { Event } from "../../src/protocol/events";
import { rows } from "./normalize/rows";
import { RF, RMC, RST, TMC, TME, TMS, bracketClose, bracketOpen, counter, rxc, tlc, txc, withoutBrackets } from "./normalize/notation";

interface Outcome {
  readonly events: unknown[];
  readonly failed: boolean;
}

type OfficialInput = Parameters<ReturnType<typeof transformChunks>>[0];

function official(input: readonly Event[]): Outcome {
  const events: unknown[] = [];
  let failed = false;
  // Our events are plain AG-UI objects; the official types spell `type` as an enum and use their own rxjs copy.
  const source = from(input) as unknown as OfficialInput;
  transformChunks()(source).subscribe({ next: (e: unknown) => events.push(e), error: () => (failed = true) });
  return { events, failed };
}

function ours(input: readonly Event[], newId = counter()): Outcome {
  const events: unknown[] = [];
  let failed = false;
  from(input)
    .pipe(normalizeChunks({ newId }))
    .subscribe({ next: (e) => events.push(e), error: () => (failed = true) });
  return { events, failed };
}

beforeAll(() => {
  process.env.SUPPRESS_TRANSFORMATION_WARNINGS = "true";
});

describe("the chunk rows agree with @ag-ui/client transformChunks (strict)", () => {
  const compared = rows.filter((row) => row.official === "same" || row.official === "bracketed");
  it("compares most rows", () => expect(compared.length).toBeGreaterThan(rows.length - 8));

  it.each(compared.map((row) => [`${row.name}${row.official === "bracketed" ? " (bracketed)" : ""}`, row] as const))("%s", (_name, row) => {
    const theirs = official(row.input);
    const mine = ours(row.input);
    if (row.official === "bracketed") {
      expect({ ...mine, events: withoutBrackets(mine.events) }).toStrictEqual(theirs);
      expect(mine.events).not.toStrictEqual(theirs.events); // the row really shows the difference
    } else {
      expect(mine).toStrictEqual(theirs);
    }
    // The row's own expectation is exact; the official run must also have stopped where we reject first.
    const firstRejection = row.expected.findIndex((item) => "rejected" in item);
    expect(theirs.failed).toBe(firstRejection !== -1);
  });
});

/**
 * Deliberate differences from transformChunks, and why. Each row runs both and asserts what each
 * side does, so a change on either side shows up here.
 */
const differences: readonly {
  readonly what: string;
  readonly why: string;
  readonly input: readonly Event[];
  readonly official: (outcome: Outcome) => void;
  readonly ours: (outcome: Outcome) => void;
}[] = [
  {
    what: "a null subagentRunId on a continuation",
    why: "docs/rules.md#C1: null reads as the parent; our output is strict and never carries null (docs/architecture.md#protocol-layer)",
    input: [txc({ messageId: "p1", delta: "A" }), { ...txc({ delta: "B" }), subagentRunId: null } as unknown as Event], // null on purpose
    official: (o) => expect(o.events[2]).toStrictEqual({ type: "TEXT_MESSAGE_CONTENT", messageId: "p1", delta: "B", subagentRunId: null }),
    ours: (o) => expect(o.events[2]).toStrictEqual(TMC("p1", "B")),
  },
  {
    what: "the chunk's timestamp",
    why: "decision: the events made from a chunk happened when it did (the official client drops it)",
    input: [txc({ messageId: "m1", delta: "A", timestamp: 5 })],
    official: (o) => expect(o.events).toStrictEqual([TMS("m1"), TMC("m1", "A")]),
    ours: (o) =>
      expect(o.events).toStrictEqual([
        { ...TMS("m1"), timestamp: 5 },
        { ...TMC("m1", "A"), timestamp: 5 },
      ]),
  },
  {
    what: "members the chunk schema does not declare",
    why: "decision: the output is typed; undeclared members of a chunk have no place on the explicit events",
    input: [{ ...txc({ messageId: "m1", delta: "A" }), extra: 1 } as Event], // an extra member on purpose
    official: (o) => expect(o.events[1]).toStrictEqual({ ...TMC("m1", "A"), extra: 1 }),
    ours: (o) => expect(o.events[1]).toStrictEqual(TMC("m1", "A")),
  },
  {
    what: "THINKING_* events",
    why: "docs/wire.md#7: the official client maps them in a middleware before transformChunks, which passes them through; ours maps them here, as explicit parent events (C10 b)",
    input: [txc({ messageId: "p1", delta: "A" }), { type: "THINKING_START" }, RF()],
    official: (o) => expect(o.events).toStrictEqual([TMS("p1"), TMC("p1", "A"), { type: "THINKING_START" }, TME("p1"), RF()]),
    ours: (o) => expect(o.events).toStrictEqual([TMS("p1"), TMC("p1", "A"), TME("p1"), { type: "REASONING_START", messageId: "id-1" }, RF()]),
  },
  {
    what: "a reasoning chunk message is bracketed by a block of its own id",
    why:
      "docs/rules.md#R22 (revised, issue #14 A4): a reasoning message opens only inside a reasoning block of its owner, and the normalizer's output must itself be valid (docs/rules.md#chunks). " +
      "So a REASONING_MESSAGE_CHUNK opening a message whose owner has no block open gets REASONING_START (the message's id, its tag) before the START and REASONING_END right after the END; " +
      "inside an open block of its owner only the message is added. 1.0.0's transformChunks emits the message alone (its verifier does not require the block)",
    input: [rxc({ messageId: "r1", subagentRunId: "s1", delta: "a" }), RST("b"), rxc({ messageId: "r2", delta: "c" }), RF()],
    official: (o) =>
      expect(o.events).toStrictEqual([
        { type: "REASONING_MESSAGE_START", messageId: "r1", role: "reasoning", subagentRunId: "s1" },
        RMC("r1", "a", "s1"),
        RST("b"),
        { type: "REASONING_MESSAGE_START", messageId: "r2", role: "reasoning" },
        RMC("r2", "c"),
        { type: "REASONING_MESSAGE_END", messageId: "r1", subagentRunId: "s1" },
        { type: "REASONING_MESSAGE_END", messageId: "r2" },
        RF(),
      ]),
    ours: (o) =>
      expect(o.events).toStrictEqual([
        ...bracketOpen("r1", "s1"),
        RMC("r1", "a", "s1"),
        RST("b"),
        { type: "REASONING_MESSAGE_START", messageId: "r2", role: "reasoning" },
        RMC("r2", "c"),
        ...bracketClose("r1", "s1"),
        { type: "REASONING_MESSAGE_END", messageId: "r2" },
        RF(),
      ]),
  },
  {
    what: "a rejected chunk",
    why: "docs/rules.md#violations (decision): in report mode the chunk is reported in-band and dropped, and the lanes stay as they were; the official client only fails the run (our strict mode, compared above)",
    input: [txc({ messageId: "m1", delta: "A" }), tlc({ toolCallId: "t1", delta: "{" })],
    official: (o) => expect(o).toStrictEqual({ events: [TMS("m1"), TMC("m1", "A")], failed: true }),
    ours: (o) => expect(o).toStrictEqual({ events: [TMS("m1"), TMC("m1", "A")], failed: true }),
  },
];

describe("deliberate differences from @ag-ui/client transformChunks", () => {
  it.each(differences.map((d) => [d.what, d] as const))("%s", (_what, d) => {
    d.official(official(d.input));
    d.ours(ours(d.input));
  });
});
