/**
 * Property (docs/threads.md#the-anchor-rule): seeded agent scripts (text with names and metadata,
 * server tools, a client tool, reasoning with encrypted values, activity, subagents, state,
 * failures and interrupts) over several turns, through the real `@ag-ui/client` HttpAgent and
 * through our Session, against a store that owns the history: every run is accepted (no 409, no
 * 422), and every run's agent sees the stored path.
 */
import { HttpAgent } from "@ag-ui/client";
import { lastValueFrom, toArray } from "rxjs";
import { ev } from "../../../src/protocol/build";
import type { RunAgentInput } from "../../../src/protocol/input";
import type { Message } from "../../../src/protocol/messages";
import { Session } from "../../../src/client/Session";
import { HttpTransport } from "../../../src/client/transports/HttpTransport";
import { AgentError, interrupted, success, type Agent, type RunContext } from "../../../src/server";
import { createHandler } from "../../../src/server/http/createHandler";
import { memoryStore, type MemoryStore } from "../../../src/server/store/memory/memoryStore";
import { serve, type Served } from "../../../src/node/serve";
import { seededRandom } from "../../support/seededRandom";
import { counter } from "../../client/support";

const CLIENT_TOOL = "confirm_choice";
const TURNS = 6;
const SEEDS = [1, 2, 3, 4, 5, 6, 7, 8];

/** What the test watches on the server: each run's input, each answer's status, the path stored before each run. */
interface Watch {
  readonly inputs: RunAgentInput[];
  readonly statuses: number[];
  readonly pathsBefore: Message[][];
}

/** An agent whose run `k` plays a script drawn from `seed` and `k`. */
function scriptedByTurn(seed: number, watch: Watch): Agent {
  return {
    async run(ctx) {
      watch.inputs.push(ctx.input);
      const random = seededRandom(seed * 1000 + watch.inputs.length);
      const pick = (n: number) => Math.floor(random() * n);
      const steps = 1 + pick(6);
      for (let i = 0; i < steps; i++) play(ctx, pick(12), i, pick);
      const ending = pick(10);
      if (ending === 0) throw new AgentError("the model provider failed", "PROVIDER");
      if (ending === 1) return interrupted(ctx.interrupt({ reason: "confirmation" }));
      if (ending === 2 && ctx.input.tools.some((tool) => tool.name === CLIENT_TOOL))
        ctx
          .toolCall(CLIENT_TOOL)
          .argsJson({ option: pick(3) })
          .end();
      return success();
    },
  };
}

function play(ctx: RunContext, op: number, i: number, pick: (n: number) => number): void {
  switch (op) {
    case 0:
      ctx.say(`text ${i}`);
      break;
    case 1:
      ctx.say(`named ${i}`, { name: "planner" });
      break;
    case 2: {
      const id = `meta-${i}-${pick(1e9)}`;
      ctx.emit(ev.textMessageStart(id, { metadata: { source: "kb", rank: i } }));
      ctx.emit(ev.textMessageContent(id, `with metadata ${i}`));
      ctx.emit(ev.textMessageEnd(id, { metadata: { done: true } }));
      break;
    }
    case 3:
      ctx
        .toolCall("lookup")
        .argsJson({ q: `q${i}` })
        .resultJson({ hits: i });
      break;
    case 4:
      ctx.toolCall("fire_and_forget").argsJson({ n: i }).end(); // a server call left without a result
      break;
    case 5: {
      const thinking = ctx.reasoning().delta(`thinking ${i}`);
      if (pick(2) === 0) thinking.encryptedValue(`enc-${i}`);
      thinking.end();
      break;
    }
    case 6:
      ctx
        .activity("progress")
        .snapshot({ done: i })
        .delta([{ op: "replace", path: "/done", value: i + 1 }]);
      break;
    case 7: {
      const sub = ctx.subagent("researcher");
      sub.say(`found ${i}`);
      sub.finish({ ok: true });
      break;
    }
    case 8: {
      // a tool call under the text message just said, its result with metadata
      const parent = ctx.say(`let me check ${i}`);
      const call = `under-${i}-${pick(1e9)}`;
      ctx.emit(ev.toolCallStart(call, "lookup", { parentMessageId: parent, metadata: { via: "parent" } }));
      ctx.emit(ev.toolCallArgs(call, '{"q":"parent"}'));
      ctx.emit(ev.toolCallEnd(call));
      ctx.emit(ev.toolCallResult(`result-${call}`, call, "found", { metadata: { cached: true } }));
      break;
    }
    case 9: {
      const id = `empty-${i}-${pick(1e9)}`; // a text message with no content at all
      ctx.emit(ev.textMessageStart(id));
      ctx.emit(ev.textMessageEnd(id));
      break;
    }
    case 10:
      ctx.toolCall("two_in_one").argsJson({ a: 1 }).end(); // calls without text, one right after the other
      ctx.toolCall("two_in_one").argsJson({ a: 2 }).resultJson({ ok: true });
      break;
    default:
      ctx.setState({ turn: i, tags: ["a", "b"].slice(0, 1 + (i % 2)) });
      break;
  }
}

