/**
 * Against the official client: for a corpus of valid streams, `session.messages` and `rawState`
 * equal what `@ag-ui/client` 1.0.0 builds with `transformChunks`, `verifyEvents` and
 * `defaultApplyEvents` from the same events, except for the deliberate differences of docs/rules.md#differences
 * listed in DIFFERENCES (each one asserted as it is, so that it cannot drift silently).
 */
import { AbstractAgent, defaultApplyEvents, transformChunks, verifyEvents as officialVerify } from "@ag-ui/client";
import { EMPTY, from } from "rxjs";
import { ev, withSubagentRunId } from "../../src/protocol/build";
import type { Event } from "../../src/protocol/events";
import type { Message, UserMessage } from "../../src/protocol/messages";
import { Session } from "../../src/client/Session";
import { ReplayTransport } from "../../src/client/transports/ReplayTransport";
import type { Update } from "../../src/thread/Update";
import { collect } from "../client/support";

const THREAD = "thread-1";
const RUN = "run-1";
const USER: UserMessage = { id: "user-1", role: "user", content: "go" };

/** The smallest concrete official agent: defaultApplyEvents only reads and writes its fields. */
class RecordingAgent extends AbstractAgent {
  run(): ReturnType<AbstractAgent["run"]> {
    return EMPTY as never; // their Observable type is their rxjs copy's; never subscribed here
  }
}

interface Built {
  readonly messages: unknown;
  readonly state: unknown;
}

/** The official pipeline over `events`, starting from the same local list our session has (the user message). */
async function official(events: readonly Event[]): Promise<Built> {
  const agent = new RecordingAgent({ threadId: THREAD, initialMessages: [USER] as never }); // our Message is their Message's wire shape
  const input = { threadId: THREAD, runId: RUN, messages: [USER], tools: [], context: [], state: {}, forwardedProps: {} };
  let messages: unknown = agent.messages;
  let state: unknown = agent.state;
  // our events are their BaseEvents' wire shape; their operators lift onto our rxjs copy's Observable
  const source = from(events).pipe(transformChunks() as never, officialVerify() as never);
  await new Promise<void>((resolve, reject) =>
    defaultApplyEvents(input as never, source as never, agent, []).subscribe({
      next: (mutation) => {
        if (mutation.messages !== undefined) messages = mutation.messages;
        if (mutation.state !== undefined) state = mutation.state;
      },
      error: reject,
      complete: resolve,
    }),
  );
  return { messages: JSON.parse(JSON.stringify(messages)), state: JSON.parse(JSON.stringify(state)) };
}

/** Ours: a Session sending the user message, replaying `events`. */
async function ours(events: readonly Event[]): Promise<Built & { updates: Update[] }> {
  const session = new Session(new ReplayTransport(events), { threadId: THREAD, newId: () => RUN });
  const updates = await collect(session.send(USER));
  return { messages: JSON.parse(JSON.stringify(session.messages)), state: JSON.parse(JSON.stringify(session.rawState)), updates };
}

const rs = ev.runStarted(THREAD, RUN);
const rf = ev.runFinished(THREAD, RUN);
const sub = <E extends Parameters<typeof withSubagentRunId>[0]>(event: E) => withSubagentRunId(event, "sub-1");

