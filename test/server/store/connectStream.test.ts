/**
 * The connect stream (docs/durability.md#stores-and-routes): for runs cut anywhere — inside an open message, tool call,
 * reasoning block, step, subagent — the snapshot path (prelude + live tail) passes our strict
 * verifier, `@ag-ui/client` 1.0.0's `verifyEvents` and `@ag-ui/core`'s schemas, and a fresh client
 * applying it ends with the uncut thread's messages and state; the cursor path continues the run
 * exactly.
 */
import { PROTOCOL_VERSION } from "../../../src/protocol/version";
import fc from "fast-check";
import { from, lastValueFrom, toArray } from "rxjs";
import { ev, runAgentInput } from "../../../src/protocol/build";
import { normalizeAndVerify } from "../../../src/operators/normalizeAndVerify";
import { applyEvents } from "../../../src/client/applyEvents";
import type { Event } from "../../../src/protocol/events";
import { applyEvent } from "../../../src/thread/reducers/applyEvent";
import { ClientState } from "../../../src/thread/reducers/ClientState";
import { memoryStore } from "../../../src/server/store/memory/memoryStore";
import { connectPrelude, planConnect, type ConnectFrame } from "../../../src/server/store/connectStream";
import { openConnect } from "../../../src/server/store/openConnect";
import type { ThreadSnapshot } from "../../../src/thread/ThreadSnapshot";
import { ThreadFold } from "../../../src/thread/ThreadFold";
import { success, type Agent } from "../../../src/server";
import { expectAccepted } from "../support";
import { fuzzParameters } from "../../support/fuzz";
import { clientAfter, endingArbitrary, freshClient, logThread, opArbitrary, recordRun, recordThread, type RecordedRun } from "./threads";

const THREAD = "thread-1";

beforeEach(() => {
  // The official client warns on some inputs; its warnings are not under test.
  jest.spyOn(console, "warn").mockImplementation(() => undefined);
});
afterEach(() => jest.restoreAllMocks());

/** Logs `runs`, the last through event `upTo`; connects (after `cursorIndex`'s event of the last run, if given); then logs the rest of the last run. */
async function connectAt(runs: readonly RecordedRun[], upTo: number, cursorIndex?: number) {
  const store = memoryStore();
  const { writer, stored } = await logThread(store, runs, upTo);
  const stream = await openConnect(store, runs[0].input.threadId, cursorIndex === undefined ? undefined : stored[cursorIndex].cursor);
  if (stream === undefined) throw new Error("expected the thread to be known");
  const frames = lastValueFrom(stream.frames.pipe(toArray())); // subscribed now, before the rest is logged
  const rest = runs[runs.length - 1].events.slice(upTo + 1);
  const half = Math.ceil(rest.length / 2);
  if (rest.length > 0) await writer.append(rest.slice(0, half));
  if (rest.length > half) await writer.append(rest.slice(half));
  return { mode: stream.mode, frames: await frames };
}

/** Every check of the snapshot path for a thread cut at `upTo` of its last run. */
async function expectSnapshotPathExact(runs: readonly RecordedRun[], upTo: number): Promise<void> {
  const { mode, frames } = await connectAt(runs, upTo);
  expect(mode).toBe("snapshot");
  const events = frames.map((frame) => frame.event);
  expect(events.slice(0, 3).map((event) => event.type)).toEqual(["RUN_STARTED", "MESSAGES_SNAPSHOT", "STATE_SNAPSHOT"]);
  await expectAccepted(events);
  const { state, problems } = await freshClient(events);
  expect(problems).toEqual([]);
  const uncut = clientAfter(runs);
  expect(state.messages.snapshot()).toEqual(uncut.messages.snapshot());
  expect(state.rawState).toEqual(uncut.rawState);
  const last = runs[runs.length - 1].events;
  const inFlight = upTo < last.length - 1;
  // A terminal that leaves the interrupts of an earlier run pending (RUN_ERROR, A17) cannot pass them to a client that joined during the run.
  if (!inFlight || !keepsInterrupts(last[last.length - 1])) expect(state.interrupts).toEqual(uncut.interrupts);
}

