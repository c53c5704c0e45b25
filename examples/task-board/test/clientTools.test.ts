/**
 * The task board's client tools over real loopback HTTP: the agent asks the page for its clock
 * before it says what is due today, and for a confirmation card before it deletes a task; the
 * Session runs the loop (execute, append, follow-up run). The official HttpAgent sees the same
 * tool-call events and can answer them by hand.
 */
import { filter, firstValueFrom, lastValueFrom, toArray } from "rxjs";
import { EventSchemas } from "@ag-ui/core/schemas";
import { HttpAgent } from "@ag-ui/client";
import { HttpTransport } from "../../../src/client/transports/HttpTransport";
import { Session } from "../../../src/client/Session";
import { clientTool } from "../../../src/client/tools/clientTool";
import type { Update } from "../../../src/thread/Update";
import type { Served } from "../../../src/node/serve";
import type { ToolMessage } from "../../../src/protocol/messages";
import { confirmDelete, localTime } from "../../shared/pageTools";
import { boardSpec, createTaskBoardServer, GET_LOCAL_TIME, LocalTime, plan, type Board } from "..";

let server: Served;
let transport: HttpTransport;
beforeAll(async () => {
  server = await createTaskBoardServer();
  transport = new HttpTransport(server.url);
});
afterAll(() => server.close());

/** The page's clock, fixed: Tuesday 3 June 2025, 2:05 pm in Auckland. */
const NOW = new Date("2025-06-03T02:05:00Z");
const fixedClock = clientTool({
  name: GET_LOCAL_TIME,
  description: "The user's clock",
  result: LocalTime,
  execute: () => localTime(NOW, { locale: "en-NZ", timeZone: "Pacific/Auckland" }),
});

let thread = 0;
const newSession = (tools = [fixedClock, confirmDelete]) => new Session<Board>(transport, { threadId: `tools-${++thread}`, state: boardSpec, tools });
const updatesOf = (updates$: ReturnType<Session<Board>["send"]>) => lastValueFrom(updates$.pipe(toArray()));
const lastSaid = (session: Session<Board>) => {
  const said = session.messages.filter((m) => m.role === "assistant" && typeof m.content === "string" && m.content !== "");
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- the tool answers in this test are text
  return said.map((m) => String(m.content));
};
const toolMessages = (session: Session<Board>) => session.messages.filter((m): m is ToolMessage => m.role === "tool");
const whenAsked = (session: Session<Board>, count: number) => firstValueFrom(session.runningToolCalls$.pipe(filter((calls) => calls.length === count)));

test("the planner reads the new commands: what's due today, delete / remove", () => {
  expect(plan("what's due today?; What is due today; today; delete #2; remove 3; delete all")).toEqual([
    { kind: "today" },
    { kind: "today" },
    { kind: "today" },
    { kind: "delete", id: 2 },
    { kind: "delete", id: 3 },
    { kind: "unknown", text: "delete all" },
  ]);
});

describe("what's due today", () => {
  it("asks the page for its clock, and the follow-up run answers with the user's date, time and time zone", async () => {
    const session = newSession();
    await updatesOf(session.send("add buy milk; add call mom; done 1"));
    const updates = await updatesOf(session.send("what's due today?"));
    expect(updates.at(-1)).toEqual({ kind: "done", end: { kind: "success", result: { tasks: 2 } } });
    const boundaries = updates.filter((u): u is Extract<Update<Board>, { kind: "run" }> => u.kind === "run");
    expect(boundaries).toHaveLength(1);
    const [answer] = toolMessages(session).slice(-1);
    expect(boundaries[0].toolCallIds).toEqual([answer.toolCallId]);
    // eslint-disable-next-line @typescript-eslint/no-base-to-string -- the tool answers in this test are text
    expect(JSON.parse(String(answer.content))).toEqual({ date: "Tuesday, 3 June 2025", time: "2:05 pm", timeZone: "Pacific/Auckland", locale: "en-NZ" });
    expect(lastSaid(session).slice(-3)).toEqual([
      "On it: I will tell you what is due today. ",
      "It is 2:05 pm on Tuesday, 3 June 2025 where you are (Pacific/Auckland, en-NZ). Due today: 2. call mom. ",
      "The board has 2 tasks, 1 done.",
    ]);
  });

  it("without the tool, answers by the server's clock in one run", async () => {
    const session = newSession([]);
    const updates = await updatesOf(session.send("today"));
    expect(updates.some((u) => u.kind === "run")).toBe(false);
    expect(lastSaid(session).at(-2)).toMatch(
      /^This client offers no get_local_time, so by the server's clock: Nothing is due on \d{4}-\d\d-\d\d: the board is empty\.$/,
    );
  });
});