const CORPUS: Record<string, Event[]> = {
  text: [
    rs,
    ev.textMessageStart("m1", { metadata: { a: 1 } }),
    ev.textMessageContent("m1", "Hello"),
    ev.textMessageContent("m1", " world", { metadata: { b: 2 } }),
    ev.textMessageEnd("m1"),
    rf,
  ],
  chunks: [
    rs,
    ev.textMessageChunk({ messageId: "m1", delta: "A" }),
    ev.textMessageChunk({ delta: "B" }),
    ev.toolCallChunk({ toolCallId: "c1", toolCallName: "f", delta: "{}" }),
    rf,
  ],
  "tool calls": [
    rs,
    ev.textMessageStart("a1"),
    ev.textMessageContent("a1", "Let me look."),
    ev.textMessageEnd("a1"),
    ev.toolCallStart("t1", "search", { parentMessageId: "a1", metadata: { x: 1 } }),
    ev.toolCallArgs("t1", '{"q":"rx"}'),
    ev.toolCallEnd("t1"),
    ev.toolCallStart("t2", "fetch"),
    ev.toolCallEnd("t2"),
    ev.textMessageStart("a2"),
    ev.textMessageEnd("a2"),
    ev.toolCallResult("r1", "t1", "found", { metadata: { y: 2 } }),
    ev.toolCallResult("r2", "t2", "fetched"),
    rf,
  ],
  state: [
    rs,
    ev.stateSnapshot({ count: 1, items: [{ id: 1 }] }),
    ev.stateDelta([
      { op: "replace", path: "/count", value: 2 },
      { op: "add", path: "/items/-", value: { id: 2 } },
    ]),
    rf,
  ],
  activity: [
    rs,
    ev.activitySnapshot("act", "plan", { steps: [] }),
    ev.activityDelta("act", "plan", [{ op: "add", path: "/steps/-", value: "one" }]),
    ev.activitySnapshot("act", "plan", { steps: ["ignored"] }, { replace: false, metadata: { k: 1 } }),
    ev.activitySnapshot("act2", "search", { q: "x" }),
    ev.activitySnapshot("act2", "search", { q: "y" }),
    rf,
  ],
  reasoning: [
    rs,
    ev.reasoningStart("rs1"),
    ev.reasoningMessageStart("rs1"),
    ev.reasoningMessageContent("rs1", "Thinking"),
    ev.reasoningMessageEnd("rs1"),
    ev.reasoningEnd("rs1"),
    ev.reasoningEncryptedValue("message", "rs1", "opaque"),
    ev.toolCallStart("c", "f"),
    ev.toolCallEnd("c"),
    ev.reasoningEncryptedValue("tool-call", "c", "sealed"),
    rf,
  ],
  "reasoning chunks (ours bracket each message in a block of its own, R22; the messages are the same)": [
    rs,
    ev.reasoningMessageChunk({ messageId: "rc1", delta: "Let me" }),
    ev.reasoningMessageChunk({ delta: " think" }),
    ev.reasoningMessageChunk({ messageId: "rc2", subagentRunId: "sub-1", delta: "Mine." }),
    ev.reasoningStart("block"),
    ev.reasoningMessageChunk({ messageId: "rc3", delta: "Inside a block." }),
    ev.reasoningEnd("block"),
    ev.textMessageStart("m1"),
    ev.textMessageEnd("m1"),
    rf,
  ],
  subagents: [
    rs,
    ev.subagentStarted("sub-1", "researcher"),
    sub(ev.textMessageStart("s-m")),
    sub(ev.textMessageContent("s-m", "Three sources.")),
    sub(ev.textMessageEnd("s-m")),
    sub(ev.toolCallStart("s-t", "lookup")),
    sub(ev.toolCallEnd("s-t")),
    sub(ev.toolCallResult("s-r", "s-t", "ok")),
    ev.subagentFinished("sub-1", { result: { sources: 3 } }),
    ev.textMessageStart("m2"),
    ev.textMessageEnd("m2"),
    rf,
  ],
  interrupt: [
    rs,
    ev.toolCallStart("tc", "send_email"),
    ev.toolCallEnd("tc"),
    ev.runFinished(THREAD, RUN, { outcome: { type: "interrupt", interrupts: [{ id: "i1", reason: "tool_call", toolCallId: "tc" }] } }),
  ],
  "messages snapshot": [
    rs,
    ev.activitySnapshot("act", "plan", {}),
    ev.textMessageStart("m1"),
    ev.textMessageEnd("m1"),
    ev.messagesSnapshot([USER, { id: "m1", role: "assistant", content: "canonical" }, { id: "m9", role: "assistant", content: "new" }]),
    rf,
  ],
  "run started echo": [
    ev.runStarted(THREAD, RUN, {
      input: { threadId: THREAD, runId: RUN, messages: [USER, { id: "sys", role: "system", content: "be brief" }], tools: [], context: [] },
    }),
    ev.textMessageStart("m1"),
    ev.textMessageEnd("m1"),
    rf,
  ],
};