/** Whether the client reducer leaves pending interrupts as they were on `terminal` (asked of the reducer itself). */
function keepsInterrupts(terminal: Event): boolean {
  const probe = ClientState.untyped();
  probe.interrupts = [{ id: "probe", reason: "probe" }];
  applyEvent(probe, terminal);
  return probe.interrupts.length === 1;
}

/** Every check of the cursor path: the frames after the `cursorIndex`'s event continue the last run exactly. */
async function expectCursorPathExact(runs: readonly RecordedRun[], upTo: number, cursorIndex: number): Promise<void> {
  const last = runs[runs.length - 1].events;
  const { mode, frames } = await connectAt(runs, upTo, cursorIndex);
  if (cursorIndex === last.length - 1) {
    expect(mode).toBe("snapshot"); // nothing is left of the run after its terminal
    return;
  }
  expect(mode).toBe("resume");
  expect([...last.slice(0, cursorIndex + 1), ...frames.map((frame) => frame.event)]).toEqual(last);
  expect(frames.every((frame) => frame.cursor !== undefined)).toBe(true);
}

/** A finished first run, then `agent` as the second run. */
async function threadWith(agent: Agent): Promise<RecordedRun[]> {
  const [first] = await recordThread(THREAD, [
    {
      ops: [
        { kind: "say", who: 0, n: 1 },
        { kind: "publish", who: 0, n: 1 },
      ],
      ending: "success",
    },
  ]);
  const history = clientAfter([first]).messages.snapshot().slice();
  const second = await recordRun(agent, { ...first.input, runId: "run2", messages: [...history, { id: "user-2", role: "user", content: "go on" }] });
  return [first, second];
}

const spans: Record<string, Agent> = {
  "an open text message": {
    async run(ctx) {
      const message = ctx.assistantMessage();
      message.delta("Hel").delta("lo, ").delta("world");
      message.end();
      return success();
    },
  },
  "an open message whose metadata a later event changes": {
    async run(ctx) {
      ctx.emit(ev.textMessageStart("meta", { metadata: { stage: "draft", lang: "en" } }));
      ctx.emit(ev.textMessageContent("meta", "Hi", { metadata: { stage: "final" } }));
      ctx.emit(ev.textMessageContent("meta", " there"));
      ctx.emit(ev.textMessageEnd("meta"));
      return success();
    },
  },
  "an open tool call (inside an open message)": {
    async run(ctx) {
      const message = ctx.assistantMessage();
      message.delta("Let me look.");
      const call = ctx.toolCall("search", { parentMessageId: message.id });
      call.args('{"q":').args('"rxjs"}');
      call.end();
      message.end();
      call.result("3 hits");
      return success();
    },
  },
  "an open reasoning block and reasoning message": {
    async run(ctx) {
      ctx.emit(ev.reasoningStart("r1"));
      ctx.emit(ev.reasoningMessageStart("r1"));
      ctx.emit(ev.reasoningMessageContent("r1", "think"));
      ctx.emit(ev.reasoningMessageContent("r1", "ing"));
      ctx.emit(ev.reasoningMessageEnd("r1"));
      ctx.emit(ev.reasoningEncryptedValue("message", "r1", "opaque"));
      ctx.emit(ev.reasoningEnd("r1"));
      ctx.say("Done thinking.");
      return success();
    },
  },
  "a reasoning message that outlives its blocks, a subagent's reasoning, and a chunked one in the block the normalizer opens (R22)": {
    async run(ctx) {
      ctx.emit(ev.reasoningStart("b1"));
      ctx.emit(ev.reasoningMessageStart("m1")); // opens inside b1
      ctx.emit(ev.reasoningStart("b2"));
      ctx.emit(ev.reasoningEnd("b1")); // m1 is held by b2 now: a cut here must reopen b2 before m1
      ctx.emit(ev.reasoningMessageContent("m1", "still"));
      ctx.emit(ev.reasoningEnd("b2")); // m1 outlives every block: only opening needs one
      ctx.emit(ev.reasoningMessageContent("m1", " going"));
      const thinker = ctx.subagent("thinker");
      const thought = thinker.reasoning();
      thought.delta("sub thought");
      ctx.emit(ev.reasoningMessageEnd("m1"));
      thought.end();
      thinker.finish({});
      ctx.emit({ type: "REASONING_MESSAGE_CHUNK", messageId: "c1", delta: "chunked" });
      ctx.emit({ type: "REASONING_MESSAGE_CHUNK", delta: " thought" });
      ctx.say("Done thinking.");
      return success();
    },
  },
  "an open step, with state published inside it": {
    async run(ctx) {
      const step = ctx.step("research");
      ctx.setState({ phase: "research", found: [] });
      ctx.say("Searching.");
      ctx.setState({ phase: "research", found: ["a"] });
      step.end();
      ctx.setState({ phase: "done", found: ["a"] });
      return success();
    },
  },
  "open subagents, nested, one started under a finished parent": {
    async run(ctx) {
      const researcher = ctx.subagent("researcher", { description: "finds sources" });
      const step = researcher.step("search");
      const critic = researcher.subagent("critic");
      critic.say("Too long.");
      const draft = researcher.assistantMessage();
      draft.delta("Three papers");
      critic.finish({ verdict: "ok" });
      draft.delta(" found.");
      draft.end();
      step.end();
      researcher.finish({ papers: 3 });
      ctx.emit(ev.subagentStarted("late", "summarizer", { parentSubagentRunId: researcher.id })); // R32: a parent started in this run, finished or not
      ctx.emit(withTag(ev.textMessageStart("late-msg"), "late"));
      ctx.emit(withTag(ev.textMessageContent("late-msg", "Summary."), "late"));
      ctx.emit(withTag(ev.textMessageEnd("late-msg"), "late"));
      ctx.emit(ev.subagentFinished("late"));
      const failing = ctx.subagent("flaky");
      failing.fail("gave up", "TIMEOUT");
      return success();
    },
  },
};

