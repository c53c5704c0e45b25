/** checkBody and parseArgs in-process: findings per stage, attribution to the frame being processed, and the command line. */
import { of } from "rxjs";
import { checkBody } from "../../src/cli/checkBody";
import { parseArgs } from "../../src/cli/main";
import { formatFinding } from "../../src/cli/formatReport";
import { exitCodeOf } from "../../src/cli/Finding";

const sse = (...events: unknown[]): string => events.map((event) => `data: ${typeof event === "string" ? event : JSON.stringify(event)}\n\n`).join("");
const RS = { type: "RUN_STARTED", threadId: "t", runId: "r" };
const RF = { type: "RUN_FINISHED", threadId: "t", runId: "r" };

describe("checkBody", () => {
  test("a clean body: no findings, the frames counted, the run's end", async () => {
    const body = sse(RS, { type: "TEXT_MESSAGE_CHUNK", messageId: "m1", delta: "Hi" }, RF);
    expect(await checkBody(of(body))).toEqual({ findings: [], frames: 3, end: { kind: "finished", outcome: "success" } });
  });

  test("a frame that is not JSON is reported and the next frame is still checked", async () => {
    const { findings } = await checkBody(of(sse(RS, "{not json", { type: "TEXT_MESSAGE_END", messageId: "m7" }, RF)));
    expect(findings.map((finding) => [finding.stage, finding.rule, finding.index])).toEqual([
      ["decode", "json", 1],
      ["verify", "R15", 2],
    ]);
    expect(findings[0]?.message).toMatch(/^the frame's data is not JSON \(.*\): "\{not json"$/);
  });

  test("an event the normalizer synthesized is blamed on the frame that caused it", async () => {
    // the chunk opens m1 inside a step that RUN_FINISHED leaves open: R7 at the RUN_FINISHED frame
    const { findings } = await checkBody(of(sse(RS, { type: "STEP_STARTED", stepName: "s" }, { type: "TEXT_MESSAGE_CHUNK", messageId: "m1", delta: "x" }, RF)));
    expect(findings.map((finding) => [finding.stage, finding.rule, finding.index, finding.eventType])).toEqual([["verify", "R7", 3, "RUN_FINISHED"]]);
  });

  test("RUN_ERROR is how the run ended, not a finding", async () => {
    expect(await checkBody(of(sse(RS, { type: "RUN_ERROR", message: "model overloaded", code: "overloaded" })))).toEqual({
      findings: [],
      frames: 2,
      end: { kind: "error", message: "model overloaded", code: "overloaded" },
    });
  });

  test("framing that fails is an sse finding, at the frame after the last one read, and the missing end is E8", async () => {
    const { findings } = await checkBody(of(sse(RS), `data: ${"x".repeat(200)}\n\n`), { maxFrameBytes: 100 });
    expect(findings.map((finding) => [finding.stage, finding.rule, finding.index])).toEqual([
      ["sse", "frame-too-large", 1],
      ["run-end", "E8", undefined],
    ]);
  });

  test("a body split at every byte gives the same findings", async () => {
    const body = new TextEncoder().encode(sse(RS, { type: "TEXT_MESSAGE_CONTENT", messageId: "m9", delta: "ünï" }, RF));
    const whole = await checkBody(of(body));
    const bytes = Array.from(body, (byte) => Uint8Array.of(byte));
    expect(await checkBody(of(...bytes))).toEqual(whole);
    expect(whole.findings.map((finding) => finding.rule)).toEqual(["R15"]);
  });
});

test("formatFinding and exitCodeOf", () => {
  expect(formatFinding({ severity: "warning", stage: "decode", rule: "unknown-property", index: 2, eventType: "RUN_STARTED", message: "stripped foo" })).toBe(
    "! #2 decode unknown-property [RUN_STARTED] stripped foo",
  );
  expect(exitCodeOf({ url: "u", findings: [], frames: 0, end: { kind: "none" } })).toBe(0);
  expect(exitCodeOf({ url: "u", findings: [{ severity: "warning", stage: "decode", rule: "x", message: "m" }], frames: 0, end: { kind: "none" } })).toBe(1);
});

describe("parseArgs", () => {
  test.each([
    [["check", "http://h/", "add", "milk"], { kind: "check", url: "http://h/", options: { message: "add milk" }, json: false }],
    [["check", "https://h/a", "--json", "--timeout", "2.5"], { kind: "check", url: "https://h/a", options: { timeoutMs: 2500 }, json: true }],
    [
      ["check", "http://h/", "--header", "Authorization: Bearer x:y"],
      { kind: "check", url: "http://h/", options: { headers: { Authorization: "Bearer x:y" } }, json: false },
    ],
    [[], { kind: "usage" }],
    [["--help"], { kind: "usage" }],
    [["lint"], { kind: "usage", error: 'unknown command "lint"; expected check or inspect' }],
    [["check"], { kind: "usage", error: "expected the endpoint's URL" }],
    [["check", "http://h/", "--timeout", "soon"], { kind: "usage", error: 'expected --timeout <seconds> to be a positive number, got "soon"' }],
    [["check", "http://h/", "--header", "nocolon"], { kind: "usage", error: 'expected --header "Name: value", got "nocolon"' }],
    [["check", "http://h/", "--header"], { kind: "usage", error: "--header needs a value" }],
    [["check", "http://h/", "--verbose"], { kind: "usage", error: "unknown option --verbose" }],
  ])("%j", (argv, expected) => {
    expect(parseArgs(argv)).toEqual(expected);
  });
});
