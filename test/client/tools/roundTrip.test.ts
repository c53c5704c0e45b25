/**
 * The pieces of the client tool loop end to end, before the Session runs it: a real agent under
 * the driver calls a client tool, the run ends with `pendingToolCallIds`, the client's own reducer
 * builds the conversation, `pendingClientToolCalls` picks the calls, `executeToolCalls` answers
 * them, and the follow-up run's agent reads the answers with `ctx.toolResultFor`.
 */
import * as t from "io-ts";
import { from, lastValueFrom, toArray } from "rxjs";
import { applyEvents } from "../../../src/client/applyEvents";
import { ClientState } from "../../../src/thread/reducers/ClientState";
import { clientTool } from "../../../src/client/tools/clientTool";
import { executeToolCalls } from "../../../src/client/tools/executeToolCalls";
import { pendingClientToolCalls } from "../../../src/client/tools/pendingClientToolCalls";
import { resolveTools } from "../../../src/client/tools/resolveTools";
import type { ToolCallResult } from "../../../src/client/tools/runToolCall";
import { runAgentInput } from "../../../src/protocol/build";
import { withDefault } from "../../../src/protocol/codec";
import type { Event } from "../../../src/protocol/events";
import type { Message } from "../../../src/protocol/messages";
import { run, sequentialIds, type Agent } from "../../../src/server";
import { collect, expectAccepted } from "../../server/support";

/** Asks the page for its local time (with a time zone the model chose), then answers with what came back. */
function dueToday(args: string): Agent {
  return {
    async run(ctx) {
      const [answer] = ctx.lastToolResults;
      if (answer === undefined) {
        ctx.say("Let me check your local time.", { id: `${ctx.runId}-say` });
        ctx
          .toolCall("get_local_time", { id: "call-1", parentMessageId: `${ctx.runId}-say` })
          .args(args)
          .end();
        return;
      }
      // eslint-disable-next-line @typescript-eslint/no-base-to-string -- the tool answers in this test are text
      ctx.say(answer.error === undefined ? `At ${String(answer.content)}, nothing is due.` : `I could not read your clock: ${answer.error}`);
    },
  };
}

const getLocalTime = clientTool({
  name: "get_local_time",
  description: "The user's local time",
  parameters: t.type({ timeZone: withDefault(t.string, "UTC") }),
  execute: ({ timeZone }, { session }) => ({ time: "09:30", timeZone, seen: session.messages.length }),
});
const { wire, client } = resolveTools([getLocalTime]);
const user: Message = { id: "u1", role: "user", content: "What is due today?" };

async function exchange(args: string): Promise<{ results: ToolCallResult[]; reply: Event[] }> {
  const state = ClientState.untyped();
  const first = await collect(run(dueToday(args), runAgentInput("t", "r1", { messages: [user], tools: [...wire] }), { ids: sequentialIds("a") }));
  await expectAccepted(first);
  state.messages.append(user);
  await lastValueFrom(from(first).pipe(applyEvents({ state }), toArray()));
  const finished = first.at(-1);
  const outcome = finished?.type === "RUN_FINISHED" ? finished.outcome : undefined;
  expect(outcome).toEqual({ type: "success", pendingToolCallIds: ["call-1"] });
  const messages = state.messages.snapshot();
  const pending = pendingClientToolCalls({ messages, tools: client, pendingToolCallIds: outcome?.type === "success" ? outcome.pendingToolCallIds : undefined });
  expect(pending.leftForApplication).toEqual([]);
  let n = 0;
  const session = { threadId: "t", messages, rawState: state.rawState, state: state.state };
  const results = await lastValueFrom(executeToolCalls(pending.execute, { session, newId: () => `tool-${++n}` }).pipe(toArray()));
  const reply = await collect(
    run(dueToday(args), runAgentInput("t", "r2", { messages: [...messages, ...results.map((result) => result.message)], tools: [...wire] })),
  );
  await expectAccepted(reply);
  return { results, reply };
}

const said = (events: readonly Event[]) => events.flatMap((event) => (event.type === "TEXT_MESSAGE_CONTENT" ? [event.delta] : [])).join("");

test("a call the agent left is executed on the client, and the follow-up run reads its result", async () => {
  const { results, reply } = await exchange('{"timeZone":"Asia/Seoul"}');
  expect(results.map((result) => result.message)).toEqual([
    { id: "tool-1", role: "tool", toolCallId: "call-1", content: '{"time":"09:30","timeZone":"Asia/Seoul","seen":2}' },
  ]);
  expect(said(reply)).toBe('At {"time":"09:30","timeZone":"Asia/Seoul","seen":2}, nothing is due.');
});

test("arguments the codec refuses come back to the agent as an error it can read", async () => {
  const { results, reply } = await exchange('{"timeZone":9}');
  expect(results[0]).toMatchObject({ kind: "failed", error: { code: "invalid-arguments" } });
  expect(said(reply)).toBe('I could not read your clock: invalid arguments for "get_local_time" at /timeZone: expected string, but got 9');
});
