/**
 * Joining a thread over real loopback HTTP where it is hardest (issue #10 §2, §3): a run cut while
 * it has a message, a tool call, a reasoning block, a step and subagents open at once — the
 * connect stream re-opens each, passes our strict verifier and the official `verifyEvents`, and a
 * fresh client that applies it ends with the thread the store kept; and a thread waiting on an
 * interrupt, joined by a reloaded Session that then answers it.
 */
import { lastValueFrom, toArray } from "rxjs";
import type { Event } from "../../../src/protocol/events";
import { Session } from "../../../src/client/Session";
import { HttpTransport } from "../../../src/client/transports/HttpTransport";
import { interrupted, success, type Agent } from "../../../src/server/Agent";
import { expectAccepted } from "../../server/support";
import { freshClient } from "../../server/store/threads";
import { counter, errorsOf } from "../../client/support";
import { closeAll, framesOf, gate, inputFor, openStream, postJson, serveStored } from "./support";

afterEach(closeAll);

/** Opens a step, a subagent (with its own open message), a reasoning block, a message with a tool call in it; waits at `pause`; closes them all. */
function everythingOpen(halfway: { open(): void }, pause: { opened: Promise<void> }): Agent {
  return {
    async run(ctx) {
      ctx.say("Starting.");
      ctx.setState({ stage: "research" });
      const step = ctx.step("research");
      const researcher = ctx.subagent("researcher", { description: "finds sources" });
      const notes = researcher.assistantMessage();
      notes.delta("Three sour");
      const thinking = ctx.reasoning();
      thinking.delta("Which source first");
      thinking.end();
      const thought = ctx.reasoning();
      thought.delta("Still thinking");
      const answer = ctx.assistantMessage();
      answer.delta("Looking it ");
      const call = ctx.toolCall("search", { parentMessageId: answer.id });
      call.args('{"q":');
      halfway.open();
      await pause.opened;
      call.args('"rxjs"}');
      call.end();
      call.result("3 hits");
      thought.end();
      answer.delta("up: done.");
      answer.end();
      notes.delta("ces.");
      notes.end();
      researcher.finish({ sources: 3 });
      step.end();
      ctx.setState({ stage: "done" });
      return success();
    },
  };
}

const types = (events: readonly Event[]) => events.map((event) => event.type);

test("a run cut with a message, a tool call, a reasoning block, a step and a subagent open: the HTTP connect stream re-opens each, passes both verifiers, and rebuilds the kept thread", async () => {
  const halfway = gate();
  const pause = gate();
  const { url } = await serveStored(everythingOpen(halfway, pause));
  const live = await openStream(url, inputFor("t1", "r1"));
  await halfway.opened;
  await live.until("TOOL_CALL_ARGS");
  const joined = await openStream(`${url}/connect`, { threadId: "t1" });
  // The prelude ends with the first frame that carries an id; read that far before the run goes on, so it is the cut's.
  await joined.until("\nid: ");
  pause.open();
  const frames = await framesOf(await joined.rest());
  const opened = frames.slice(3, frames.findIndex((frame) => frame.id !== undefined) + 1).map((frame) => frame.event);
  expect(types(frames.slice(0, 3).map((frame) => frame.event))).toEqual(["RUN_STARTED", "MESSAGES_SNAPSHOT", "STATE_SNAPSHOT"]);
  // in the order they were opened (the step, the subagent, its message, the reasoning block, the answer, its tool call),
  // reasoning messages last, inside their block (OpenSpans.reopeners: R22)
  expect(types(opened)).toEqual([
    "STEP_STARTED",
    "SUBAGENT_STARTED",
    "TEXT_MESSAGE_START",
    "REASONING_START",
    "TEXT_MESSAGE_START",
    "TOOL_CALL_START",
    "REASONING_MESSAGE_START",
  ]);
  const events = frames.map((frame) => frame.event);
  await expectAccepted(events);
  const { state, problems } = await freshClient(events);
  expect(problems).toEqual([]);
  // what the store kept of the thread, joined once the run is over
  await live.rest();
  const kept = (await framesOf((await postJson(`${url}/connect`, { threadId: "t1" })).text)).map((frame) => frame.event);
  const [, messages, stateSnapshot] = kept;
  if (messages.type !== "MESSAGES_SNAPSHOT" || stateSnapshot.type !== "STATE_SNAPSHOT")
    throw new Error(`expected the snapshots, got ${types(kept).join(", ")}`);
  expect(state.messages.snapshot()).toEqual(messages.messages);
  expect(state.rawState).toEqual(stateSnapshot.snapshot);
  expect(messages.messages.map((message) => message.content)).toEqual(
    expect.arrayContaining(["Starting.", "Three sources.", "Looking it up: done.", "3 hits"]),
  );
});

/** Asks for a confirmation on the first run; deletes on a resume that approves it. */
const confirming: Agent = {
  async run(ctx) {
    const answer = ctx.resume[0];
    if (answer === undefined) {
      ctx.say("Delete every task?");
      return interrupted(ctx.interrupt({ reason: "confirmation", message: "Delete every task?" }));
    }
    ctx.say(answer.status === "resolved" ? "Deleted." : "Kept them.");
    return success();
  },
};

test("a thread waiting on an interrupt: a reloaded Session joins it (history, the pending interrupt, done interrupted) and answers it", async () => {
  const { url } = await serveStored(confirming);
  const first = new Session(new HttpTransport(url), { threadId: "board", newId: counter("u") });
  const asked = await lastValueFrom(first.send("delete everything").pipe(toArray()));
  expect(asked[asked.length - 1]).toMatchObject({ kind: "done", end: { kind: "interrupted" } });

  const reloaded = new Session(new HttpTransport(url), { threadId: "board", newId: counter("v") });
  const joined = await lastValueFrom(reloaded.connect().pipe(toArray()));
  expect(errorsOf(joined)).toEqual([]);
  expect(joined[joined.length - 1]).toEqual({ kind: "done", end: { kind: "interrupted", interrupts: first.interrupts } });
  expect(reloaded.interrupts).toEqual(first.interrupts);
  expect(reloaded.messages).toEqual(first.messages);

  const [pending] = reloaded.interrupts;
  const answered = await lastValueFrom(reloaded.resume([{ interruptId: pending.id, status: "resolved", payload: { approved: true } }]).pipe(toArray()));
  expect(answered[answered.length - 1]).toEqual({ kind: "done", end: { kind: "success" } });
  expect(reloaded.interrupts).toEqual([]);
  expect(reloaded.messages.map((message) => message.content)).toEqual(["delete everything", "Delete every task?", "Deleted."]);
});