function withTag<E extends Event>(event: E, subagentRunId: string): E {
  return { ...event, subagentRunId };
}

describe("a run cut anywhere connects exactly", () => {
  test.each(Object.entries(spans))("%s: the snapshot path at every cut, the cursor path at every cursor", async (_name, agent) => {
    const runs = await threadWith(agent);
    const events = runs[1].events;
    for (let upTo = 0; upTo < events.length; upTo++) {
      await expectSnapshotPathExact(runs, upTo);
      for (let cursor = 0; cursor <= upTo; cursor++) await expectCursorPathExact(runs, upTo, cursor);
    }
  });

  test("a cut inside each kind of span re-opens it in the prelude", async () => {
    const runs = await threadWith(spans["open subagents, nested, one started under a finished parent"]);
    const events = runs[1].events;
    const cut = events.findIndex((event) => event.type === "TEXT_MESSAGE_CONTENT" && event.delta === "Three papers");
    const { frames } = await connectAt(runs, cut);
    const reopened = frames.slice(3, frames.findIndex((frame) => frame.cursor !== undefined) + 1).map((frame) => frame.event.type);
    // researcher, its step, critic (still running: it finishes after this delta), the open draft
    expect(reopened).toEqual(["SUBAGENT_STARTED", "STEP_STARTED", "SUBAGENT_STARTED", "TEXT_MESSAGE_START"]);
  });
});

