/**
 * The task board end to end over real loopback HTTP: the agent behind `createHandler` and
 * `agui-rx/node`, driven by the real client (`Session` + `HttpTransport`).
 */
import { firstValueFrom, lastValueFrom, toArray } from "rxjs";
import { EventSchemas } from "@ag-ui/core/schemas";
import { HttpAgent } from "@ag-ui/client";
import { HttpTransport } from "../../../src/client/transports/HttpTransport";
import { Session } from "../../../src/client/Session";
import type { Update } from "../../../src/thread/Update";
import { runAgentInput } from "../../../src/protocol/build";
import type { Event } from "../../../src/protocol/events";
import type { Served } from "../../../src/node/serve";
import { boardSpec, createTaskBoardServer, type Board } from "..";

let server: Served;
let transport: HttpTransport;
beforeAll(async () => {
  server = await createTaskBoardServer();
  transport = new HttpTransport(server.url);
});
afterAll(() => server.close());

let thread = 0;
const newSession = () => new Session<Board>(transport, { threadId: `thread-${++thread}`, state: boardSpec });
const updatesOf = (updates$: ReturnType<Session<Board>["send"]>) => lastValueFrom(updates$.pipe(toArray()));
const eventsFor = (text: string, state?: Board) =>
  firstValueFrom(transport.run(runAgentInput("raw", `run-${text}`, { messages: [{ id: "u1", role: "user", content: text }], state })).pipe(toArray()));
const types = (events: readonly Event[]) => events.map((event) => event.type);
const endOf = (updates: readonly Update<Board>[]) => updates[updates.length - 1];