describe("confirm_delete", () => {
  it("renders every delete of the turn at once; the follow-up run deletes what was confirmed and keeps the rest", async () => {
    const session = newSession();
    await updatesOf(session.send("add a; add b; add c"));
    const exchange = updatesOf(session.send("delete 1; delete 3; add d"));
    const asked = await whenAsked(session, 2);
    expect(asked.map((call) => [call.toolName, call.args])).toEqual([
      ["confirm_delete", { id: 1, title: "a" }],
      ["confirm_delete", { id: 3, title: "c" }],
    ]);
    expect(session.running).toBe(true);
    asked[1].respond({ confirmed: false });
    asked[0].respond({ confirmed: true });
    const updates = await exchange;
    expect(updates.at(-1)).toMatchObject({ kind: "done", end: { kind: "success" } });
    // Task 1 went, task 3 stayed, and "add d" ran in the follow-up run, after the answers.
    expect(session.state?.tasks.map((task) => task.title)).toEqual(["b", "c", "d"]);
    expect(lastSaid(session).slice(-2)).toEqual(["Deleting task 1 (a). Kept task 3 (c), as you asked. ", "The board has 3 tasks, 0 done."]);
    const names = session.messages.flatMap((m) => (m.role === "assistant" ? (m.toolCalls ?? []).map((c) => c.function.name) : []));
    expect(names.slice(-4)).toEqual(["confirm_delete", "confirm_delete", "delete_task", "add_task"]);
  });

  it("without the card, or for a task that is not there, deletes nothing", async () => {
    const plain = newSession([fixedClock]);
    await updatesOf(plain.send("add a"));
    await updatesOf(plain.send("delete 1; delete 7"));
    expect(plain.state?.tasks).toHaveLength(1);
    expect(lastSaid(plain).slice(-3, -1)).toEqual([
      "I delete a task only once you confirm, and this client offers no confirm_delete: task 1 stays.",
      "There is no task 7 to delete.",
    ]);
  });

  it("a stopped confirmation leaves the task, and the next message starts afresh", async () => {
    const session = newSession();
    await updatesOf(session.send("add a"));
    const subscription = session.send("delete 1").subscribe();
    await whenAsked(session, 1);
    subscription.unsubscribe();
    expect(session.runningToolCalls).toEqual([]);
    await updatesOf(session.send("list"));
    expect(session.state?.tasks).toHaveLength(1);
    expect(lastSaid(session).at(-2)).toBe("[ ] 1. a");
  });
});

describe("the official HttpAgent", () => {
  it("sees the client tool call and the run's end as events it validates, and answering it by hand ends where our Session does", async () => {
    const tools = [fixedClock.tool, confirmDelete.tool];
    const official = new HttpAgent({ url: server.url, threadId: "official-tools" });
    const problems: string[] = [];
    const subscriber = {
      onEvent: ({ event }: { event: { type: string } }) => {
        const parsed = EventSchemas.safeParse(event);
        if (!parsed.success) problems.push(`${event.type}: ${parsed.error.message}`);
      },
      onRunFailed: ({ error }: { error: Error }) => void problems.push(error.message),
    };
    official.addMessage({ id: "u1", role: "user", content: "what's due today" });
    const first = await official.runAgent({ tools }, subscriber);
    expect(problems).toEqual([]);
    const call = official.messages.flatMap((m) => (m.role === "assistant" ? (m.toolCalls ?? []) : [])).find((c) => c.function.name === GET_LOCAL_TIME);
    expect(call).toBeDefined();
    expect(first.newMessages.map((m) => m.role)).toEqual(["assistant"]);
    // What the Session does by itself, by hand: the tool message, then the next run.
    official.addMessage({
      id: "t1",
      role: "tool",
      toolCallId: call?.id ?? "",
      content: JSON.stringify(localTime(NOW, { locale: "en-NZ", timeZone: "Pacific/Auckland" })),
    });
    await official.runAgent({ tools }, subscriber);
    expect(problems).toEqual([]);

    const session = newSession();
    await updatesOf(session.send({ id: "u1", role: "user", content: "what's due today" }));
    const visible = (messages: readonly { role: string; content?: unknown }[]) => messages.map((m) => [m.role, m.content]);
    expect(visible(official.messages)).toEqual(visible(session.messages));
  });
});
