import { waitingHeading, waitingRow, type WaitingEntry } from "../queuedMessages";

const entry = (over: Partial<WaitingEntry>): WaitingEntry => ({ id: "r3", policy: "queue", status: "queued", message: { content: "add buy milk" }, ...over });

describe("waitingRow", () => {
  it("says each status in a word and what happens next", () => {
    expect(waitingRow(entry({}))).toEqual({
      id: "r3",
      text: "add buy milk",
      status: "queued",
      label: "Queued",
      detail: "runs after the current answer",
      cancelLabel: 'Cancel "add buy milk"',
    });
    expect(waitingRow(entry({ status: "waiting" }))).toMatchObject({ status: "waiting", label: "Waiting" });
    expect(waitingRow(entry({ policy: "steer", status: "steering" }))).toMatchObject({
      status: "steering",
      label: "Steering",
      detail: "offered to the current answer",
    });
    expect(waitingRow(entry({ policy: "interrupt" })).detail).toContain("runs next");
  });

  it("reads text parts, names an empty message, and keeps a long message's Cancel name short", () => {
    expect(
      waitingRow(
        entry({
          message: {
            content: [
              { type: "text", text: "one" },
              { type: "text", text: "two" },
            ],
          },
        }),
      ).text,
    ).toBe("one\n\ntwo");
    expect(waitingRow(entry({ message: { content: "" } })).text).toBe("(no text)");
    const long = waitingRow(entry({ message: { content: `add ${"x".repeat(100)}` } })).cancelLabel;
    expect(long.length).toBeLessThanOrEqual(50);
    expect(long.endsWith('…"')).toBe(true);
  });
});

describe("waitingHeading", () => {
  it("counts", () => {
    expect(waitingHeading(1)).toBe("1 message waiting");
    expect(waitingHeading(3)).toBe("3 messages waiting");
  });
});
