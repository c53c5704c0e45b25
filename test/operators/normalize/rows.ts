/**
 * The normalizer's table: every chunk row of docs/rules.md#edge-cases (rows 50–68) and one example per rule
 * C1–C13, each with its exact expected output (`X(rule)` marks a rejection in place of the event).
 * Expected events are written out by hand with the builders in `notation.ts`, never computed by
 * the normalizer. `official` says whether `@ag-ui/client`'s transformChunks is expected to agree
 * (`"same"`) or why it does not (a deliberate difference; see normalizeChunks.interop.test.ts).
 */
import type { Event } from "../../../src/protocol/events";
import {
  AD, AS, CUS, MS, RAW, RE, REND, REV, RF, RMC, RME, RMS, RS, RST, SAE, SAF, SAS, SS, STF, STS,
  TCA, TCE, TCS, TCR, SD, TMC, TME, TMS, X, bracketClose, bracketOpen, rxc, tlc, txc, type Rejection,
} from "./notation";

export interface Row {
  readonly name: string;
  readonly input: readonly Event[];
  readonly expected: readonly (Event | Rejection)[];
  /**
   * `"same"`: transformChunks gives exactly these events. `"bracketed"`: it gives them without the
   * blocks our normalizer opens around chunk reasoning messages (R22; 1.0.0 does not bracket, a
   * listed difference). Otherwise why it differs.
   */
  readonly official: "same" | "bracketed" | { readonly differs: string };
}

/** A SUBAGENT_FINISHED without its id, as an in-process producer might emit it (row 60). */
const safWithoutId = { type: "SUBAGENT_FINISHED" } as unknown as Event; // deliberately breaks the static type