describe("an idle thread connects as its compacted history", () => {
  test.each(["success", "interrupt", "throw", "cancelled"] as const)("last run ended %s: RUN_STARTED, the snapshots, RUN_FINISHED", async (ending) => {
    const runs = await recordThread(THREAD, [
      {
        ops: [
          { kind: "say", who: 0, n: 1 },
          { kind: "publish", who: 0, n: 2 },
        ],
        ending: "success",
      },
      {
        ops: [
          { kind: "open", who: 0, n: 1 },
          { kind: "delta", which: 0 },
          { kind: "tool", who: 0, n: 1 },
        ],
        ending,
      },
    ]);
    const last = runs[1].events;
    const { frames } = await connectAt(runs, last.length - 1);
    const events = frames.map((frame) => frame.event);
    expect(events.map((event) => event.type)).toEqual(["RUN_STARTED", "MESSAGES_SNAPSHOT", "STATE_SNAPSHOT", "RUN_FINISHED"]);
    const finished = events[3];
    if (finished.type !== "RUN_FINISHED") throw new Error("unreachable");
    const uncut = clientAfter(runs);
    expect(finished.outcome).toEqual(ending === "interrupt" ? { type: "interrupt", interrupts: uncut.interrupts } : { type: "success" });
    await expectSnapshotPathExact(runs, last.length - 1);
    // the history of every run is there, the failed or cancelled one's included (ag-ui #2408)
    expect(events[1]).toMatchObject({
      messages: expect.arrayContaining([expect.objectContaining({ id: "user-1" }), expect.objectContaining({ id: "user-2" })]),
    });
    expect(frames.map((frame) => frame.cursor === undefined)).toEqual([true, true, true, false]);
  });

  test("an unknown thread has no connect stream", async () => {
    expect(await openConnect(memoryStore(), "nobody")).toBeUndefined();
  });
});

describe("planConnect", () => {
  const snapshot = (status: ThreadSnapshot["run"]["status"], reopen: Event[] = [], interrupts: ThreadSnapshot["interrupts"] = []): ThreadSnapshot => ({
    threadId: "t",
    cursor: "c9",
    messages: [{ id: "u1", role: "user", content: "hi" }],
    state: { n: 1 },
    interrupts,
    run: { runId: "r2", status, reopen, parentRunId: "r1" },
  });
  const types = (frames: readonly ConnectFrame[]) => frames.map((frame) => frame.event.type);

  test.each<[string, Parameters<typeof planConnect>[0], { mode: string; types: string[]; tailAfter: string | undefined }]>([
    [
      "resume with events, run live",
      { kind: "resume", after: "c3", events: [{ cursor: "c4", event: ev.textMessageContent("m", "x") }] },
      { mode: "resume", types: ["TEXT_MESSAGE_CONTENT"], tailAfter: "c4" },
    ],
    ["resume with nothing new yet", { kind: "resume", after: "c3", events: [] }, { mode: "resume", types: [], tailAfter: "c3" }],
    [
      "resume through the terminal",
      { kind: "resume", after: "c3", events: [{ cursor: "c4", event: ev.runError("x") }] },
      { mode: "resume", types: ["RUN_ERROR"], tailAfter: undefined },
    ],
    [
      "snapshot of a running run",
      { kind: "snapshot", snapshot: snapshot("running", [ev.stepStarted("s")]) },
      { mode: "snapshot", types: ["RUN_STARTED", "MESSAGES_SNAPSHOT", "STATE_SNAPSHOT", "STEP_STARTED"], tailAfter: "c9" },
    ],
    [
      "snapshot of an ended run",
      { kind: "snapshot", snapshot: snapshot("failed") },
      { mode: "snapshot", types: ["RUN_STARTED", "MESSAGES_SNAPSHOT", "STATE_SNAPSHOT", "RUN_FINISHED"], tailAfter: undefined },
    ],
  ])("%s", (_name, read, expected) => {
    const plan = planConnect(read);
    expect({ mode: plan.mode, types: types(plan.frames), tailAfter: plan.tailAfter }).toEqual(expected);
  });

  test("for a client following the run (reconnect), an ended run's prelude ends as the run ended", () => {
    const failed: ThreadSnapshot = { ...snapshot("failed"), run: { ...snapshot("failed").run, errorMessage: "the model is down", errorCode: "UPSTREAM" } };
    expect(connectPrelude(failed, { reconnect: true }).slice(3)).toEqual([ev.runError("the model is down", { code: "UPSTREAM" })]);
    expect(connectPrelude(snapshot("cancelled"), { reconnect: true }).slice(3)).toEqual([ev.runFinished("t", "r2", { outcome: { type: "cancelled" } })]);
    // joining the thread (no reconnect), the same runs end as history
    expect(connectPrelude(failed).slice(3)).toEqual([ev.runFinished("t", "r2", { outcome: { type: "success" } })]);
    expect(
      planConnect({ kind: "snapshot", snapshot: snapshot("interrupted", [], [{ id: "i1", reason: "approve" }]) }, { reconnect: true }).frames[3].event,
    ).toMatchObject({
      outcome: { type: "interrupt" },
    });
  });

  test("the prelude names the last run, sends the snapshots as they are, and ends with the pending interrupts", () => {
    const interrupts = [{ id: "i1", reason: "approve" }];
    expect(connectPrelude(snapshot("interrupted", [], interrupts))).toEqual([
      ev.runStarted("t", "r2", { parentRunId: "r1", protocolVersion: PROTOCOL_VERSION }),
      ev.messagesSnapshot([{ id: "u1", role: "user", content: "hi" }]),
      ev.stateSnapshot({ n: 1 }),
      ev.runFinished("t", "r2", { outcome: { type: "interrupt", interrupts: [{ id: "i1", reason: "approve" }] } }),
    ]);
  });
});

