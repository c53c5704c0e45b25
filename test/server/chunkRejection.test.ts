/**
 * When the verifier refuses part of a chunk's expansion (here R38: the chunk would open a message
 * another owner holds), the write throws, the events before the refused one are sent, and the
 * normalizer forgets what was not sent: the run goes on and ends with RUN_FINISHED. Found by
 * test/server/run.fuzz.test.ts (a later event used to synthesize an END for the refused stream).
 */
import { ev, runAgentInput } from "../../src/protocol/build";
import type { Event } from "../../src/protocol/events";
import { ProtocolError } from "../../src/operators/ProtocolError";
import { run, sequentialIds, type Agent } from "../../src/server";
import { collect, expectAccepted, types } from "./support";

const chunk = (messageId: string, delta: string): Event => ({ type: "TEXT_MESSAGE_CHUNK", messageId, delta });

test("a refused opening chunk (nothing sent) leaves no stream open in the normalizer", async () => {
  const thrown: unknown[] = [];
  const agent: Agent = {
    async run(ctx) {
      ctx.emit(chunk("m1", "parent text")); // m1 belongs to the parent from here on
      ctx.say("between"); // closes the chunk stream m1
      const sub = ctx.subagent("worker");
      try {
        sub.emit(chunk("m1", "not yours")); // would open m1 for the subagent: R38
      } catch (error) {
        thrown.push(error);
      }
      sub.say("the subagent goes on");
    },
  };
  const events = await collect(run(agent, runAgentInput("t", "r"), { ids: sequentialIds() }));
  expect(thrown).toHaveLength(1);
  expect(thrown[0]).toBeInstanceOf(ProtocolError);
  expect(events[events.length - 1].type).toBe("RUN_FINISHED");
  await expectAccepted(events);
});

test("a chunk refused after the END it synthesized was sent: the END stays sent, the refused stream is not opened", async () => {
  let thrown: unknown;
  const agent: Agent = {
    async run(ctx) {
      ctx.say("mine", { id: "owned" }); // "owned" now belongs to the parent
      const sub = ctx.subagent("worker");
      sub.emit(chunk("m1", "open")); // the subagent's lane holds m1
      try {
        sub.emit(chunk("owned", "steal")); // expands to END(m1), START(owned): START is refused (R38)
      } catch (error) {
        thrown = error;
      }
      sub.say("after");
    },
  };
  const events = await collect(run(agent, runAgentInput("t", "r"), { ids: sequentialIds() }));
  expect(thrown).toBeInstanceOf(ProtocolError);
  const tail = types(events).slice(-7);
  expect(tail).toEqual([
    "TEXT_MESSAGE_CONTENT",
    "TEXT_MESSAGE_END",
    "TEXT_MESSAGE_START",
    "TEXT_MESSAGE_CONTENT",
    "TEXT_MESSAGE_END",
    "SUBAGENT_FINISHED",
    "RUN_FINISHED",
  ]);
  expect(events.filter((event) => event.type === "TEXT_MESSAGE_END" && event.messageId === "m1")).toHaveLength(1);
  await expectAccepted(events);
});

const thought = (messageId: string, delta: string): Event => ({ type: "REASONING_MESSAGE_CHUNK", messageId, delta });

test("a reasoning chunk whose own block is sent but whose message is refused: the block alone stays open and is ended with the lane (R22)", async () => {
  let thrown: unknown;
  const agent: Agent = {
    async run(ctx) {
      const sub = ctx.subagent("worker");
      sub.emit(ev.reasoningStart("b"));
      sub.emit(ev.reasoningMessageStart("m")); // m is open, inside b
      sub.emit(ev.reasoningEnd("b")); // m outlives its block: legal, only opening needs one
      try {
        sub.emit(thought("m", "again")); // no block of the subagent open: REASONING_START(m) goes out, REASONING_MESSAGE_START(m) is refused (open)
      } catch (error) {
        thrown = error;
      }
      sub.emit(ev.reasoningMessageEnd("m")); // closes the subagent's lane first: the block's REASONING_END, then this
    },
  };
  const events = await collect(run(agent, runAgentInput("t", "r"), { ids: sequentialIds() }));
  expect(thrown).toMatchObject({ code: "reasoning", rule: "R22" });
  const reasoning = events
    .filter((event) => event.type.startsWith("REASONING_"))
    .map((event) => `${event.type} ${"messageId" in event ? event.messageId : ""}`);
  expect(reasoning).toEqual([
    "REASONING_START b",
    "REASONING_MESSAGE_START m",
    "REASONING_END b",
    "REASONING_START m", // the block the normalizer opened for the refused message
    "REASONING_END m", // ended when the lane closed, without a REASONING_MESSAGE_END for a message it never opened
    "REASONING_MESSAGE_END m",
  ]);
  expect(events[events.length - 1].type).toBe("RUN_FINISHED");
  await expectAccepted(events);
});

