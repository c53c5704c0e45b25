/**
 * When the verifier refuses part of a chunk's expansion (here R38: the chunk would open a message
 * another owner holds), the write throws, the events before the refused one are sent, and the
 * normalizer forgets what was not sent: the run goes on and ends with RUN_FINISHED. Found by
 * test/server/run.fuzz.test.ts (a later event used to synthesize an END for the refused stream).
 */
import { runAgentInput } from "../../src/protocol/build";
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
  expect(tail).toEqual(["TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END", "SUBAGENT_FINISHED", "RUN_FINISHED"]);
  expect(events.filter((event) => event.type === "TEXT_MESSAGE_END" && event.messageId === "m1")).toHaveLength(1);
  await expectAccepted(events);
});