describe("pending client tool calls (docs/threads.md#pending-client-tools)", () => {
  const tools = [{ name: "get_local_time", description: "the user's clock", parameters: { type: "object" } }];

  /** A thread whose one run called get_local_time and ended leaving `pending` to the client, joined afresh. */
  async function joinAfter(pending: string[] | undefined): Promise<Event[]> {
    const store = memoryStore();
    const writer = await store.beginRun(runAgentInput(THREAD, "r1", { messages: [{ id: "u1", role: "user", content: "time?" }], tools }));
    await writer.append([
      ev.toolCallStart("tc1", "get_local_time", { parentMessageId: "a1" }),
      ev.toolCallArgs("tc1", "{}"),
      ev.toolCallEnd("tc1"),
      ev.runFinished(THREAD, "r1", { outcome: pending === undefined ? { type: "success" } : { type: "success", pendingToolCallIds: pending } }),
    ]);
    const stream = await openConnect(store, THREAD);
    if (stream === undefined) throw new Error("expected the thread to be known");
    return (await lastValueFrom(stream.frames.pipe(toArray()))).map((frame) => frame.event);
  }

  test("the prelude's RUN_FINISHED carries them; both verifiers accept it, and a fresh client's run ends with them", async () => {
    const events = await joinAfter(["tc1"]);
    expect(events[events.length - 1]).toEqual(ev.runFinished(THREAD, "r1", { outcome: { type: "success", pendingToolCallIds: ["tc1"] } }));
    await expectAccepted(events);
    const state = ClientState.untyped();
    const updates = await lastValueFrom(from(events).pipe(normalizeAndVerify(), applyEvents({ state }), toArray()));
    expect(updates[updates.length - 1]).toEqual({ kind: "done", end: { kind: "success", pendingToolCallIds: ["tc1"] } });
  });

  test.each([
    ["no list", undefined],
    ["an empty list", []],
  ])("a run that left %s ends the prelude with a bare success", async (_name, pending) => {
    const events = await joinAfter(pending);
    expect(events[events.length - 1]).toEqual(ev.runFinished(THREAD, "r1", { outcome: { type: "success" } }));
  });

  test("planConnect sends a snapshot's list as it is, on the success only", () => {
    const snapshot: ThreadSnapshot = {
      threadId: "t",
      cursor: "c9",
      messages: [],
      state: null,
      interrupts: [],
      run: { runId: "r2", status: "finished", reopen: [] },
      pendingToolCallIds: ["a", "b"],
    };
    const plan = planConnect({ kind: "snapshot", snapshot });
    expect(plan.frames[plan.frames.length - 1]).toEqual({
      event: ev.runFinished("t", "r2", { outcome: { type: "success", pendingToolCallIds: ["a", "b"] } }),
      cursor: "c9",
    });
    expect(plan.tailAfter).toBeUndefined();
  });
});

