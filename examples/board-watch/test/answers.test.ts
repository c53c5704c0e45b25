/** board-watch's answer parsing and matching, as tables. */
import { answerFromPlan, answerFromReply, parseArgs, promptFor } from "../answers";
import type { Interrupt } from "../../../src/protocol/outcomes";

const interrupt: Interrupt = { id: "clear:1:run-7", reason: "confirmation", message: "Clear the 1 task from the board?" };

describe("parseArgs", () => {
  test.each([
    [["http://h/", "clear"], { kind: "ok", positional: ["http://h/", "clear"], plan: { approveAll: false, answers: [] } }],
    [["--approve", "http://h/", "clear"], { kind: "ok", positional: ["http://h/", "clear"], plan: { approveAll: true, answers: [] } }],
    [
      ["http://h/", "go", "--answer", 'approve-1={"approved":true}', "--answer=x*=42"],
      {
        kind: "ok",
        positional: ["http://h/", "go"],
        plan: {
          approveAll: false,
          answers: [
            { id: "approve-1", payload: { approved: true } },
            { id: "x*", payload: 42 },
          ],
        },
      },
    ],
    [["http://h/", "go", "--answer"], { kind: "error", message: "--answer needs <id>=<json>" }],
    [["http://h/", "go", "--answer", "=1"], { kind: "error", message: 'expected --answer <id>=<json>, got "=1"' }],
    [["http://h/", "go", "--answer", "approve"], { kind: "error", message: 'expected --answer <id>=<json>, got "approve"' }],
  ])("%j", (argv, expected) => {
    expect(parseArgs(argv)).toEqual(expected);
  });

  test("a payload that is not JSON names the id and the text", () => {
    expect(parseArgs(["--answer", "a=yes please"])).toEqual({
      kind: "error",
      message: expect.stringMatching(/^expected the payload of --answer a to be JSON, got "yes please" \(/),
    });
  });
});

describe("answerFromPlan", () => {
  test("an exact id, then an id prefix, then --approve, else nothing", () => {
    const exact = { approveAll: true, answers: [{ id: "clear:1:run-7", payload: { approved: false } }] };
    expect(answerFromPlan(exact, interrupt)).toEqual({ interruptId: "clear:1:run-7", status: "resolved", payload: { approved: false } });
    const prefix = {
      approveAll: false,
      answers: [
        { id: "other", payload: 1 },
        { id: "clear:*", payload: 2 },
      ],
    };
    expect(answerFromPlan(prefix, interrupt)).toEqual({ interruptId: "clear:1:run-7", status: "resolved", payload: 2 });
    expect(answerFromPlan({ approveAll: true, answers: [] }, interrupt)).toEqual({
      interruptId: "clear:1:run-7",
      status: "resolved",
      payload: { approved: true },
    });
    expect(answerFromPlan({ approveAll: false, answers: [{ id: "clear:1", payload: 1 }] }, interrupt)).toBeUndefined();
  });
});

describe("answerFromReply", () => {
  test.each([
    ["y", { status: "resolved", payload: { approved: true } }],
    [" YES ", { status: "resolved", payload: { approved: true } }],
    ["n", { status: "resolved", payload: { approved: false } }],
    ["no", { status: "resolved", payload: { approved: false } }],
    ["c", { status: "cancelled" }],
    ["cancel", { status: "cancelled" }],
    ['{"approved":true,"note":"ok"}', { status: "resolved", payload: { approved: true, note: "ok" } }],
    ["42", { status: "resolved", payload: 42 }],
  ])("%j", (reply, expected) => {
    expect(answerFromReply(interrupt, reply)).toEqual({ interruptId: "clear:1:run-7", ...expected });
  });

  test.each(["", "maybe", "{approved"])("%j is not an answer (the prompt asks again)", (reply) => {
    expect(answerFromReply(interrupt, reply)).toBeUndefined();
  });

  test("the prompt names the interrupt and the choices", () => {
    expect(promptFor(interrupt)).toBe("answer clear:1:run-7: [y]es, [n]o, [c]ancel, or a JSON payload › ");
  });
});
