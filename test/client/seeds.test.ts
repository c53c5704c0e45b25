/** Seed 001's Rust examples, translated with the same assertions. */
import { ev, outcome, withSubagentRunId } from "../../src/protocol/build";
import type { Event } from "../../src/protocol/events";
import type { RunEnd } from "../../src/thread/Update";
import type { SubagentChange, SubagentStatus } from "../../src/thread/Update";
import { collect, errorsOf, expectRunEndContract, replaySession, sse } from "./support";

describe("docs/seeds.md#seed-001: subagent", () => {
  it("reports the lifecycle, keeps the registry across the run and names each message's owner", async () => {
    const tagged = <E extends Parameters<typeof withSubagentRunId>[0]>(event: E) => withSubagentRunId(event, "sub-1");
    const session = replaySession([
      ev.runStarted("thread-1", "run-1"),
      ev.subagentStarted("sub-1", "researcher"),
      tagged(ev.textMessageStart("msg-1")),
      tagged(ev.textMessageContent("msg-1", "Three sources.")),
      tagged(ev.textMessageEnd("msg-1")),
      ev.subagentFinished("sub-1", { result: { sources: 3 }, outcome: outcome.subagentSuccess() }),
      ev.textMessageStart("msg-2"),
      ev.textMessageContent("msg-2", "Thanks."),
      ev.textMessageEnd("msg-2"),
      ev.runFinished("thread-1", "run-1"),
    ]);

    const lifecycle: [SubagentChange, SubagentStatus][] = [];
    for (const update of await collect(session.send("research this"))) {
      if (update.kind === "subagent") lifecycle.push([update.change, update.subagent.status]);
    }

    expect(lifecycle).toEqual([
      ["started", { kind: "running" }],
      ["finished", { kind: "finished", result: { sources: 3 } }],
    ]);
    const researcher = session.subagent("sub-1");
    expect(researcher?.name).toBe("researcher");
    expect(session.subagents).toHaveLength(1);
    const owner = (i: number) => session.messages[i].subagentRunId;
    expect(owner(1)).toBe("sub-1");
    expect(owner(2)).toBeUndefined();
    expect("subagentRunId" in session.messages[2]).toBe(false);
  });
});

describe("docs/seeds.md#seed-001: the ways a run ends (three, plus 1.0.0's cancelled, E2)", () => {
  /** Whether to re-enable the input box: the decision RunEnd exists for. */
  function promptAgain(end: RunEnd): boolean {
    switch (end.kind) {
      case "success":
        return true;
      case "interrupted":
        return false;
      case "cancelled":
        return true;
      case "failed":
        return true;
    }
  }

  it("prompt_again", () => {
    expect(promptAgain({ kind: "success" })).toBe(true);
    expect(promptAgain({ kind: "interrupted", interrupts: [] })).toBe(false);
    expect(promptAgain({ kind: "cancelled" })).toBe(true);
    expect(promptAgain({ kind: "failed", message: "x" })).toBe(true);
  });
});

describe("docs/seeds.md#seed-001: success means the agent said so", () => {
  it("reports the failed patch, applies the later delta and still ends success", async () => {
    const session = replaySession([
      ev.runStarted("thread-1", "run-1"),
      ev.stateSnapshot({ count: 1 }),
      ev.stateDelta([{ op: "replace", path: "/missing/deeply", value: 2 }]),
      ev.stateDelta([{ op: "replace", path: "/count", value: 2 }]),
      ev.runFinished("thread-1", "run-1"),
    ]);
    const updates = await collect(session.send("go"));

    const errors = errorsOf(updates).map((error) => error.message);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain("state patch failed");
    expect(updates[updates.length - 1]).toEqual({ kind: "done", end: { kind: "success" } });
    expect(session.rawState).toEqual({ count: 2 });
    expectRunEndContract(updates);
  });
});

describe("docs/seeds.md#seed-001: an event this build does not know", () => {
  it("ends the run failed, names the type and keeps what came before", async () => {
    const events: Event[] = [
      ev.runStarted("thread-1", "run-1"),
      ev.textMessageStart("msg-1"),
      ev.textMessageContent("msg-1", "Half a conversation."),
      ev.textMessageEnd("msg-1"),
    ];
    const body = sse(events) + `data: {"type":"TELEPATHY_START","messageId":"msg-2"}\n\n`;
    const session = replaySession(body);
    const updates = await collect(session.send("go"));

    const last = updates[updates.length - 1];
    if (last.kind !== "done" || last.end.kind !== "failed") throw new Error(`an unknown event must still end the run: ${JSON.stringify(updates)}`);
    expect(last.end.message).toContain("TELEPATHY_START");
    expect(session.messages).toHaveLength(2);
    expectRunEndContract(updates);
  });
});