test("a synthesized END refused because its stream was already closed on the wire does not re-open it", async () => {
  const thrown: unknown[] = [];
  const agent: Agent = {
    async run(ctx) {
      const sub = ctx.subagent("worker");
      sub.emit(thought("r1", "hm")); // the subagent's lane holds r1, in a block of its own
      ctx.emit(ev.reasoningMessageEnd("r1")); // untagged: the verifier lets it end the subagent's r1 (no tag, no conflict)
      try {
        sub.emit(thought("r2", "next")); // closing r1 synthesizes REASONING_MESSAGE_END(r1): refused, r1 is closed
      } catch (error) {
        thrown.push(error);
      }
      sub.emit(thought("r3", "still going")); // the normalizer did not re-open r1, so nothing ends it twice
    },
  };
  const events = await collect(run(agent, runAgentInput("t", "r"), { ids: sequentialIds() }));
  expect(thrown).toHaveLength(1);
  expect(thrown[0]).toMatchObject({ code: "reasoning", rule: "R22" });
  expect(events[events.length - 1].type).toBe("RUN_FINISHED");
  await expectAccepted(events);
});

test("the lanes after a refused END stay open with their opener fields: a continuation repeating its role is not a contradiction (C6)", async () => {
  const thrown: unknown[] = [];
  const agent: Agent = {
    async run(ctx) {
      const sub = ctx.subagent("worker");
      sub.emit(chunk("m1", "a")); // the subagent's lane opens first
      ctx.emit(ev.textMessageEnd("m1")); // untagged: ends the subagent's m1 on the wire, behind the normalizer's back
      ctx.emit({ type: "TEXT_MESSAGE_CHUNK", messageId: "m2", delta: "b", role: "assistant" }); // the parent's lane, second in lane order
      for (const event of [ev.messagesSnapshot([]), { type: "TEXT_MESSAGE_CHUNK", messageId: "m2", delta: "c", role: "assistant" } as const]) {
        try {
          ctx.emit(event); // the snapshot closes every lane: END(m1) is refused (R15), so END(m2) and the snapshot are not sent
        } catch (error) {
          thrown.push(error);
        }
      }
    },
  };
  const events = await collect(run(agent, runAgentInput("t", "r"), { ids: sequentialIds() }));
  expect(thrown).toHaveLength(1);
  expect(thrown[0]).toMatchObject({ code: "text-message", rule: "R15" });
  expect(
    events
      .filter((event) => event.type === "TEXT_MESSAGE_CONTENT" && event.messageId === "m2")
      .map((event) => event.type === "TEXT_MESSAGE_CONTENT" && event.delta),
  ).toEqual(["b", "c"]);
  expect(types(events).slice(-3)).toEqual(["SUBAGENT_FINISHED", "TEXT_MESSAGE_END", "RUN_FINISHED"]);
  await expectAccepted(events);
});

test("an id source that throws part-way through an expansion: the END the verifier accepted before it is still sent", async () => {
  let armed = false;
  const ids = sequentialIds();
  const failure = new Error("out of ids");
  let thrown: unknown;
  const agent: Agent = {
    async run(ctx) {
      const sub = ctx.subagent("worker");
      sub.emit(ev.reasoningStart("r1")); // s1's explicit block r1
      ctx.emit(ev.messagesSnapshot([{ id: "r1", role: "reasoning", content: "" }])); // the snapshot says r1 is the parent's (R43)
      ctx.emit(chunk("m1", "open")); // the parent's lane holds m1
      armed = true;
      try {
        // Closes m1 (END sent), then needs a block of its own for r1 whose name is taken by s1's: minting it throws.
        ctx.emit(thought("r1", "mine"));
      } catch (error) {
        thrown = error;
      }
      armed = false;
      ctx.emit(ev.reasoningEnd("r1")); // untagged: r1 is the parent's now
    },
  };
  const events = await collect(run(agent, runAgentInput("t", "r"), { ids: () => (armed ? thrower(failure) : ids()) }));
  expect(thrown).toBe(failure);
  expect(events.filter((event) => event.type === "TEXT_MESSAGE_END" && event.messageId === "m1")).toHaveLength(1);
  expect(events[events.length - 1].type).toBe("RUN_FINISHED");
  await expectAccepted(events);
});

function thrower(error: Error): never {
  throw error;
}
