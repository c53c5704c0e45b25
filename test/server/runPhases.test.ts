/** run()'s phases around the terminal event: a consumer that lets go on seeing it is not cancelling. */
import { lastValueFrom, takeWhile, toArray } from "rxjs";
import { runAgentInput } from "../../src/protocol/build";
import type { Event } from "../../src/protocol/events";
import { run, success, type Agent } from "../../src/server";

const input = runAgentInput("t", "r1");

function agentKeepingItsSignal(end: "resolves" | "throws") {
  const seen: { signal?: AbortSignal } = {};
  const agent: Agent = {
    async run(ctx) {
      seen.signal = ctx.signal;
      ctx.say("hello");
      if (end === "throws") throw new Error("boom");
      return success();
    },
  };
  return { agent, seen };
}

test.each<["resolves" | "throws", Event["type"]]>([
  ["resolves", "RUN_FINISHED"],
  ["throws", "RUN_ERROR"],
])("an agent that %s, read by a consumer that lets go on seeing the terminal (%s), keeps ctx.signal unaborted", async (end, terminal) => {
  const { agent, seen } = agentKeepingItsSignal(end);
  const out = await lastValueFrom(
    run(agent, input).pipe(
      takeWhile((event) => event.type !== terminal, true),
      toArray(),
    ),
  );
  expect(out[out.length - 1].type).toBe(terminal);
  expect(seen.signal?.aborted).toBe(false);
});

test("a consumer that lets go before the terminal event cancels the agent: ctx.signal aborts", async () => {
  const { agent, seen } = agentKeepingItsSignal("resolves");
  const out = await lastValueFrom(
    run(agent, input).pipe(
      takeWhile((event) => event.type !== "TEXT_MESSAGE_CONTENT", true),
      toArray(),
    ),
  );
  expect(out[out.length - 1].type).toBe("TEXT_MESSAGE_CONTENT");
  expect(seen.signal?.aborted).toBe(true);
});