describe("property: any agent script, any cut point", () => {
  const script = fc.record({ ops: fc.array(opArbitrary, { maxLength: 30 }), ending: endingArbitrary });
  const thread = fc.array(script, { minLength: 1, maxLength: 3 });

  test("prelude + tail passes both verifiers and rebuilds the uncut thread; the cursor path continues the run exactly", async () => {
    await fc.assert(
      fc.asyncProperty(thread, fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), async (scripts, cutAt, cursorAt) => {
        const runs = await recordThread(THREAD, scripts);
        const events = runs[runs.length - 1].events;
        const upTo = Math.min(events.length - 1, Math.floor(cutAt * events.length));
        await expectSnapshotPathExact(runs, upTo);
        await expectCursorPathExact(runs, upTo, Math.min(upTo, Math.floor(cursorAt * (upTo + 1))));
      }),
      fuzzParameters(150),
    );
  });
});

describe("ended subagents (issue #25 §7: a reload names a finished subagent)", () => {
  /** Run 1: the nested subagents agent, whole; run 2: a plain answer (whole, or cut after `upTo`). */
  async function afterSubagents(): Promise<RecordedRun[]> {
    const [first, second] = await threadWith(spans["open subagents, nested, one started under a finished parent"]);
    const history = clientAfter([first, second]).messages.snapshot().slice();
    const third = await recordRun(
      {
        async run(ctx) {
          ctx.say("Anything else?");
          return success();
        },
      },
      { ...first.input, runId: "run3", messages: [...history, { id: "user-3", role: "user", content: "thanks" }] },
    );
    return [first, second, third];
  }

  /** What a client's registry says of each subagent: name, status, parent. */
  const registryOf = (state: ClientState<unknown>) =>
    state.subagentList().map((subagent) => ({ name: subagent.name, status: subagent.status, parent: subagent.parentSubagentRunId }));

  test("an idle thread's prelude replays each ended subagent's start and end: a fresh client's registry names them", async () => {
    const runs = await afterSubagents();
    const last = runs[2].events;
    const { frames } = await connectAt(runs, last.length - 1);
    const events = frames.map((frame) => frame.event);
    expect(events.map((event) => event.type)).toEqual([
      "RUN_STARTED",
      "MESSAGES_SNAPSHOT",
      "STATE_SNAPSHOT",
      ...["SUBAGENT_STARTED", "SUBAGENT_FINISHED"], // researcher
      ...["SUBAGENT_STARTED", "SUBAGENT_FINISHED"], // critic
      ...["SUBAGENT_STARTED", "SUBAGENT_FINISHED"], // summarizer
      "RUN_FINISHED",
    ]);
    await expectSnapshotPathExact(runs, last.length - 1);
    const { state } = await freshClient(events);
    // "flaky" said nothing: no message names it, so the prelude leaves it out; the others are as the uncut client has them
    const uncut = registryOf(clientAfter(runs)).filter((subagent) => subagent.name !== "flaky");
    expect(registryOf(state)).toEqual(uncut);
    expect(registryOf(state).map((subagent) => [subagent.name, subagent.status.kind])).toEqual([
      ["researcher", "finished"],
      ["critic", "finished"],
      ["summarizer", "finished"],
    ]);
  });

  test("a thread connected in the middle of a later run replays the ended ones before the live run's re-openers, at every cut", async () => {
    const runs = await afterSubagents();
    const last = runs[2].events;
    for (let upTo = 0; upTo < last.length; upTo++) await expectSnapshotPathExact(runs, upTo);
    const { frames } = await connectAt(runs, 1);
    const { state } = await freshClient(frames.map((frame) => frame.event));
    expect(state.subagentList().map((subagent) => subagent.name)).toEqual(["researcher", "critic", "summarizer"]);
  });

  test("a store restored from its snapshot keeps the ended subagents for the next connect", async () => {
    const runs = await afterSubagents();
    const store = memoryStore();
    await logThread(store, runs, runs[2].events.length - 1);
    const read = await store.read(THREAD);
    if (read?.kind !== "snapshot") throw new Error("expected a snapshot read");
    const restored = ThreadFold.restore(read.snapshot).snapshot();
    expect(restored?.subagents).toEqual(read.snapshot.subagents);
    expect(connectPrelude(read.snapshot).filter((event) => event.type.startsWith("SUBAGENT_"))).toHaveLength(6);
  });
});
