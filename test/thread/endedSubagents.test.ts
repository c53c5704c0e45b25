import { ev } from "../../src/protocol/build";
import { endedSubagentEvents } from "../../src/thread/endedSubagents";
import type { Subagent } from "../../src/thread/Update";

const researcher: Subagent = { id: "s1", name: "researcher", description: "finds sources", status: { kind: "finished", result: { papers: 3 } } };

describe("endedSubagentEvents", () => {
  it("replays a finished subagent's start (name, description) and its end with the result", () => {
    expect(endedSubagentEvents([researcher])).toEqual([
      ev.subagentStarted("s1", "researcher", { description: "finds sources" }),
      ev.subagentFinished("s1", { result: { papers: 3 } }),
    ]);
  });

  it("replays a failed one's end as SUBAGENT_ERROR with its message and code", () => {
    const flaky: Subagent = { id: "s2", name: "flaky", status: { kind: "failed", message: "gave up", code: "TIMEOUT" } };
    expect(endedSubagentEvents([flaky])).toEqual([ev.subagentStarted("s2", "flaky"), ev.subagentError("s2", "gave up", { code: "TIMEOUT" })]);
  });

  it("leaves out running and suspended subagents, and those the live run replays itself", () => {
    const running: Subagent = { id: "r", name: "live", status: { kind: "running" } };
    const suspended: Subagent = { id: "p", name: "paused", status: { kind: "suspended", interruptIds: ["i1"] } };
    expect(endedSubagentEvents([running, suspended, researcher], new Set(["s1"]))).toEqual([]);
  });

  it("names a parent only when the parent is replayed before the child (docs/rules.md#R32)", () => {
    const child: Subagent = { id: "c", name: "critic", parentSubagentRunId: "s1", status: { kind: "finished" } };
    const orphan: Subagent = { id: "o", name: "orphan", parentSubagentRunId: "p", status: { kind: "finished" } };
    const suspendedParent: Subagent = { id: "p", name: "paused", status: { kind: "suspended" } };
    expect(endedSubagentEvents([researcher, child, suspendedParent, orphan]).filter((event) => event.type === "SUBAGENT_STARTED")).toEqual([
      ev.subagentStarted("s1", "researcher", { description: "finds sources" }),
      ev.subagentStarted("c", "critic", { parentSubagentRunId: "s1" }),
      ev.subagentStarted("o", "orphan"),
    ]);
  });
});