describe("apply: ours vs @ag-ui/client 1.0.0 on the same events", () => {
  it.each(Object.keys(CORPUS))("%s: same messages and state", async (name) => {
    const events = CORPUS[name];
    const theirs = await official(events);
    const mine = await ours(events);
    expect(theirs).not.toEqual({ messages: [USER], state: {} }); // the official pipeline really applied something
    expect(mine.messages).toEqual(theirs.messages);
    expect(mine.state).toEqual(theirs.state);
    expect(mine.updates[mine.updates.length - 1].kind).toBe("done");
  });
});

/**
 * docs/rules.md#differences: where we differ on purpose. Each difference is asserted on both sides.
 * 1. verification failure: official aborts the run; we report a protocol error, skip the event, go on;
 * 2. failed state patch: official warns; we emit a patch error (state unchanged on both sides);
 * 3. RUN_ERROR: official applies it and resolves; we end with error(run) + done failed;
 * 4. truncated stream: official completes silently; we end failed;
 * 6. events after the first terminal: official applies them (several runs per stream); we stop (E9).
 * (5, unknown event type, cannot be fed to their in-process pipeline: see seeds.test.ts; 7 and 8
 * are not differences in our implementation, 9 is the registry, tested in Session.test.ts.)
 */
describe("deliberate differences (docs/rules.md#differences)", () => {
  it("1: a verification failure aborts theirs; ours skips the event and keeps going", async () => {
    const events = [rs, ev.textMessageContent("ghost", "x"), ev.textMessageStart("m1"), ev.textMessageEnd("m1"), rf];
    await expect(official(events)).rejects.toThrow();
    const mine = await ours(events);
    expect(mine.updates.filter((update) => update.kind === "error").map((update) => update.kind === "error" && update.error.kind)).toEqual(["protocol"]);
    expect((mine.messages as Message[]).map((message) => message.id)).toEqual(["user-1", "m1"]);
  });

  it("2: a failed state patch leaves the same state on both sides; only ours reports it", async () => {
    const events = [rs, ev.stateSnapshot({ n: 1 }), ev.stateDelta([{ op: "replace", path: "/missing/deep", value: 2 }]), rf];
    const warn = jest.spyOn(console, "warn").mockImplementation(() => undefined);
    try {
      const theirs = await official(events);
      const mine = await ours(events);
      expect(mine.state).toEqual(theirs.state);
      expect(mine.updates.some((update) => update.kind === "error" && update.error.kind === "patch")).toBe(true);
      expect(warn).toHaveBeenCalled();
    } finally {
      warn.mockRestore();
    }
  });

  it("3 and 4: RUN_ERROR and truncation leave the same messages; only ours ends failed", async () => {
    for (const events of [
      [rs, ev.textMessageStart("m1"), ev.textMessageEnd("m1"), ev.runError("boom")],
      [rs, ev.textMessageStart("m1"), ev.textMessageContent("m1", "half")],
    ]) {
      const theirs = await official(events);
      const mine = await ours(events);
      expect(mine.messages).toEqual(theirs.messages);
      const last = mine.updates[mine.updates.length - 1];
      expect(last.kind === "done" && last.end.kind).toBe("failed");
    }
  });

  it("6: after the first terminal event theirs applies a second run; ours has ended", async () => {
    const events = [rs, rf, ev.runStarted(THREAD, "run-2"), ev.textMessageStart("late"), ev.textMessageEnd("late"), ev.runFinished(THREAD, "run-2")];
    const theirs = await official(events);
    const mine = await ours(events);
    expect((theirs.messages as Message[]).map((message) => message.id)).toEqual(["user-1", "late"]);
    expect((mine.messages as Message[]).map((message) => message.id)).toEqual(["user-1"]);
  });
});