export const rows: readonly Row[] = [
  // ─── docs/rules.md#edge-cases rows 50–68 ───
  {
    name: "#50 TXC(m1 A), RF",
    input: [txc({ messageId: "m1", delta: "A" }), RF()],
    expected: [TMS("m1"), TMC("m1", "A"), TME("m1"), RF()],
    official: "same",
  },
  {
    name: "#51 TXC(m1 A), TXC(m2 B), RF",
    input: [txc({ messageId: "m1", delta: "A" }), txc({ messageId: "m2", delta: "B" }), RF()],
    expected: [TMS("m1"), TMC("m1", "A"), TME("m1"), TMS("m2"), TMC("m2", "B"), TME("m2"), RF()],
    official: "same",
  },
  {
    name: "#52 TXC(m1), RF: START and END, no CONTENT",
    input: [txc({ messageId: "m1" }), RF()],
    expected: [TMS("m1"), TME("m1"), RF()],
    official: "same",
  },
  {
    name: "#52 TLC(t1 name=f), RF: START and END, no ARGS",
    input: [tlc({ toolCallId: "t1", toolCallName: "f" }), RF()],
    expected: [TCS("t1", "f"), TCE("t1"), RF()],
    official: "same",
  },
  {
    name: "#53 TXC(\"A\") with nothing open",
    input: [txc({ delta: "A" })],
    expected: [X("C5")],
    official: "same",
  },
  {
    name: "#53 TLC(t1 \"x\") without a name",
    input: [tlc({ toolCallId: "t1", delta: "x" })],
    expected: [X("C5")],
    official: "same",
  },
  {
    name: "#54 tagged lanes; TXC(@s1 C) continues m1; RF closes in lane order",
    input: [txc({ messageId: "m1", subagentRunId: "s1", delta: "A" }), txc({ messageId: "m2", subagentRunId: "s2", delta: "B" }), txc({ subagentRunId: "s1", delta: "C" }), RF()],
    expected: [
      TMS("m1", "s1"), TMC("m1", "A", "s1"),
      TMS("m2", "s2"), TMC("m2", "B", "s2"),
      TMC("m1", "C", "s1"),
      TME("m1", "s1"), TME("m2", "s2"), RF(),
    ],
    official: "same",
  },
  {
    name: "#55 untagged TXC(C) with two subagent text lanes is ambiguous",
    input: [txc({ messageId: "m1", subagentRunId: "s1", delta: "A" }), txc({ messageId: "m2", subagentRunId: "s2", delta: "B" }), txc({ delta: "C" })],
    expected: [TMS("m1", "s1"), TMC("m1", "A", "s1"), TMS("m2", "s2"), TMC("m2", "B", "s2"), X("C3")],
    official: "same",
  },
  {
    name: "#56 parent first: TXC(Q) goes to p1",
    input: [txc({ messageId: "m1", subagentRunId: "s1", delta: "A" }), txc({ messageId: "p1", delta: "P" }), txc({ delta: "Q" })],
    expected: [TMS("m1", "s1"), TMC("m1", "A", "s1"), TMS("p1"), TMC("p1", "P"), TMC("p1", "Q")],
    official: "same",
  },
  {
    name: "#57 the only text lane: TXC(B) goes to m1; the parent's tool call is untouched",
    input: [tlc({ toolCallId: "c1", toolCallName: "f", delta: "{" }), txc({ messageId: "m1", subagentRunId: "s1", delta: "A" }), txc({ delta: "B" })],
    expected: [TCS("c1", "f"), TCA("c1", "{"), TMS("m1", "s1"), TMC("m1", "A", "s1"), TMC("m1", "B", "s1")],
    official: "same",
  },
  {
    name: "#58 TXC(m1@s2) without delta naming m1 open in s1",
    input: [txc({ messageId: "m1", subagentRunId: "s1", delta: "A" }), txc({ messageId: "m1", subagentRunId: "s2" })],
    expected: [TMS("m1", "s1"), TMC("m1", "A", "s1"), X("C2")],
    official: "same",
  },
  {
    name: "#58 TXC(p1@s1 B) naming the parent's open p1",
    input: [txc({ messageId: "p1", delta: "A" }), txc({ messageId: "p1", subagentRunId: "s1", delta: "B" })],
    expected: [TMS("p1"), TMC("p1", "A"), X("C2")],
    official: "same",
  },
  {
    name: "#59 SAF(s1) closes only s1's lane, before SAF",
    input: [txc({ messageId: "m1", subagentRunId: "s1", delta: "A" }), txc({ messageId: "m2", subagentRunId: "s2", delta: "B" }), SAF("s1"), txc({ subagentRunId: "s2", delta: "C" }), RF()],
    expected: [
      TMS("m1", "s1"), TMC("m1", "A", "s1"), TMS("m2", "s2"), TMC("m2", "B", "s2"),
      TME("m1", "s1"), SAF("s1"),
      TMC("m2", "C", "s2"), TME("m2", "s2"), RF(),
    ],
    official: "same",
  },
  {
    name: "#60 SAF without an id closes nothing",
    input: [txc({ messageId: "p1", delta: "A" }), safWithoutId, txc({ delta: "B" })],
    expected: [TMS("p1"), TMC("p1", "A"), safWithoutId, TMC("p1", "B")],
    official: "same",
  },
  {
    name: "#60 STS(w@s1) does not close the parent's lane",
    input: [txc({ messageId: "p1", delta: "A" }), STS("w", "s1"), txc({ delta: "B" })],
    expected: [TMS("p1"), TMC("p1", "A"), STS("w", "s1"), TMC("p1", "B")],
    official: "same",
  },
  {
    name: "#61 a parent's explicit message never closes a subagent's chunk stream",
    input: [txc({ messageId: "m1", subagentRunId: "s1", delta: "A" }), TMS("p1"), TME("p1"), txc({ subagentRunId: "s1", delta: "B" }), RF()],
    expected: [TMS("m1", "s1"), TMC("m1", "A", "s1"), TMS("p1"), TME("p1"), TMC("m1", "B", "s1"), TME("m1", "s1"), RF()],
    official: "same",
  },
  ...(
    [
      ["RAW@s1", RAW("s1")],
      ["AS", AS("a1")],
      ["AD", AD("a1")],
      ["REV", REV("m1")],
      ["SAS", SAS("s1")],
    ] as const
  ).map(([label, event]): Row => ({
    name: `#62 ${label} does not close the lane`,
    input: [txc({ messageId: "m1", subagentRunId: "s1", delta: "A" }), event, txc({ subagentRunId: "s1", delta: "B" })],
    expected: [TMS("m1", "s1"), TMC("m1", "A", "s1"), event, TMC("m1", "B", "s1")],
    official: "same",
  })),
  {
    name: "#63 SS closes the parent's lane; the id-less chunk after it is rejected (C13)",
    input: [txc({ messageId: "p1", delta: "A" }), SS(), txc({ delta: "B" })],
    expected: [TMS("p1"), TMC("p1", "A"), TME("p1"), SS(), X("C5")],
    official: "same",
  },
  {
    name: "#64 one stream per lane: reasoning in s1 closes s1's text",
    input: [txc({ messageId: "m1", subagentRunId: "s1", delta: "A" }), rxc({ messageId: "r1", subagentRunId: "s1", delta: "R" }), RF()],
    expected: [TMS("m1", "s1"), TMC("m1", "A", "s1"), TME("m1", "s1"), ...bracketOpen("r1", "s1"), RMC("r1", "R", "s1"), ...bracketClose("r1", "s1"), RF()],
    official: "bracketed",
  },
  {
    name: "#65 two reasoning messages, owners s1 and s2; \"\" is a real id",
    input: [rxc({ messageId: "r", subagentRunId: "s1", delta: "A" }), rxc({ messageId: "", subagentRunId: "s2", delta: "B" }), RF()],
    expected: [
      ...bracketOpen("r", "s1"), RMC("r", "A", "s1"), ...bracketOpen("", "s2"), RMC("", "B", "s2"),
      ...bracketClose("r", "s1"), ...bracketClose("", "s2"), RF(),
    ],
    official: "bracketed",
  },
  {
    name: "#66 metadata goes on START and CONTENT of its chunk, never on the END",
    input: [txc({ messageId: "m1", delta: "A", metadata: { u: 1 } }), txc({ messageId: "m2", delta: "B", metadata: { v: 2 } })],
    expected: [
      TMS("m1", undefined, { metadata: { u: 1 } }), TMC("m1", "A", undefined, { u: 1 }),
      TME("m1"),
      TMS("m2", undefined, { metadata: { v: 2 } }), TMC("m2", "B", undefined, { v: 2 }),
    ],
    official: "same",
  },
  {
    name: "#67 a metadata-only continuation becomes an empty CONTENT",
    input: [txc({ messageId: "m1", delta: "A" }), txc({ metadata: { usage: { out: 3 } } })],
    expected: [TMS("m1"), TMC("m1", "A"), TMC("m1", "", undefined, { usage: { out: 3 } })],
    official: "same",
  },
  {
    name: "#67 an empty continuation emits nothing",
    input: [txc({ messageId: "m1", delta: "A" }), txc()],
    expected: [TMS("m1"), TMC("m1", "A")],
    official: "same",
  },
  {
    name: "#68 RS closes all lanes in lane order",
    input: [RS(), txc({ messageId: "m2", subagentRunId: "s2" }), txc({ messageId: "p1" }), txc({ messageId: "m1", subagentRunId: "s1" }), RS()],
    expected: [RS(), TMS("m2", "s2"), TMS("p1"), TMS("m1", "s1"), TME("m2", "s2"), TME("p1"), TME("m1", "s1"), RS()],
    official: "same",
  },

  // ─── One example per rule C1–C13 ───
  {
    name: "C1 a lane that closes and reopens moves to the end of lane order",
    input: [txc({ messageId: "a", subagentRunId: "s1", delta: "x" }), txc({ messageId: "b", delta: "y" }), txc({ messageId: "c", subagentRunId: "s1", delta: "z" }), RE()],
    expected: [
      TMS("a", "s1"), TMC("a", "x", "s1"), TMS("b"), TMC("b", "y"),
      TME("a", "s1"), TMS("c", "s1"), TMC("c", "z", "s1"),
      TME("b"), TME("c", "s1"), RE(),
    ],
    official: "same",
  },
  {
    name: "C1 a null tag reads as the parent",
    input: [txc({ messageId: "p1", delta: "A" }), { ...txc({ delta: "B" }), subagentRunId: null } as unknown as Event, RF()], // null breaks the static type on purpose
    expected: [TMS("p1"), TMC("p1", "A"), TMC("p1", "B"), TME("p1"), RF()],
    official: { differs: "the official client copies the null tag onto the CONTENT it emits" },
  },
  {
    name: "C2 an untagged chunk naming a subagent's open id continues it",
    input: [txc({ messageId: "m1", subagentRunId: "s1", delta: "A" }), txc({ messageId: "m1", delta: "B" })],
    expected: [TMS("m1", "s1"), TMC("m1", "A", "s1"), TMC("m1", "B", "s1")],
    official: "same",
  },
  {
    name: "C2 violation on a tool call, without delta",
    input: [tlc({ toolCallId: "t1", toolCallName: "f", subagentRunId: "s1" }), tlc({ toolCallId: "t1", subagentRunId: "s2" })],
    expected: [TCS("t1", "f", "s1"), X("C2")],
    official: "same",
  },
  {
    name: "C3 violation: ambiguous reasoning chunk",
    input: [rxc({ messageId: "r1", subagentRunId: "s1", delta: "a" }), rxc({ messageId: "r2", subagentRunId: "", delta: "b" }), rxc({ delta: "c" })],
    expected: [...bracketOpen("r1", "s1"), RMC("r1", "a", "s1"), ...bracketOpen("r2", ""), RMC("r2", "b", ""), X("C3")],
    official: "bracketed",
  },
  {
    name: "C4 an empty-string id is present: same id continues, and a different kind with the same id opens",
    input: [txc({ messageId: "", delta: "A" }), txc({ messageId: "", delta: "B" }), tlc({ toolCallId: "", toolCallName: "f", delta: "{}" }), RF()],
    expected: [TMS(""), TMC("", "A"), TMC("", "B"), TME(""), TCS("", "f"), TCA("", "{}"), TCE(""), RF()],
    official: "same",
  },
  {
    name: "C5 violation: a rejected opener leaves the lane as it was",
    input: [txc({ messageId: "m1", delta: "A" }), tlc({ toolCallId: "t1", delta: "{" }), txc({ delta: "B" }), RF()],
    expected: [TMS("m1"), TMC("m1", "A"), X("C5"), TMC("m1", "B"), TME("m1"), RF()],
    official: "same",
  },
  {
    name: "C6 synthesized STARTs; a continuation may repeat an opener field with the same value",
    input: [
      txc({ messageId: "m1", role: "user", name: "bob", metadata: { k: 1 } }),
      txc({ messageId: "m1", role: "user", name: "bob", delta: "x" }),
      tlc({ toolCallId: "t1", toolCallName: "f", parentMessageId: "m0", subagentRunId: "s1", metadata: { k: 2 } }),
      tlc({ toolCallId: "t1", toolCallName: "f", parentMessageId: "m0", delta: "{}" }),
      rxc({ messageId: "r1", subagentRunId: "s2", metadata: { k: 3 } }),
    ],
    expected: [
      TMS("m1", undefined, { role: "user", name: "bob", metadata: { k: 1 } }),
      TMC("m1", "x"),
      TCS("t1", "f", "s1", { parentMessageId: "m0", metadata: { k: 2 } }),
      TCA("t1", "{}", "s1"),
      ...bracketOpen("r1", "s2", { k: 3 }),
    ],
    official: "bracketed",
  },
  {
    name: "C6 a continuation claiming another role is rejected; a message opened without one is assistant",
    input: [txc({ messageId: "m1", delta: "a" }), txc({ role: "user", delta: "b" }), txc({ role: "assistant", delta: "c" }), RF()],
    expected: [TMS("m1"), TMC("m1", "a"), X("C6"), TMC("m1", "c"), TME("m1"), RF()],
    official: "same",
  },
  {
    name: "C6 a conflicting name is rejected, and so is a name the opener did not give",
    input: [txc({ messageId: "m1", name: "bob", delta: "a" }), txc({ messageId: "m1", name: "eve", delta: "b" }), txc({ messageId: "m2", delta: "c" }), txc({ name: "x" })],
    expected: [TMS("m1", undefined, { name: "bob" }), TMC("m1", "a"), X("C6"), TME("m1"), TMS("m2"), TMC("m2", "c"), X("C6")],
    official: "same",
  },
  {
    name: "C6 a conflicting toolCallName or parentMessageId is rejected",
    input: [tlc({ toolCallId: "t1", toolCallName: "f", delta: "{" }), tlc({ toolCallId: "t1", toolCallName: "g", delta: "x" }), tlc({ parentMessageId: "m9", delta: "y" }), tlc({ delta: "}" }), RF()],
    expected: [TCS("t1", "f"), TCA("t1", "{"), X("C6"), X("C6"), TCA("t1", "}"), TCE("t1"), RF()],
    official: "same",
  },
  {
    name: "C7 an empty delta is content and does not close a reasoning message",
    input: [rxc({ messageId: "r1", delta: "" }), rxc({ messageId: "r1", delta: "b" }), tlc({ toolCallId: "t1", toolCallName: "f", delta: "" }), RF()],
    expected: [...bracketOpen("r1"), RMC("r1", ""), RMC("r1", "b"), ...bracketClose("r1"), TCS("t1", "f"), TCA("t1", ""), TCE("t1"), RF()],
    official: "bracketed",
  },
  {
    name: "C8 a rawEvent without a delta rides an empty CONTENT/ARGS, on an opening chunk and on a continuation",
    input: [
      tlc({ toolCallId: "t1", toolCallName: "f", rawEvent: { provider: 1 } }),
      tlc({ rawEvent: { provider: 2 } }),
      txc({ messageId: "m1", subagentRunId: "s1", rawEvent: { provider: 3 } }),
      rxc({ messageId: "r1", subagentRunId: "s2", delta: "a" }),
      rxc({ subagentRunId: "s2", rawEvent: { provider: 4 } }),
    ],
    expected: [
      TCS("t1", "f"),
      { ...TCA("t1", ""), rawEvent: { provider: 1 } },
      { ...TCA("t1", ""), rawEvent: { provider: 2 } },
      TMS("m1", "s1"),
      { ...TMC("m1", "", "s1"), rawEvent: { provider: 3 } },
      ...bracketOpen("r1", "s2"),
      RMC("r1", "a", "s2"),
      { ...RMC("r1", "", "s2"), rawEvent: { provider: 4 } },
    ],
    official: "bracketed",
  },
  {
    name: "C8 an opener without delta emits the START only; metadata alone continues as an empty ARGS with the opener's tag",
    input: [tlc({ toolCallId: "t1", toolCallName: "f", subagentRunId: "s1" }), tlc({ toolCallId: "t1", metadata: { usage: 1 } }), tlc({ toolCallId: "t1" })],
    expected: [TCS("t1", "f", "s1"), TCA("t1", "", "s1", { usage: 1 })],
    official: "same",
  },
  {
    name: "C9 the END carries the opener's tag and never metadata, even the trigger's",
    input: [txc({ messageId: "m1", subagentRunId: "s1", delta: "A", metadata: { u: 1 } }), txc({ messageId: "m2", subagentRunId: "s1", metadata: { v: 2 } }), SAE("s1")],
    expected: [
      TMS("m1", "s1", { metadata: { u: 1 } }), TMC("m1", "A", "s1", { u: 1 }),
      TME("m1", "s1"), TMS("m2", "s1", { metadata: { v: 2 } }),
      TME("m2", "s1"), SAE("s1"),
    ],
    official: "same",
  },
  {
    name: "C10 explicit events close their own lane only; RE and MS close all",
    input: [
      txc({ messageId: "p1", delta: "A" }),
      txc({ messageId: "m1", subagentRunId: "s1", delta: "B" }),
      TMS("p2"), TME("p2"),
      CUS("s1"),
      tlc({ toolCallId: "t1", toolCallName: "f" }),
      MS(),
      rxc({ messageId: "r1", subagentRunId: "s2" }),
      RE(),
    ],
    expected: [
      TMS("p1"), TMC("p1", "A"),
      TMS("m1", "s1"), TMC("m1", "B", "s1"),
      TME("p1"), TMS("p2"), TME("p2"),
      TME("m1", "s1"), CUS("s1"),
      TCS("t1", "f"),
      TCE("t1"), MS(),
      ...bracketOpen("r1", "s2"),
      ...bracketClose("r1", "s2"), RE(),
    ],
    official: "bracketed",
  },
  {
    name: "C10 TOOL_CALL_RESULT, STATE_DELTA, STEP_* and reasoning events close their own lane",
    input: [
      tlc({ toolCallId: "t1", toolCallName: "f", subagentRunId: "s1" }), TCR("r1", "t1", "s1"),
      txc({ messageId: "m1", subagentRunId: "s1" }), SD("s1"),
      txc({ messageId: "m2" }), STS("w"),
      txc({ messageId: "m3" }), RST("x"),
    ],
    expected: [
      TCS("t1", "f", "s1"), TCE("t1", "s1"), TCR("r1", "t1", "s1"),
      TMS("m1", "s1"), TME("m1", "s1"), SD("s1"),
      TMS("m2"), TME("m2"), STS("w"),
      TMS("m3"), TME("m3"), RST("x"),
    ],
    official: "same",
  },
  {
    name: "C11 no END when the input ends",
    input: [txc({ messageId: "m1", delta: "A" }), tlc({ toolCallId: "t1", toolCallName: "f", subagentRunId: "s1", delta: "{" })],
    expected: [TMS("m1"), TMC("m1", "A"), TCS("t1", "f", "s1"), TCA("t1", "{", "s1")],
    official: "same",
  },
  {
    name: "C12 all three chunk kinds come out explicit",
    input: [txc({ messageId: "m1", delta: "a" }), tlc({ toolCallId: "t1", toolCallName: "f", parentMessageId: "m1", delta: "{}" }), rxc({ messageId: "r1", delta: "hm" }), RF()],
    expected: [
      TMS("m1"), TMC("m1", "a"), TME("m1"), TCS("t1", "f", undefined, { parentMessageId: "m1" }), TCA("t1", "{}"), TCE("t1"),
      ...bracketOpen("r1"), RMC("r1", "hm"), ...bracketClose("r1"), RF(),
    ],
    official: "bracketed",
  },
  {
    name: "C13 an untagged CUS or STF ends the parent's chunk message",
    input: [txc({ messageId: "p1", delta: "A" }), CUS(), txc({ delta: "B" }), txc({ messageId: "p2", delta: "C" }), STF("w"), txc({ delta: "D" })],
    expected: [TMS("p1"), TMC("p1", "A"), TME("p1"), CUS(), X("C5"), TMS("p2"), TMC("p2", "C"), TME("p2"), STF("w"), X("C5")],
    official: "same",
  },

  // ─── R22: a reasoning message opens inside a block of its owner, so the normalizer brackets what it synthesizes ───
  {
    name: "R22 a chunk message gets a block of its own id, closed right after its END, here by RUN_FINISHED",
    input: [rxc({ messageId: "r1", delta: "a" }), RF()],
    expected: [...bracketOpen("r1"), RMC("r1", "a"), ...bracketClose("r1"), RF()],
    official: "bracketed",
  },
  {
    name: "R22 closed by a new id in the lane, the next message gets its own block",
    input: [rxc({ messageId: "r1", delta: "a" }), rxc({ messageId: "r2", delta: "b" }), RF()],
    expected: [...bracketOpen("r1"), RMC("r1", "a"), ...bracketClose("r1"), ...bracketOpen("r2"), RMC("r2", "b"), ...bracketClose("r2"), RF()],
    official: "bracketed",
  },
  {
    name: "R22 closed by an explicit event of its lane; another lane's explicit event closes nothing",
    input: [rxc({ messageId: "r1", subagentRunId: "s1", delta: "a" }), CUS(), rxc({ subagentRunId: "s1", delta: "b" }), STS("w", "s1"), RF()],
    expected: [...bracketOpen("r1", "s1"), RMC("r1", "a", "s1"), CUS(), RMC("r1", "b", "s1"), ...bracketClose("r1", "s1"), STS("w", "s1"), RF()],
    official: "bracketed",
  },
  {
    name: "R22 tagged lanes: every owner's message in a block of that owner, closed in lane order",
    input: [rxc({ messageId: "r1", subagentRunId: "s1", delta: "a" }), rxc({ messageId: "p1", delta: "b" }), rxc({ messageId: "r2", subagentRunId: "s2", delta: "c" }), RF()],
    expected: [
      ...bracketOpen("r1", "s1"), RMC("r1", "a", "s1"), ...bracketOpen("p1"), RMC("p1", "b"), ...bracketOpen("r2", "s2"), RMC("r2", "c", "s2"),
      ...bracketClose("r1", "s1"), ...bracketClose("p1"), ...bracketClose("r2", "s2"), RF(),
    ],
    official: "bracketed",
  },
  {
    name: "R22 inside an explicit block of its owner only the message is added",
    input: [RST("b"), rxc({ messageId: "r1", delta: "a" }), rxc({ messageId: "r2", delta: "c" }), REND("b"), RF()],
    expected: [RST("b"), RMS("r1"), RMC("r1", "a"), RME("r1"), RMS("r2"), RMC("r2", "c"), RME("r2"), REND("b"), RF()],
    official: "same",
  },
  {
    name: "R22 the parent's block does not hold a subagent's chunk message, which gets its own",
    input: [RST("b"), rxc({ messageId: "r1", subagentRunId: "s1", delta: "a" }), REND("b"), RF()],
    expected: [RST("b"), ...bracketOpen("r1", "s1"), RMC("r1", "a", "s1"), REND("b"), ...bracketClose("r1", "s1"), RF()],
    official: "bracketed",
  },
  {
    name: "R22 an open block of the message's own id holds it, whoever's lane the chunk is in",
    input: [RST("r1", "s1"), rxc({ messageId: "r1", delta: "a" }), REND("r1", "s1"), RF()],
    expected: [RST("r1", "s1"), RMS("r1"), RMC("r1", "a"), REND("r1", "s1"), RME("r1"), RF()],
    official: "same",
  },
  {
    name: "R22 the owner is the verifier's: the parent reopening, untagged, an id a subagent opened needs that subagent's block",
    input: [rxc({ messageId: "a", subagentRunId: "s1", delta: "x" }), STS("w", "s1"), RST("p"), rxc({ messageId: "a", delta: "y" }), RF()],
    expected: [
      ...bracketOpen("a", "s1"), RMC("a", "x", "s1"), ...bracketClose("a", "s1"), STS("w", "s1"),
      RST("p"), ...bracketOpen("a"), RMC("a", "y"), ...bracketClose("a"), RF(),
    ],
    official: "bracketed",
  },
  {
    name: "R22 a MESSAGES_SNAPSHOT's reasoning message keeps its owner when a chunk reopens it untagged",
    input: [MS([{ id: "r", role: "reasoning", content: "", subagentRunId: "s1" }]), RST("p"), rxc({ messageId: "r", delta: "y" }), rxc({ messageId: "q", delta: "z" }), RF()],
    expected: [
      MS([{ id: "r", role: "reasoning", content: "", subagentRunId: "s1" }]), RST("p"), ...bracketOpen("r"), RMC("r", "y"), ...bracketClose("r"),
      RMS("q"), RMC("q", "z"), RME("q"), RF(),
    ],
    official: "bracketed",
  },
  {
    name: "R22 the block gets a minted id when an explicit block of the message's id is another owner's",
    input: [RST("r1"), MS([{ id: "r1", role: "reasoning", content: "", subagentRunId: "s1" }]), rxc({ messageId: "r1", subagentRunId: "s1", delta: "a" }), RF()],
    expected: [
      RST("r1"), MS([{ id: "r1", role: "reasoning", content: "", subagentRunId: "s1" }]),
      RST("id-1", "s1"), RMS("r1", "s1"), RMC("r1", "a", "s1"), RME("r1", "s1"), REND("id-1", "s1"), RF(),
    ],
    official: { differs: "bracketed, by a block whose id is minted (a snapshot gave r1 to s1 while the parent's block r1 is open)" },
  },
  {
    name: "R22 an explicit REASONING_START naming the block the normalizer opened ends that block first; the message goes on",
    input: [rxc({ messageId: "r1", subagentRunId: "s1", delta: "a" }), RST("r1"), rxc({ messageId: "r1", delta: "b" }), REND("r1"), RF()],
    expected: [
      ...bracketOpen("r1", "s1"), RMC("r1", "a", "s1"),
      REND("r1", "s1"), RST("r1"), RMC("r1", "b", "s1"),
      REND("r1"), RME("r1", "s1"), RF(),
    ],
    official: { differs: "bracketed; and 1.0.0 has no block of its own to end" },
  },
  {
    name: "R22 an explicit REASONING_END naming the block the normalizer opened ends it; the normalizer does not end it again",
    input: [rxc({ messageId: "r1", subagentRunId: "s1", delta: "a" }), REND("r1"), rxc({ subagentRunId: "s1", delta: "b" }), RF()],
    expected: [...bracketOpen("r1", "s1"), RMC("r1", "a", "s1"), REND("r1"), RMC("r1", "b", "s1"), RME("r1", "s1"), RF()],
    official: { differs: "bracketed (the producer's REASONING_END closes the block 1.0.0 never opened)" },
  },
  {
    name: "R22 after the explicit block closed, the next chunk message is bracketed again",
    input: [RST("b"), rxc({ messageId: "r1", delta: "a" }), REND("b"), rxc({ messageId: "r2", delta: "c" }), RF()],
    expected: [RST("b"), RMS("r1"), RMC("r1", "a"), RME("r1"), REND("b"), ...bracketOpen("r2"), RMC("r2", "c"), ...bracketClose("r2"), RF()],
    official: "bracketed",
  },
  {
    name: "R22 RUN_STARTED forgets the blocks the previous run left open",
    input: [RS(), RST("b"), RE(), RS(), rxc({ messageId: "r1", delta: "a" }), RF()],
    expected: [RS(), RST("b"), RE(), RS(), ...bracketOpen("r1"), RMC("r1", "a"), ...bracketClose("r1"), RF()],
    official: "bracketed",
  },
  {
    name: "R22 a chunk message inside a THINKING step opens in the block the step became",
    input: [{ type: "THINKING_START" }, rxc({ messageId: "r1", delta: "a" }), { type: "THINKING_END" }, RF()],
    expected: [RST("id-1"), RMS("r1"), RMC("r1", "a"), RME("r1"), REND("id-1"), RF()],
    official: { differs: "THINKING_* are mapped here, in the official client by a middleware before transformChunks (see the differences)" },
  },
  {
    name: "R22 THINKING_END ends a thinking message still open before the block",
    input: [{ type: "THINKING_START" }, { type: "THINKING_TEXT_MESSAGE_START" }, { type: "THINKING_TEXT_MESSAGE_CONTENT", delta: "hm" }, { type: "THINKING_END" }, RF()],
    expected: [RST("id-1"), RMS("id-2"), RMC("id-2", "hm"), RME("id-2"), REND("id-1"), RF()],
    official: { differs: "as above; and 1.0.0's mapping leaves the message open, so its verifier then refuses RUN_FINISHED" },
  },
];
