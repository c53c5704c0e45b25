/**
 * The verifier's example tables: every ordering row of docs/rules.md#edge-cases (rows 1–49, one entry per
 * alternative of a row) and one example per rule R1–R45 (a violation where the rule can be
 * violated, its valid example where it cannot), plus issue #20's rules (docs/rules.md R7a, A16 and
 * R22's role check), each named after the AG-UI conformance stream it carries. Shared by the step
 * test and the cross-check against the official verifier.
 */
import type { Event } from "../../../src/protocol/events";
import type { ProtocolErrorCode } from "../../../src/operators/ProtocolError";
import { ev, outcome } from "../../../src/protocol/build";
import {
  AD,
  AS,
  CUS,
  MS,
  RAW,
  RE,
  REND,
  REV,
  RF,
  RMC,
  RME,
  RMS,
  RS,
  RST,
  SAE,
  SAF,
  SAS,
  SD,
  SS,
  STF,
  STS,
  TCA,
  TCE,
  TCR,
  TCS,
  TMC,
  TME,
  TMS,
  RUN,
  THREAD,
  msg,
  withField,
  withoutField,
} from "../../support/streams";

export interface Rejection {
  /** Index of the offending event; everything before it is delivered. */
  readonly at: number;
  readonly code: ProtocolErrorCode;
  readonly rule: string;
  /** Fragments the error message must contain (what was expected / the real owner / the open items). */
  readonly mentions?: readonly string[];
}

export interface VerifierCase {
  readonly name: string;
  readonly events: readonly Event[];
  /** Absent: the whole stream is valid and comes out unchanged. */
  readonly reject?: Rejection;
}

const x = (at: number, code: ProtocolErrorCode, rule: string, ...mentions: string[]): Rejection => ({ at, code, rule, mentions });