async function serveWatched(seed: number): Promise<{ url: string; watch: Watch; store: MemoryStore; served: Served }> {
  const store = memoryStore();
  const watch: Watch = { inputs: [], statuses: [], pathsBefore: [] };
  const handler = createHandler(scriptedByTurn(seed, watch), { store, onRunError: () => undefined });
  const served = await serve(async (request) => {
    const isRun = request.method === "POST" && new URL(request.url).pathname === "/agent";
    if (isRun) {
      const read = await store.read("t");
      watch.pathsBefore.push(read?.kind === "snapshot" ? [...read.snapshot.messages] : []);
    }
    const response = await handler(request);
    if (isRun) watch.statuses.push(response.status);
    return response;
  });
  return { url: `${served.url}agent`, watch, store, served };
}

/** Every run was accepted, and each run's agent saw the stored path (activity left out) before what the post added. */
function expectStoredPathSeen(watch: Watch): void {
  expect(watch.statuses.every((status) => status === 200)).toBe(true);
  expect(watch.inputs.length).toBe(watch.statuses.length);
  watch.inputs.forEach((input, k) => {
    const path = watch.pathsBefore[k].filter((message) => message.role !== "activity");
    expect(input.messages.slice(0, path.length)).toEqual(path);
  });
}

const clientTool = { name: CLIENT_TOOL, description: "Ask the user to confirm", parameters: { type: "object", properties: { option: { type: "number" } } } };

test.each(SEEDS)("through the official HttpAgent, seed %i: no 409, no 422, the agent sees the stored path", async (seed) => {
  const { url, watch, served } = await serveWatched(seed);
  try {
    const agent = new HttpAgent({ url, threadId: "t", initialMessages: [{ id: "sys", role: "system", content: "Be brief." }] });
    const random = seededRandom(seed);
    for (let turn = 0; turn < TURNS; turn++) {
      const pending = agent.pendingInterrupts.map((interrupt) => ({ interruptId: interrupt.id, status: "cancelled" as const }));
      const open = openClientCalls(agent.messages); // test-only: HttpAgent's messages are AG-UI messages
      if (open.length > 0) for (const id of open) agent.addMessage({ id: `answer-${id}`, role: "tool", toolCallId: id, content: "confirmed" });
      else if (pending.length === 0 || random() < 0.5) agent.addMessage({ id: `u-${seed}-${turn}`, role: "user", content: `turn ${turn}` });
      if (turn === 3) agent.setState({ edited: turn }); // the user's edit
      await agent.runAgent({ tools: [clientTool], ...(pending.length > 0 ? { resume: pending } : {}) }).catch(() => undefined); // a failed run rejects; its status is checked below
    }
    expectStoredPathSeen(watch);
  } finally {
    await served.close();
  }
});

test.each(SEEDS)("through our Session, seed %i: no 409, no 422, the agent sees the stored path", async (seed) => {
  const { url, watch, served } = await serveWatched(seed);
  try {
    const session = new Session(new HttpTransport(url), {
      threadId: "t",
      newId: counter(`s${seed}`),
      tools: [{ ...clientTool, execute: () => "confirmed" }],
    });
    for (let turn = 0; turn < TURNS; turn++) {
      const answers = session.interrupts.map((interrupt) => ({ interruptId: interrupt.id, status: "cancelled" as const }));
      const updates = await lastValueFrom((answers.length > 0 ? session.resume(answers) : session.send(`turn ${turn}`)).pipe(toArray()));
      const refused = updates.filter((update) => update.kind === "error" && update.error.code === "http");
      expect(refused).toEqual([]);
    }
    expectStoredPathSeen(watch);
    expect(watch.inputs.length).toBeGreaterThanOrEqual(TURNS);
  } finally {
    await served.close();
  }
});

/** The client tool's calls in `messages` that no tool message answers. */
function openClientCalls(messages: readonly Message[]): string[] {
  const answered = new Set(messages.flatMap((message) => (message.role === "tool" ? [message.toolCallId] : [])));
  return messages.flatMap((message) =>
    message.role === "assistant"
      ? (message.toolCalls ?? []).filter((call) => call.function.name === CLIENT_TOOL && !answered.has(call.id)).map((call) => call.id)
      : [],
  );
}
