// The small view helpers: board summary, subagent headings, message text.
import type { Subagent } from "../../../src/thread/Update";
import { boardSummary } from "../boardSummary";
import { subagentHeading } from "../groupMessages";
import { messageText } from "../messageText";

describe("boardSummary", () => {
  it("counts done tasks", () => {
    expect(boardSummary([])).toEqual({ label: "Empty", percentDone: 0 });
    expect(
      boardSummary([
        { id: 1, title: "a", done: true },
        { id: 2, title: "b", done: false },
        { id: 3, title: "c", done: false },
      ]),
    ).toEqual({ label: "1 of 3 done", percentDone: 33 });
  });
});

describe("subagentHeading", () => {
  const researcher = (status: Subagent["status"]): Subagent => ({ id: "sub-1", name: "researcher", description: "Looks things up", status });

  it("shows the registry's status, and stopped for one still running when no run is", () => {
    expect(subagentHeading(researcher({ kind: "running" }), true, "sub-1")).toEqual({ name: "researcher", badge: "running", description: "Looks things up" });
    expect(subagentHeading(researcher({ kind: "running" }), false, "sub-1").badge).toBe("stopped");
    expect(subagentHeading(researcher({ kind: "finished" }), false, "sub-1").badge).toBe("finished");
  });

  it("shows stopped for one whose messages Stop cut off, though the server closed it as finished", () => {
    expect(subagentHeading(researcher({ kind: "finished" }), false, "sub-1", true).badge).toBe("stopped");
    expect(subagentHeading(researcher({ kind: "running" }), true, "sub-1", true).badge).toBe("running"); // still running: not yet
  });

  it("falls back to the id before the registry knows the subagent", () => {
    expect(subagentHeading(undefined, true, "sub-9")).toEqual({ name: "sub-9", badge: "running", description: undefined });
  });
});

describe("messageText", () => {
  it("reads string content, and the text parts of a list", () => {
    expect(messageText({ id: "a", role: "assistant", content: "hi" })).toBe("hi");
    expect(messageText({ id: "a", role: "assistant" })).toBe("");
    expect(
      messageText({
        id: "u",
        role: "user",
        content: [
          { type: "text", text: "one" },
          { type: "image", source: { type: "url", value: "https://example.test/a.png" } },
          { type: "text", text: "two" },
        ],
      }),
    ).toBe("one\n\ntwo");
    expect(messageText({ id: "x", role: "activity", activityType: "progress", content: { step: 1 } })).toBe("");
  });
});
