import { answerFor, answersOnceComplete, type Choice } from "../approvals";

const clear = { id: "clear-1", reason: "confirmation" };
const send = { id: "send-1", reason: "confirmation" };

describe("approvals", () => {
  it("approving resolves with { approved: true }; rejecting cancels", () => {
    expect(answerFor(clear, "approve")).toEqual({ interruptId: "clear-1", status: "resolved", payload: { approved: true } });
    expect(answerFor(clear, "reject")).toEqual({ interruptId: "clear-1", status: "cancelled" });
  });

  it("answers once every pending interrupt has a choice, in the pending order", () => {
    const choices = new Map<string, Choice>([["send-1", "reject"]]);
    expect(answersOnceComplete([clear, send], choices)).toBeUndefined();
    choices.set("clear-1", "approve");
    expect(answersOnceComplete([clear, send], choices)).toEqual([answerFor(clear, "approve"), answerFor(send, "reject")]);
  });

  it("has nothing to answer when nothing is pending", () => {
    expect(answersOnceComplete([], new Map([["old", "approve"]]))).toBeUndefined();
  });
});
