/**
 * The interop corpus: one small agent per protocol feature, run by our driver with deterministic
 * ids, so the same input gives the same events whoever serves them (our handler, or a plain
 * `node:http` server writing them with the official `EventEncoder`).
 */
import * as t from "io-ts";
import { firstValueFrom, toArray, type Observable } from "rxjs";
import type { Event } from "../../src/protocol/events";
import type { RunAgentInput } from "../../src/protocol/input";
import { stateSpec } from "../../src/protocol/stateSpec";
import { interrupted, success, type Agent } from "../../src/server/Agent";
import { run } from "../../src/server/run";
import { sequentialIds } from "../../src/server/ids";

const Plan = t.type({ status: t.string, todos: t.array(t.type({ title: t.string, done: t.boolean })) });
type Plan = t.TypeOf<typeof Plan>;

const text: Agent = {
  async run(ctx) {
    const message = ctx.assistantMessage();
    for (const word of ["Hello ", "from ", "the ", "server, ", "ünïcødé ✓."]) message.delta(word);
    message.end();
    ctx.say("A second message.");
  },
};

const tool: Agent = {
  async run(ctx) {
    const intro = ctx.say("Let me check the weather.");
    const call = ctx.toolCall("get_weather", { parentMessageId: intro });
    call.args('{"city":');
    call.args('"Berlin"}');
    call.resultJson({ tempC: 18, sky: "cloudy" });
    ctx.say("It is 18 °C and cloudy in Berlin.");
  },
};

/**
 * Calls a client tool and ends the run; the follow-up run (whose input carries the tool message)
 * says what came back. Ids depend on how many tool results the input holds, so every client
 * (whatever run ids it mints) gets the same messages, and a follow-up never repeats an id.
 */
const clientTool: Agent = {
  async run(ctx) {
    const turn = ctx.messages.filter((message) => message.role === "tool").length;
    const [answer] = ctx.lastToolResults;
    if (answer === undefined) {
      const ask = ctx.say("Let me ask your browser for the time.", { id: `clientTool-${turn}-ask` });
      ctx
        .toolCall("get_local_time", { id: `clientTool-${turn}-call`, parentMessageId: ask })
        .argsJson({ format: "24h" })
        .end();
      return;
    }
    // eslint-disable-next-line @typescript-eslint/no-base-to-string -- the tool answers in this scenario are text
    ctx.say(answer.error === undefined ? `It is ${String(answer.content)} where you are.` : `No clock: ${answer.error}`, { id: `clientTool-${turn}-reply` });
  },
};

const state: Agent<Plan> = {
  state: stateSpec(Plan, { status: "idle", todos: [] }),
  async run(ctx) {
    const titles = ["research the topic", "draft an outline", "write the first section", "review it", "publish"];
    ctx.setState({ status: "planning", todos: titles.map((title) => ({ title, done: false })) }); // snapshot
    ctx.updateState((plan) => ({ ...plan, status: "working" })); // delta
    ctx.updateState((plan) => ({ ...plan, todos: plan.todos.map((todo, i) => (i === 0 ? { ...todo, done: true } : todo)) })); // delta
    ctx.say("Planned and started.");
  },
};

const activity: Agent = {
  async run(ctx) {
    const search = ctx.activity("search");
    search.snapshot({ query: "ag-ui", results: [] });
    search.delta([{ op: "add", path: "/results/-", value: "https://docs.ag-ui.com" }]);
    search.delta([{ op: "add", path: "/results/-", value: "https://github.com/ag-ui-protocol" }]);
    ctx.say("Found two results.");
  },
};

const reasoning: Agent = {
  async run(ctx) {
    const thought = ctx.reasoning();
    thought.delta("The user wants a number; ");
    thought.delta("42 is the canonical answer.");
    thought.end();
    ctx.say("42.");
  },
};

const subagents: Agent = {
  async run(ctx) {
    const writer = ctx.subagent("writer", { description: "drafts" });
    const critic = ctx.subagent("critic", { description: "reviews" });
    const draft = writer.assistantMessage();
    const review = critic.assistantMessage();
    draft.delta("First draft, ");
    review.delta("Too long, ");
    draft.delta("second sentence.");
    review.delta("cut it.");
    draft.end();
    review.end();
    critic.finish({ verdict: "shorter" });
    writer.finish({ words: 4 });
    ctx.say("Both are done.");
  },
};

const interrupt: Agent = {
  async run(ctx) {
    const answer = ctx.resumeFor("approve-1");
    if (answer === undefined) {
      ctx.say("I need your approval first.");
      return interrupted(ctx.interrupt({ id: "approve-1", reason: "confirmation", message: "Send the email?" }));
    }
    const approved = (answer.payload as { approved?: unknown } | undefined)?.approved === true; // test payload
    ctx.say(approved ? "Sent." : "Not sent.");
    return success({ approved });
  },
};

/** The scenarios by name (the URL path both servers route on). */
export const SCENARIOS = { text, tool, clientTool, state, activity, reasoning, subagents, interrupt } as const;
export type ScenarioName = keyof typeof SCENARIOS;
export const SCENARIO_NAMES = Object.keys(SCENARIOS) as ScenarioName[]; // keys of the literal above

/**
 * The events of one scenario for one input. Ids are deterministic and depend only on whether the
 * run is a resume, so both clients (which mint different run ids) get the same messages.
 */
export function scenarioEvents(name: ScenarioName, input: RunAgentInput): Observable<Event> {
  const agent = SCENARIOS[name] as Agent; // each scenario has its own state type; the driver needs only the shape
  return run(agent, input, { ids: sequentialIds(input.resume?.length ? `${name}-resume` : name) });
}

/** The same, collected (for the official-encoder server, which writes a finished list). */
export function scenarioEventList(name: ScenarioName, input: RunAgentInput): Promise<Event[]> {
  return firstValueFrom(scenarioEvents(name, input).pipe(toArray()));
}