describe("task board flows", () => {
  it("publishes once per change: two additions in one message send a snapshot, then a delta", async () => {
    const events = await eventsFor("add buy milk; add call mom");
    const state = events.filter((event) => event.type === "STATE_SNAPSHOT" || event.type === "STATE_DELTA");
    expect(state).toEqual([
      { type: "STATE_SNAPSHOT", snapshot: { tasks: [{ id: 1, title: "buy milk", done: false }] } },
      { type: "STATE_DELTA", delta: [{ op: "add", path: "/tasks/-", value: { id: 2, title: "call mom", done: false } }] },
    ]);
    // Each publish happens while its add_task call is open (docs/seeds.md#seed-000): ARGS, state, END, RESULT.
    const sequence = types(events);
    const firstCall = sequence.indexOf("TOOL_CALL_START");
    expect(sequence.slice(firstCall, firstCall + 5)).toEqual(["TOOL_CALL_START", "TOOL_CALL_ARGS", "STATE_SNAPSHOT", "TOOL_CALL_END", "TOOL_CALL_RESULT"]);
    // Every event on the wire is valid for the official SDK.
    for (const event of events) expect(EventSchemas.safeParse(event).success).toBe(true);
  });

  it("streams an assistant message, calls add_task and complete_task with results, and the session's board follows", async () => {
    const session = newSession();
    const first = await updatesOf(session.send("add buy milk; add call mom"));
    expect(endOf(first)).toEqual({ kind: "done", end: { kind: "success", result: { tasks: 2 } } });
    const contentDeltas = first.filter((u) => u.kind === "message" && u.change.kind === "content");
    expect(contentDeltas.length).toBeGreaterThan(3); // streamed word by word, not in one piece
    expect(session.state).toEqual({
      tasks: [
        { id: 1, title: "buy milk", done: false },
        { id: 2, title: "call mom", done: false },
      ],
    });

    const second = await updatesOf(session.send("done 1"));
    expect(endOf(second).kind).toBe("done");
    expect(session.state?.tasks.map((task) => task.done)).toEqual([true, false]);

    const assistant = session.messages.filter((m) => m.role === "assistant");
    const calls = assistant.flatMap((m) => ("toolCalls" in m && m.toolCalls ? m.toolCalls : []));
    // eslint-disable-next-line @typescript-eslint/no-unsafe-return -- the tool arguments and answers in this test are JSON text the test compares whole
    expect(calls.map((call) => [call.function.name, JSON.parse(call.function.arguments)])).toEqual([
      ["add_task", { title: "buy milk" }],
      ["add_task", { title: "call mom" }],
      ["complete_task", { id: 1 }],
    ]);
    // eslint-disable-next-line @typescript-eslint/no-unsafe-return, @typescript-eslint/no-base-to-string -- the tool arguments and answers in this test are JSON text the test compares whole
    const results = session.messages.filter((m) => m.role === "tool").map((m) => (m.role === "tool" ? JSON.parse(String(m.content)) : undefined));
    expect(results).toEqual([{ id: 1 }, { id: 2 }, { ok: true }]);
    expect(session.messages[session.messages.length - 1]).toMatchObject({ role: "assistant", content: "The board has 2 tasks, 1 done." });
  });

  it("runs research in a researcher subagent that streams its own message, inside a research step", async () => {
    const events = await eventsFor("research honeybees");
    const sequence = types(events);
    expect(sequence.indexOf("STEP_STARTED")).toBeLessThan(sequence.indexOf("SUBAGENT_STARTED"));
    expect(sequence.indexOf("SUBAGENT_FINISHED")).toBeLessThan(sequence.indexOf("STEP_FINISHED"));

    const session = newSession();
    const updates = await updatesOf(session.send("research honeybees"));
    const lifecycle = updates.flatMap((u) => (u.kind === "subagent" ? [[u.change, u.subagent.name]] : []));
    expect(lifecycle).toEqual([
      ["started", "researcher"],
      ["finished", "researcher"],
    ]);
    const [researcher] = session.subagents;
    expect(researcher.status).toEqual({ kind: "finished", result: { topic: "honeybees" } });
    const notes = session.messages.find((m) => m.role === "assistant" && m.subagentRunId === researcher.id);
    expect(notes?.content).toContain("Notes on honeybees");
  });

  it("asks before clearing: interrupt with reason confirmation, then resume refused keeps the board, approved clears it", async () => {
    const session = newSession();
    await updatesOf(session.send("add a; add b"));

    const asked = await updatesOf(session.send("clear"));
    const end = endOf(asked);
    expect(end.kind === "done" && end.end.kind).toBe("interrupted");
    expect(asked.filter((u) => u.kind === "interrupt").map((u) => u.kind === "interrupt" && u.interrupt.reason)).toEqual(["confirmation"]);
    const [pending] = session.interrupts;
    expect(pending.message).toBe("Clear all 2 tasks from the board?");

    const refused = await updatesOf(session.resume([{ interruptId: pending.id, status: "resolved", payload: { approved: false } }]));
    expect(endOf(refused)).toMatchObject({ kind: "done", end: { kind: "success" } });
    expect(session.state?.tasks).toHaveLength(2);
    expect(session.interrupts).toEqual([]);

    await updatesOf(session.send("clear; add c"));
    const again = session.interrupts[0];
    const approved = await updatesOf(session.resume([{ interruptId: again.id, status: "resolved", payload: { approved: true } }]));
    expect(endOf(approved)).toMatchObject({ kind: "done", end: { kind: "success" } });
    // Cleared, then the command after "clear" ran in the resumed run.
    expect(session.state).toEqual({ tasks: [{ id: 1, title: "c", done: false }] });
  });

  it("the official HttpAgent drives the board to the same state and messages as our Session", async () => {
    const script = ["add buy milk; add call mom", "done 2", "research bees", "clear"];
    const official = new HttpAgent({ url: server.url, threadId: "official" });
    const failures: string[] = [];
    const session = newSession();
    for (const [i, text] of script.entries()) {
      const user = { id: `user-${i}`, role: "user" as const, content: text };
      official.addMessage(user);
      await official.runAgent({}, { onRunFailed: ({ error }) => void failures.push(error.message) });
      await updatesOf(session.send(user));
    }
    const answer = { status: "resolved" as const, payload: { approved: true } };
    await official.runAgent({ resume: official.pendingInterrupts.map((i) => ({ interruptId: i.id, ...answer })) });
    await updatesOf(session.resume(session.interrupts.map((i) => ({ interruptId: i.id, ...answer }))));

    expect(failures).toEqual([]);
    expect(session.state).toEqual({ tasks: [] });
    expect(official.state).toEqual(session.rawState);
    // Ids are minted per run on the server, so compare what the user sees: roles and text.
    const visible = (messages: readonly { role: string; content?: unknown }[]) => messages.map((m) => [m.role, m.content]);
    expect(visible(official.messages)).toEqual(visible(session.messages));
  });
});