/** docs/rules.md#edge-cases rows 1–49. Row alternatives separated by "/" are suffixed a, b, c. */
export const ROWS: readonly VerifierCase[] = [
  { name: "row 1", events: [TMS("m1")], reject: x(0, "run-lifecycle", "R1", "RUN_STARTED or RUN_ERROR", "TEXT_MESSAGE_START") },
  { name: "row 2", events: [RE()] },
  { name: "row 3", events: [RS(), RS()], reject: x(1, "run-lifecycle", "R2") },
  { name: "row 4", events: [RS(), TMS("1"), TME("1"), RF(), TMS("2")], reject: x(4, "run-lifecycle", "R3", "after RUN_FINISHED") },
  { name: "row 5", events: [RS(), RF(), RE()] },
  { name: "row 6", events: [RS(), RE(), TMS("m1")], reject: x(2, "run-lifecycle", "R4", "after RUN_ERROR") },
  { name: "row 7", events: [RS(), TMS("m1"), TME("m1"), RF(), RS(), TMS("m2"), TME("m2"), RF(), RS(), RF()] },
  { name: "row 8", events: [RS(), TMS("1"), TME("1"), RF(), RS(), TMS("2"), RE(), RS(), TMS("2"), TME("2"), RF()] },
  { name: "row 9a", events: [RS(), TMC("m1")], reject: x(1, "text-message", "R15", "no text message m1 is open", "none open") },
  { name: "row 9b", events: [RS(), TMS("m1"), TMC("m2")], reject: x(2, "text-message", "R15", "TEXT_MESSAGE_CONTENT for m2", "open: m1") },
  { name: "row 10", events: [RS(), TMS("m1"), TMS("m1")], reject: x(2, "text-message", "R14", "already open") },
  { name: "row 11a", events: [RS(), TCA("t1")], reject: x(1, "tool-call", "R19") },
  { name: "row 11b", events: [RS(), TCS("t1"), TCS("t1")], reject: x(2, "tool-call", "R18") },
  {
    name: "row 12",
    events: [RS(), TMS("m1"), TCS("t1"), SS(), SD(), CUS(), RAW(), MS(msg("u1", undefined, "user")), STS("a"), STF("a"), TCE("t1"), TME("m1"), RF()],
  },
  { name: "row 13a", events: [RS(), TMS("m1"), RF()], reject: x(2, "run-lifecycle", "R7", "text messages are still open: m1") },
  { name: "row 13b", events: [RS(), TCS("t1"), RF()], reject: x(2, "run-lifecycle", "R7", "tool calls are still open: t1") },
  { name: "row 14a", events: [RS(), STS("a"), STF("b")], reject: x(2, "step", "R26", `no step "b" was started`) },
  { name: "row 14b", events: [RS(), STS("a"), STS("a")], reject: x(2, "step", "R25") },
  { name: "row 14c", events: [RS(), STS("a"), RF()], reject: x(2, "run-lifecycle", "R7", `steps are still active: "a" (the parent agent)`) },
  { name: "row 15", events: [RS(), STS("tools"), SAS("s1"), STS("tools", "s1"), STF("tools", "s1"), SAF("s1"), STF("tools"), RF()] },
  { name: "row 16", events: [RS(), STS("tools"), SAS("s1"), STF("tools", "s1")], reject: x(3, "step", "R27", "open under the parent agent") },
  { name: "row 17", events: [RS(), SAS("s1"), STS("inner", "s1"), STF("inner")], reject: x(3, "step", "R27", `open under subagent "s1"`) },
  { name: "row 18", events: [RS(), SAS(""), STS("tools"), STF("tools", "")], reject: x(3, "step", "R28", "open under the parent agent") },
  {
    name: "row 19",
    events: [RS(), SAS("s1"), STS("inner", "s1"), SAF("s1"), RF()],
    reject: x(4, "run-lifecycle", "R7", `"inner" (subagent "s1")`),
  },
  { name: "row 20a", events: [RS(), SAS("s1"), SAS("s1")], reject: x(2, "subagent", "R30") },
  { name: "row 20b", events: [RS(), SAF("s1")], reject: x(1, "subagent", "R33", `no subagent "s1" was started`) },
  { name: "row 21", events: [RS(), SAS("s1"), SAF("s1"), SAS("s1")], reject: x(3, "subagent", "R31") },
  { name: "row 22", events: [RS(), SAS("s1"), SAF("s1"), RF(), RS(), SAS("s1"), SAF("s1"), RF()] },
  { name: "row 23", events: [RS(), SAS("s1"), SAF("s1"), SAE("s1", "boom")], reject: x(3, "subagent", "R33", "already ended") },
  { name: "row 24a", events: [RS(), SAS("c", { parentSubagentRunId: "ghost" })], reject: x(1, "subagent", "R32", `"ghost"`) },
  { name: "row 24b", events: [RS(), SAS("p"), SAF("p"), SAS("c", { parentSubagentRunId: "p" }), SAF("c"), RF()] },
  { name: "row 25a", events: [RS(), SAS("s1"), RF()], reject: x(2, "run-lifecycle", "R7", "subagents are still active: s1") },
  { name: "row 25b", events: [RS(), SAS("s1"), RE()] },
  { name: "row 26", events: [RS(), TMS("m1", "never"), TMC("m1", "never"), TME("m1", "never"), RF()] },
  { name: "row 27", events: [RS(), SAS("s1"), SAF("s1"), TMS("m1", "s1"), TME("m1"), RF()] },
  { name: "row 28", events: [RS(), SAS("s1"), SS("s1"), SD("s1"), SAF("s1"), RF()] },
  { name: "row 29a", events: [RS(), TMS("m1", "s1"), TME("m1", "s2")], reject: x(2, "ownership", "R37", `belongs to subagent "s1"`) },
  { name: "row 29b", events: [RS(), TCS("t", "s1"), TCA("t", "s2")], reject: x(2, "ownership", "R37") },
  { name: "row 30a", events: [RS(), TMS("m1"), TMC("m1", "s1")], reject: x(2, "ownership", "R37", "belongs to the parent agent") },
  { name: "row 30b", events: [RS(), TMS("m", ""), TMC("m", "s1")], reject: x(2, "ownership", "R37", `belongs to subagent ""`) },
  { name: "row 31", events: [RS(), TCS("t", "s1"), TCA("t"), TCE("t"), RF()] },
  { name: "row 32a", events: [RS(), TMS("m1", "s1"), TME("m1"), TMS("m1", "s2")], reject: x(3, "ownership", "R38") },
  { name: "row 32b", events: [RS(), TCS("m1", "s1"), TCE("m1"), TCS("m1", "s2")], reject: x(3, "ownership", "R38") },
  { name: "row 33", events: [RS(), TMS("m1", "s1"), TME("m1"), TMS("m1"), TMC("m1", "s1"), TME("m1"), RF()] },
  {
    name: "row 34",
    events: [RS(), TMS("m", "s1"), TME("m"), TCS("tc", "s2", { parentMessageId: "m" })],
    reject: x(3, "ownership", "R39", 'parent message m belongs to subagent "s1"'),
  },
  {
    name: "row 35",
    events: [RS(), TMS("m", "s1"), TME("m"), TCS("tc", undefined, { parentMessageId: "m" }), TCA("tc", "s2")],
    reject: x(4, "ownership", "R37", `belongs to subagent "s1"`),
  },
  {
    name: "row 36",
    events: [
      RS(),
      TMS("m", "s1"),
      TME("m"),
      TCS("tc", undefined, { parentMessageId: "m" }),
      TCE("tc"),
      TMS("m2", "s2"),
      TME("m2"),
      TCS("tc", undefined, { parentMessageId: "m2" }),
    ],
    reject: x(7, "ownership", "R39"),
  },
  { name: "row 37a", events: [RS(), TCS("c", "s1"), TCE("c"), REV("tool-call", "c", "s1")] },
  { name: "row 37b", events: [RS(), TCS("c", "s1"), TCE("c"), REV("tool-call", "c", "s2")], reject: x(3, "ownership", "R40") },
  { name: "row 38", events: [RS(), TMS("x", "s1"), TCS("x", "s2"), REV("message", "x", "s2")], reject: x(3, "ownership", "R40", `belongs to subagent "s1"`) },
  { name: "row 39a", events: [RS(), RST("r1", "s1"), RMS("r1", "s2")], reject: x(2, "ownership", "R38") },
  { name: "row 39b", events: [RS(), RST("r1"), RMS("r1", "s1")], reject: x(2, "ownership", "R38", "belongs to the parent agent") },
  { name: "row 40", events: [RS(), RST("r1", "s1"), RMS("r1"), RMC("r1", "s1"), RME("r1"), REND("r1", "s1"), RF()] },
  { name: "row 41", events: [RS(), RST("r1", "s1"), RMS("r1", "s1"), RME("r1", "s1"), REND("r1", "s2")], reject: x(4, "ownership", "R37") },
  {
    name: "row 42",
    events: [RS(), AS("a1", "s1", { replace: false }), AS("a1", "s2", { replace: false }), AD("a1", "s2")],
    reject: x(3, "ownership", "R41", `belongs to subagent "s1"`),
  },
  { name: "row 43", events: [RS(), AS("a1", "s1"), AS("a1", "s2"), AD("a1", "s2")] },
  { name: "row 44a", events: [RS(), MS(msg("m", "s1")), TMS("m", "s2")], reject: x(2, "ownership", "R43", "MESSAGES_SNAPSHOT") },
  { name: "row 44b", events: [RS(), MS(msg("m")), TMS("m", "s2")], reject: x(2, "ownership", "R43", "belongs to the parent agent") },
  { name: "row 45a", events: [RS(), TMS("m", "s1"), TME("m"), MS(msg("m", "s2")), TMS("m", "s1")], reject: x(4, "ownership", "R43") },
  { name: "row 45b", events: [RS(), TMS("m", "s1"), TME("m"), MS(msg("m", "s2")), TMS("m", "s2")] },
  { name: "row 46", events: [RS({ input: [msg("m", "s1")] }), TMS("m", "s2")], reject: x(1, "ownership", "R44", "RUN_STARTED input") },
  { name: "row 47a", events: [RS(), TCR("m", "tc", "s1"), TMS("m", "s2")], reject: x(2, "ownership", "R42", "TOOL_CALL_RESULT") },
  { name: "row 47b", events: [RS(), TCR("m", "tc"), TMS("m", "s2")], reject: x(2, "ownership", "R42") },
  { name: "row 48a", events: [RS(), withField(TMS("m"), "subagentRunId", null)], reject: x(1, "field-sanity", "R8", "subagentRunId null") },
  {
    name: "row 48b",
    events: [RS(), SAS("s1"), withField(SAF("s1"), "outcome", { type: "paused" })],
    reject: x(2, "field-sanity", "R12", `"paused"`),
  },
  {
    name: "row 49",
    events: [
      RS(),
      SAS("s1"),
      SAF("s1", { outcome: outcome.suspended(["i1"]) }),
      RF({ outcome: outcome.interrupt([{ id: "i1", reason: "confirm", subagentRunId: "s1" }]) }),
    ],
  },
];

