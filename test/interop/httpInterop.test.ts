/**
 * Interop over real loopback HTTP, both directions:
 * - their client, our server: the official `HttpAgent` against `createHandler` + `agui-rx/node`;
 * - our client, their encoder: `Session` + `HttpTransport` against a `node:http` server writing
 *   with the official `EventEncoder`.
 * For every scenario of the corpus, both clients end with equal messages and state, the official
 * client validates every event without a failure, and our session reports no error.
 */
import { lastValueFrom, toArray } from "rxjs";
import { HttpAgent, type AgentSubscriber } from "@ag-ui/client";
import { EventSchemas } from "@ag-ui/core/schemas";
import { Session } from "../../src/client/Session";
import { HttpTransport } from "../../src/client/transports/HttpTransport";
import type { Update } from "../../src/thread/Update";
import { createHandler } from "../../src/server/http/createHandler";
import { serve, type Served } from "../../src/node/serve";
import { SCENARIO_NAMES, SCENARIOS, scenarioEvents, type ScenarioName } from "../http/scenarios";
import { startOfficialEncoderServer, type OfficialServer } from "../http/officialEncoderServer";
import { parseSseBody } from "../http/loopback";

const USER = { id: "user-1", role: "user" as const, content: "go" };
const APPROVE = { status: "resolved" as const, payload: { approved: true } };

let ours: Served;
let theirs: OfficialServer;
beforeAll(async () => {
  ours = await serve(
    createHandler((input) => scenarioEvents("text", input), {
      route: (request) => {
        const name = new URL(request.url).pathname.slice(1);
        return name in SCENARIOS ? (input) => scenarioEvents(name as ScenarioName, input) : new Response("no such scenario", { status: 404 });
      },
    }),
  );
  theirs = await startOfficialEncoderServer();
});
afterAll(async () => {
  await ours.close();
  await theirs.close();
});

interface Outcome {
  readonly messages: unknown;
  readonly state: unknown;
  readonly problems: readonly string[];
}

/** Runs the scenario with the official client: one run, plus the approving resume when it interrupts. */
async function officialClient(url: string, name: ScenarioName): Promise<Outcome> {
  const agent = new HttpAgent({ url, threadId: `thread-${name}`, initialMessages: [USER] });
  const problems: string[] = [];
  const subscriber: AgentSubscriber = {
    onEvent: ({ event }) => {
      const parsed = EventSchemas.safeParse(event);
      if (!parsed.success) problems.push(`${event.type}: ${parsed.error.message}`);
    },
    onRunFailed: ({ error }) => {
      problems.push(`run failed: ${error.message}`);
    },
  };
  await agent.runAgent({ runId: "run-1" }, subscriber);
  if (agent.pendingInterrupts.length > 0) {
    await agent.runAgent({ runId: "run-2", resume: agent.pendingInterrupts.map((i) => ({ interruptId: i.id, ...APPROVE })) }, subscriber);
  }
  return { messages: agent.messages, state: agent.state, problems };
}

/** Runs the scenario with our Session over our HttpTransport, the same way. */
async function ourClient(url: string, name: ScenarioName): Promise<Outcome> {
  const session = new Session(new HttpTransport(url), { threadId: `thread-${name}` });
  const updates: Update[] = await lastValueFrom(session.send(USER).pipe(toArray()));
  if (session.interrupts.length > 0) {
    updates.push(...(await lastValueFrom(session.resume(session.interrupts.map((i) => ({ interruptId: i.id, ...APPROVE }))).pipe(toArray()))));
  }
  const problems = updates.flatMap((u) => (u.kind === "error" ? [`${u.error.kind}: ${u.error.message}`] : []));
  return { messages: session.messages, state: session.rawState, problems };
}

describe.each(SCENARIO_NAMES)("HTTP interop: %s", (name) => {
  it("the official HttpAgent against our handler ends where our Session does", async () => {
    const official = await officialClient(`${ours.url}${name}`, name);
    const session = await ourClient(`${ours.url}${name}`, name);
    expect(official.problems).toEqual([]);
    expect(session.problems).toEqual([]);
    expect(session.messages).toEqual(official.messages);
    expect(session.state).toEqual(official.state);
  });

  it("our Session against the official EventEncoder ends where the official HttpAgent does", async () => {
    const official = await officialClient(`${theirs.url}${name}`, name);
    const session = await ourClient(`${theirs.url}${name}`, name);
    expect(official.problems).toEqual([]);
    expect(session.problems).toEqual([]);
    expect(session.messages).toEqual(official.messages);
    expect(session.state).toEqual(official.state);
  });
});

describe("HTTP interop corpus", () => {
  it("the state scenario really sends a snapshot, then deltas (so both clients apply patches)", async () => {
    const response = await fetch(`${ours.url}state`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ threadId: "t", runId: "r", messages: [USER] }),
    });
    const types = parseSseBody(await response.text())
      .map((event) => event.type)
      .filter((type) => type.startsWith("STATE_"));
    expect(types).toEqual(["STATE_SNAPSHOT", "STATE_DELTA", "STATE_DELTA"]);
  });
});
