/**
 * Client tools across implementations, over real loopback HTTP:
 * - our Session's loop against a `node:http` endpoint writing with the official `@ag-ui/encoder`
 *   that emits a tool call and ends the run: with 1.0.0's `pendingToolCallIds`, and without an
 *   outcome at all (the fallback);
 * - the official `HttpAgent` against our handler with the tool offered: it sees the same
 *   tool-call events our transport does, validates every one, and answering by hand ends where
 *   our Session's loop does.
 */
import * as t from "io-ts";
import { lastValueFrom, toArray } from "rxjs";
import { HttpAgent } from "@ag-ui/client";
import { EventSchemas } from "@ag-ui/core/schemas";
import { Session } from "../../src/client/Session";
import { HttpTransport } from "../../src/client/transports/HttpTransport";
import { clientTool } from "../../src/client/tools/clientTool";
import type { Update } from "../../src/thread/Update";
import { runAgentInput } from "../../src/protocol/build";
import type { Event } from "../../src/protocol/events";
import { createHandler } from "../../src/server/http/createHandler";
import { serve, type Served } from "../../src/node/serve";
import { scenarioEvents } from "../http/scenarios";
import { startOfficialEncoderServer, type OfficialServer } from "../http/officialEncoderServer";

const USER = { id: "user-1", role: "user" as const, content: "What time is it?" };
const getLocalTime = clientTool({
  name: "get_local_time",
  description: "The user's local time",
  parameters: t.type({ format: t.keyof({ "24h": null, "12h": null }) }),
  execute: ({ format }) => (format === "24h" ? "14:05" : "2:05 PM"),
});

let ours: Served;
let theirs: OfficialServer;
beforeAll(async () => {
  ours = await serve(createHandler((input) => scenarioEvents("clientTool", input)));
  theirs = await startOfficialEncoderServer();
});
afterAll(async () => {
  await ours.close();
  await theirs.close();
});

async function ourLoop(url: string): Promise<{ session: Session; updates: Update[] }> {
  const session = new Session(new HttpTransport(url), { threadId: "interop-tools", tools: [getLocalTime] });
  const updates = await lastValueFrom(session.send(USER).pipe(toArray()));
  return { session, updates };
}

const visible = (messages: readonly { role: string; content?: unknown }[]) => messages.map((m) => [m.role, m.content]);
const EXPECTED = [
  ["user", USER.content],
  ["assistant", "Let me ask your browser for the time."],
  ["tool", "14:05"],
  ["assistant", "It is 14:05 where you are."],
];

describe("our Session's loop against the official EventEncoder", () => {
  it.each([
    ["with pendingToolCallIds", "clientTool", { kind: "success", pendingToolCallIds: ["clientTool-0-call"] }],
    ["without an outcome (the fallback)", "clientTool?outcome=none", { kind: "success" }],
  ])("%s: executes the call, sends the result in the follow-up run, one done", async (_label, path, firstEnd) => {
    const { session, updates } = await ourLoop(`${theirs.url}${path}`);
    expect(updates.filter((u) => u.kind === "error")).toEqual([]);
    expect(updates.filter((u) => u.kind === "done")).toEqual([updates.at(-1)]);
    expect(updates.at(-1)).toEqual({ kind: "done", end: { kind: "success" } });
    expect(updates.filter((u) => u.kind === "run")).toEqual([
      expect.objectContaining({ roundtrip: 1, previousEnd: firstEnd, toolCallIds: ["clientTool-0-call"] }),
    ]);
    expect(visible(session.messages)).toEqual(EXPECTED);
  });
});

describe("the official HttpAgent against our handler, the client tool offered", () => {
  it("sees exactly the tool-call events our transport gets, valid for its schemas, and ends by hand where our loop ends", async () => {
    const tools = [getLocalTime.tool];
    // What our transport receives for the first run: the reference.
    const ourEvents: Event[] = await lastValueFrom(
      new HttpTransport(ours.url).run(runAgentInput("interop-tools", "run-1", { messages: [USER], tools })).pipe(toArray()),
    );
    const official = new HttpAgent({ url: ours.url, threadId: "interop-tools", initialMessages: [USER] });
    const seen: unknown[] = [];
    const problems: string[] = [];
    const subscriber = {
      onEvent: ({ event }: { event: { type: string } }) => {
        seen.push(event);
        const parsed = EventSchemas.safeParse(event);
        if (!parsed.success) problems.push(`${event.type}: ${parsed.error.message}`);
      },
      onRunFailed: ({ error }: { error: Error }) => void problems.push(error.message),
    };
    await official.runAgent({ runId: "run-1", tools }, subscriber);
    expect(problems).toEqual([]);
    const toolEvents = (events: readonly unknown[]) =>
      events.filter((e): e is { type: string } => typeof e === "object" && e !== null && "type" in e && String(e.type).startsWith("TOOL_CALL"));
    expect(toolEvents(seen)).toEqual(toolEvents(ourEvents));
    expect(ourEvents.at(-1)).toMatchObject({ type: "RUN_FINISHED", outcome: { type: "success", pendingToolCallIds: ["clientTool-0-call"] } });

    // By hand, what our Session does by itself: the tool message, then the next run.
    official.addMessage({ id: "tool-1", role: "tool", toolCallId: "clientTool-0-call", content: "14:05" });
    await official.runAgent({ runId: "run-2", tools }, subscriber);
    expect(problems).toEqual([]);
    const { session } = await ourLoop(ours.url);
    expect(visible(official.messages)).toEqual(EXPECTED);
    expect(visible(session.messages)).toEqual(EXPECTED);
  });
});