/** One example per rule R1–R45: a violation, or the valid example where a rule forbids nothing. */
export const RULE_EXAMPLES: readonly VerifierCase[] = [
  { name: "R1", events: [TMS("m1")], reject: x(0, "run-lifecycle", "R1") },
  { name: "R2", events: [RS(), RS()], reject: x(1, "run-lifecycle", "R2") },
  { name: "R3", events: [RS(), RF(), TMS("m1")], reject: x(2, "run-lifecycle", "R3") },
  { name: "R3 (second RUN_FINISHED)", events: [RS(), RF(), RF()], reject: x(2, "run-lifecycle", "R3") },
  { name: "R4", events: [RS(), RE(), CUS()], reject: x(2, "run-lifecycle", "R4") },
  { name: "R4 (second RUN_ERROR)", events: [RS(), RE(), RE()], reject: x(2, "run-lifecycle", "R4") },
  { name: "R5 (valid)", events: [RS(), TMS("m1"), SAS("s1"), RE()] },
  { name: "R5 (valid, RE first)", events: [RE(), RS(), RF()] },
  { name: "R6 (valid)", events: [RS(), TMS("m2"), RE(), RS(), TMS("m2"), TME("m2"), RF()] },
  { name: "R7", events: [RS(), TMS("m1"), RF()], reject: x(2, "run-lifecycle", "R7") },
  {
    name: "R7 (order: steps before text before tools before subagents)",
    events: [RS(), SAS("s1"), TCS("t1"), TMS("m1"), STS("a", "s1"), RF()],
    reject: x(5, "run-lifecycle", "R7", `steps are still active: "a" (subagent "s1")`),
  },
  { name: "R7 (activities do not block)", events: [RS(), AS("a1"), AD("a1"), RF()] },
  {
    name: "R7 (open reasoning blocks, messages listed before spans, both before tool calls)",
    events: [RS(), TCS("t1"), RST("r1"), RMS("r2"), AS("a1"), RF()],
    reject: x(5, "run-lifecycle", "R7", "reasoning messages are still open: r2"),
  },
  {
    name: "R7 (an open reasoning span blocks)",
    events: [RS(), TCS("t1"), RST("r1"), RF()],
    reject: x(3, "run-lifecycle", "R7", "reasoning spans are still open: r1"),
  },
  { name: "R8", events: [RS(), withField(TMS("m1"), "subagentRunId", null)], reject: x(1, "field-sanity", "R8") },
  {
    name: "R9",
    events: [RS(), MS(withField(msg("m"), "subagentRunId", null))],
    reject: x(1, "field-sanity", "R9", `message "m"`),
  },
  {
    name: "R9 (input echo)",
    events: [RS({ input: [withField(msg("m"), "subagentRunId", null)] })],
    reject: x(0, "field-sanity", "R9"),
  },
  { name: "R10", events: [RS(), withoutField(SAS("s1"), "subagentRunId")], reject: x(1, "field-sanity", "R10", "string subagentRunId") },
  { name: "R10 (SAE message)", events: [RS(), SAS("s1"), withoutField(SAE("s1"), "message")], reject: x(2, "field-sanity", "R10") },
  { name: 'R10 (valid: "" everywhere)', events: [RS(), SAS("", { name: "" }), SAE("", "")] },
  { name: "R11", events: [RS(), SAS("s1"), withField(SAF("s1"), "outcome", null)], reject: x(2, "field-sanity", "R11", "outcome null") },
  { name: "R11 (SAS description)", events: [RS(), withField(SAS("s1"), "description", null)], reject: x(1, "field-sanity", "R11") },
  { name: "R12", events: [RS(), SAS("s1"), withField(SAF("s1"), "outcome", { type: "paused" })], reject: x(2, "field-sanity", "R12") },
  { name: "R12 (falsy outcome)", events: [RS(), SAS("s1"), withField(SAF("s1"), "outcome", 0)], reject: x(2, "field-sanity", "R12") },
  {
    name: "R12 (interruptIds null)",
    events: [RS(), SAS("s1"), withField(SAF("s1"), "outcome", { type: "suspended", interruptIds: null })],
    reject: x(2, "field-sanity", "R12"),
  },
  {
    name: "R13",
    events: [RS(), withField(RF(), "outcome", { type: "interrupt", interrupts: [{ id: "i1", reason: "r", subagentRunId: null }] })],
    reject: x(1, "field-sanity", "R13", `"i1"`),
  },
  { name: "R14", events: [RS(), TMS("m1"), TMS("m1")], reject: x(2, "text-message", "R14") },
  { name: "R15", events: [RS(), TMS("m1"), TMC("m2")], reject: x(2, "text-message", "R15") },
  { name: "R15 (END)", events: [RS(), TME("m1")], reject: x(1, "text-message", "R15") },
  { name: "R16 (valid)", events: [RS(), TMS("m1"), TME("m1"), TMS("m1"), TME("m1"), RF()] },
  { name: "R17 (valid)", events: [RS(), TMS("m1"), TMS("m2"), TMC("m1"), TCS("t1"), TMC("m2"), TME("m2"), TCE("t1"), TME("m1"), RF()] },
  { name: "R18", events: [RS(), TCS("t1"), TCS("t1")], reject: x(2, "tool-call", "R18") },
  { name: "R19", events: [RS(), TCA("t1")], reject: x(1, "tool-call", "R19") },
  { name: "R19 (END)", events: [RS(), TCE("t1")], reject: x(1, "tool-call", "R19") },
  { name: "R20 (valid)", events: [RS(), TCS("t1"), TCE("t1"), TMS("m1"), TCS("t1"), TCS("t2"), TCE("t1"), TME("m1"), TCE("t2"), RF()] },
  { name: "R21 (valid)", events: [RS(), TCR("r1", "unknown"), TCS("t1"), TCR("r2", "t1"), TCE("t1"), TCR("r3", "t1"), RF()] },
  {
    name: "R22 (valid: a span and a message share an id; a closed message reopens)",
    events: [RS(), RST("r1"), RMS("r1"), RMC("r1"), RME("r1"), RMS("r1"), RME("r1"), REND("r1"), RF()],
  },
  {
    name: "R22 (a reasoning message outside any block)",
    events: [RS(), RMS("r1"), RMC("r1"), RME("r1"), RF()],
    reject: x(1, "reasoning", "R22", "the parent agent has no open reasoning block", "no reasoning block is open", "expected REASONING_START first"),
  },
  {
    name: "R22 (a message in another owner's block)",
    events: [RS(), RST("b", "s1"), RMS("m")],
    reject: x(2, "reasoning", "R22", "the parent agent has no open reasoning block", `open: b (subagent "s1")`),
  },
  {
    name: "R22 (a subagent's message in the parent's block)",
    events: [RS(), RST("b"), RMS("m", "s1")],
    reject: x(2, "reasoning", "R22", `subagent "s1" has no open reasoning block`),
  },
  {
    name: 'R22 ("" is an owner apart from the parent)',
    events: [RS(), RST("b", ""), RMS("m")],
    reject: x(2, "reasoning", "R22", "the parent agent has no open reasoning block"),
  },
  { name: "R22 (a closed block holds nothing)", events: [RS(), RST("b"), REND("b"), RMS("m")], reject: x(3, "reasoning", "R22", "no reasoning block is open") },
  {
    name: "R22 (valid: blocks are counted per owner, one of two closed)",
    events: [RS(), RST("a"), RST("b"), REND("a"), RMS("m"), RME("m"), REND("b"), RF()],
  },
  {
    name: "R22 (valid: an untagged message under an id a subagent owns is that subagent's, and opens in its block)",
    events: [RS(), RST("b", "s1"), RST("r1", "s1"), REND("r1"), RMS("r1"), RMC("r1", "s1"), RME("r1"), REND("b"), RF()],
  },
  {
    name: "R22 (an untagged message under an id a subagent owns needs that subagent's block)",
    events: [RS(), RST("r1", "s1"), REND("r1"), RST("p"), RMS("r1")],
    reject: x(
      4,
      "reasoning",
      "R22",
      `REASONING_MESSAGE_START for r1 from subagent "s1"`,
      `subagent "s1" has no open reasoning block`,
      "open: p (the parent agent)",
    ),
  },
  {
    name: "R22 (valid: the owner a snapshot recorded counts)",
    events: [RS(), MS(msg("r", "s1", "reasoning")), RST("b", "s1"), RMS("r"), RME("r"), REND("b"), RF()],
  },
  {
    name: "R22 (valid: only opening needs the block; a message may outlive it)",
    events: [RS(), RST("b"), RMS("m"), REND("b"), RMC("m"), RME("m"), RF()],
  },
  {
    name: "R22 (valid: bracketed as REASONING_MESSAGE_CHUNK now expands, the block named after its message)",
    events: [RS(), RST("r1"), RMS("r1"), RMC("r1"), RME("r1"), REND("r1"), RST("r2", "s1"), RMS("r2", "s1"), RME("r2", "s1"), REND("r2", "s1"), RF()],
  },
  { name: "R22 (valid: two spans open at once)", events: [RS(), RST("r1"), RST("r2", "s1"), REND("r1"), REND("r2", "s1"), RF()] },
  { name: "R22 (content for a message nothing opened)", events: [RS(), RMC("r9")], reject: x(1, "reasoning", "R22", "no reasoning message r9 is open") },
  { name: "R22 (a second REASONING_START while the span is open)", events: [RS(), RST("r1"), RST("r1")], reject: x(2, "reasoning", "R22", "already open") },
  {
    name: "R22 (a second REASONING_MESSAGE_START while open)",
    events: [RS(), RST("r1"), RMS("m1"), RMS("m1")],
    reject: x(3, "reasoning", "R22", "already open"),
  },
  { name: "R22 (a span's id is no message)", events: [RS(), RST("r1"), RME("r1")], reject: x(2, "reasoning", "R22") },
  {
    name: "R22 (REASONING_END without a span)",
    events: [RS(), RST("b"), RMS("r1"), RME("r1"), REND("r1")],
    reject: x(4, "reasoning", "R22", "no reasoning span r1 is open", "open: b"),
  },
  { name: "R23", events: [RS(), { type: "THINKING_TEXT_MESSAGE_START" }], reject: x(1, "thinking", "R23") },
  { name: "R23 (END without START)", events: [RS(), { type: "THINKING_END" }], reject: x(1, "thinking", "R23") },
  { name: "R23 (double START)", events: [RS(), { type: "THINKING_START" }, { type: "THINKING_START" }], reject: x(2, "thinking", "R23") },
  {
    name: "R23 (CONTENT after message END)",
    events: [
      RS(),
      { type: "THINKING_START" },
      { type: "THINKING_TEXT_MESSAGE_START" },
      { type: "THINKING_TEXT_MESSAGE_END" },
      { type: "THINKING_TEXT_MESSAGE_CONTENT", delta: "x" },
    ],
    reject: x(4, "thinking", "R23"),
  },
  {
    name: "R23 (valid)",
    events: [
      RS(),
      { type: "THINKING_START" },
      { type: "THINKING_TEXT_MESSAGE_START" },
      { type: "THINKING_TEXT_MESSAGE_CONTENT", delta: "x" },
      { type: "THINKING_TEXT_MESSAGE_END" },
      { type: "THINKING_END" },
      RF(),
    ],
  },
  { name: "R24 (valid)", events: [RS(), AD("a0"), AS("a1"), AS("a1"), AS("a1", undefined, { replace: false }), AD("a1"), RF()] },
  { name: "R25", events: [RS(), STS("a"), STS("a")], reject: x(2, "step", "R25") },
  { name: "R25 (valid: other owner)", events: [RS(), STS("tools"), STS("tools", "s1")] },
  { name: "R26", events: [RS(), STS("a"), STF("b")], reject: x(2, "step", "R26") },
  { name: "R27", events: [RS(), STS("tools"), SAS("s1"), STF("tools", "s1")], reject: x(3, "step", "R27", "the parent agent") },
  {
    name: "R27 (untagged cannot close a subagent's step)",
    events: [RS(), SAS("s1"), STS("inner", "s1"), STF("inner")],
    reject: x(3, "step", "R27", `subagent "s1"`),
  },
  { name: "R28", events: [RS(), SAS(""), STS("tools"), STF("tools", "")], reject: x(3, "step", "R28") },
  { name: "R29 (valid: free close order)", events: [RS(), STS("a"), STS("b"), STF("a"), STF("b"), RF()] },
  { name: "R29", events: [RS(), SAS("s1"), STS("inner", "s1"), SAF("s1"), RF()], reject: x(4, "run-lifecycle", "R7", `"inner" (subagent "s1")`) },
  { name: "R30", events: [RS(), SAS("s1"), SAS("s1")], reject: x(2, "subagent", "R30") },
  { name: "R31", events: [RS(), SAS("s1"), SAF("s1"), SAS("s1")], reject: x(3, "subagent", "R31") },
  { name: "R32", events: [RS(), SAS("c", { parentSubagentRunId: "ghost" })], reject: x(1, "subagent", "R32") },
  { name: "R33", events: [RS(), SAF("s1")], reject: x(1, "subagent", "R33") },
  { name: "R33 (second terminal)", events: [RS(), SAS("s1"), SAF("s1"), SAE("s1", "x")], reject: x(3, "subagent", "R33") },
  { name: "R34", events: [RS(), SAS("s1"), RF()], reject: x(2, "run-lifecycle", "R7", "subagents are still active: s1") },
  { name: "R34 (valid before RE)", events: [RS(), SAS("s1"), RE()] },
  { name: "R35 (valid)", events: [RS(), TMS("m1", "x"), TMC("m1", "x"), TME("m1", "x"), RF()] },
  { name: "R35 (valid after SAF)", events: [RS(), SAS("s1"), SAF("s1"), TMS("m1", "s1"), TME("m1"), RF()] },
  { name: "R36 (valid)", events: [RS(), SAS("s1"), SS("s1"), SD("s1"), CUS("s1"), RAW("s1"), STS("w", "s1"), STF("w", "s1"), SAF("s1"), RF()] },
  { name: "R37", events: [RS(), TMS("m1", "s1"), TME("m1", "s2")], reject: x(2, "ownership", "R37") },
  { name: "R37 (parent-owned)", events: [RS(), TMS("m1"), TMC("m1", "s1")], reject: x(2, "ownership", "R37") },
  { name: 'R37 ("" is an owner)', events: [RS(), TMS("m", ""), TMC("m", "s1")], reject: x(2, "ownership", "R37") },
  { name: "R38", events: [RS(), TMS("m1", "s1"), TME("m1"), TMS("m1", "s2")], reject: x(3, "ownership", "R38") },
  { name: "R38 (reasoning)", events: [RS(), RST("r1", "s1"), RMS("r1", "s2")], reject: x(2, "ownership", "R38") },
  { name: "R39", events: [RS(), TMS("m", "s1"), TME("m"), TCS("tc", "s2", { parentMessageId: "m" })], reject: x(3, "ownership", "R39") },
  { name: "R39 (parent-owned message)", events: [RS(), TMS("m"), TME("m"), TCS("tc", "s2", { parentMessageId: "m" })], reject: x(3, "ownership", "R39") },
  {
    name: "R39 (inherited owner)",
    events: [RS(), TMS("m", "s1"), TME("m"), TCS("tc", undefined, { parentMessageId: "m" }), TCA("tc", "s2")],
    reject: x(4, "ownership", "R37"),
  },
  { name: "R40", events: [RS(), TCS("c", "s1"), TCE("c"), REV("tool-call", "c", "s2")], reject: x(3, "ownership", "R40") },
  { name: "R40 (per-kind owners)", events: [RS(), TMS("x", "s1"), TCS("x", "s2"), REV("message", "x", "s2")], reject: x(3, "ownership", "R40") },
  {
    name: "R41",
    events: [RS(), AS("a1", "s1", { replace: false }), AS("a1", "s2", { replace: false }), AD("a1", "s2")],
    reject: x(3, "ownership", "R41"),
  },
  { name: "R41 (valid: replace defaults to true)", events: [RS(), AS("a1", "s1"), AS("a1", "s2"), AD("a1", "s2")] },
  { name: "R42", events: [RS(), TCR("m", "tc", "s1"), TMS("m", "s2")], reject: x(2, "ownership", "R42") },
  { name: "R42 (untagged result)", events: [RS(), TCR("m", "tc"), TMS("m", "s2")], reject: x(2, "ownership", "R42") },
  { name: "R43", events: [RS(), MS(msg("m", "s1")), TMS("m", "s2")], reject: x(2, "ownership", "R43") },
  { name: "R43 (replaces a recorded owner)", events: [RS(), TMS("m", "s1"), TME("m"), MS(msg("m", "s2")), TMS("m", "s1")], reject: x(4, "ownership", "R43") },
  { name: "R43 (tool calls)", events: [RS(), MS(msg("m", "s1", "assistant", ["tc"])), TCS("tc", "s2")], reject: x(2, "ownership", "R43") },
  { name: "R43 (reasoning role)", events: [RS(), MS(msg("r", "s1", "reasoning")), RMS("r", "s2")], reject: x(2, "ownership", "R43") },
  { name: "R44", events: [RS({ input: [msg("m", "s1")] }), TMS("m", "s2")], reject: x(1, "ownership", "R44") },
  { name: "R45 (valid, known gap)", events: [RS(), TCS("t1", "s1"), TCE("t1"), TMS("t1", "s2"), TME("t1"), RF()] },
  // Issue #20 part B: the AG-UI conformance streams (spec/draft/conformance/streams/, spec/1.1/…), by their ids.
  {
    name: "R7a (conformance: run-finished-wrong-run-id-fatal)",
    events: [RS(), RF({ runId: "r-other", outcome: outcome.success() })],
    reject: x(1, "run-lifecycle", "R7a", "must agree on their runId", `"r-other"`, `"${RUN}"`),
  },
  {
    name: "R7a (conformance: run-finished-wrong-thread-id-fatal)",
    events: [RS(), ev.runFinished("t-other", RUN, { outcome: outcome.success() })],
    reject: x(1, "run-lifecycle", "R7a", "carry the input's threadId", `"t-other"`, `"${THREAD}"`),
  },
  {
    name: "R7a (conformance: second-run-on-another-thread-fatal)",
    events: [RS(), RF(), ev.runStarted("t-other", "r2"), ev.runFinished("t-other", "r2")],
    reject: x(2, "run-lifecycle", "R7a", "carries the input's threadId", "the thread of the stream's first run"),
  },
  {
    name: "R7a (valid: runs of one thread, each closed under its own runId)",
    events: [RS(), RF(), RS({ runId: "r2" }), RF({ runId: "r2" }), RE(), RS({ runId: "r3" }), RF({ runId: "r3" })],
  },
  {
    name: "A16 (conformance: duplicate-interrupt-id-fatal)",
    events: [
      RS(),
      RF({
        outcome: outcome.interrupt([
          { id: "i-dup", reason: "approval", message: "first" },
          { id: "i-dup", reason: "approval", message: "second" },
        ]),
      }),
    ],
    reject: x(1, "run-lifecycle", "A16", `two interrupts carrying the id "i-dup"`),
  },
  {
    name: "A16 (valid: distinct ids)",
    events: [
      RS(),
      RF({
        outcome: outcome.interrupt([
          { id: "i1", reason: "approval" },
          { id: "i2", reason: "approval" },
        ]),
      }),
    ],
  },
  {
    name: "R22 (conformance: reasoning-message-wrong-role-fatal)",
    events: [RS(), RST("r"), withField(RMS("r"), "role", "assistant"), RMC("r", undefined, "thinking"), RME("r"), REND("r"), RF()],
    reject: x(2, "reasoning", "R22", `role "assistant"`, `expected "reasoning"`),
  },
];

export const ALL_CASES: readonly VerifierCase[] = [...ROWS, ...RULE_EXAMPLES];
