/**
 * `count to <n>`, the task board's slow command (examples/task-board/counting.ts), over real
 * loopback HTTP with a pace the test steps: the run stays live until released, and a run stopped
 * while a step waits ends cancelled (the step does not keep it). A message steered into the count
 * (`ctx.incoming$`, docs/queue.md#steer) is taken where the count stands and answered at once.
 */
import { filter, firstValueFrom, lastValueFrom, Subject, toArray } from "rxjs";
import { runAgentInput } from "../../../src/protocol/build";
import type { Event } from "../../../src/protocol/events";
import type { UserMessage } from "../../../src/protocol/messages";
import { run } from "../../../src/server/run";
import { HttpTransport } from "../../../src/client/transports/HttpTransport";
import { Session } from "../../../src/client/Session";
import { memoryStore } from "../../../src/server/store/memory/memoryStore";
import type { Served } from "../../../src/node/serve";
import { boardSpec, createTaskBoardAgent, createTaskBoardServer, plan, type Board } from "..";
import { messageText } from "../../shared/messageText";
import { steppedPace } from "../steppedPace";

const steps = steppedPace();
let server: Served;
let transport: HttpTransport;
beforeAll(async () => {
  server = await createTaskBoardServer({ store: memoryStore(), countPace: steps.pace });
  transport = new HttpTransport(server.url);
});
afterAll(() => server.close());
beforeEach(() => steps.hold());
afterEach(() => steps.release()); // a failed test leaves no run parked on a step

let thread = 0;
const newSession = () => new Session<Board>(transport, { threadId: `count-${++thread}`, state: boardSpec });
/** Resolves once the session shows an assistant message reading `text`. */
const shows = (session: Session<Board>, text: string) =>
  firstValueFrom(session.messages$.pipe(filter((messages) => messages.some((message) => message.role === "assistant" && messageText(message) === text))));
const texts = (session: Session<Board>) => session.messages.filter((message) => message.role === "assistant").map(messageText);

it("plans `count to <n>` for 1 to 20, and reads anything else as not understood", () => {
  expect(plan("count to 3; count 5; COUNT TO 20")).toEqual([
    { kind: "count", to: 3 },
    { kind: "count", to: 5 },
    { kind: "count", to: 20 },
  ]);
  for (const text of ["count to 0", "count to 21", "count", "count to three", "count to 2.5"]) expect(plan(text)).toEqual([{ kind: "unknown", text }]);
});

it("counts one number per step: live until the steps are released", async () => {
  const session = newSession();
  const updates = lastValueFrom(session.send("count to 3").pipe(toArray()));
  await steps.waiting();
  await shows(session, "On it: I will count to 3. ");
  expect(texts(session)).toEqual(["On it: I will count to 3. "]); // parked before its first number
  steps.release();
  const all = await updates;
  expect(all.at(-1)).toEqual({ kind: "done", end: { kind: "success", result: { tasks: 0 } } });
  expect(texts(session)).toEqual(["On it: I will count to 3. ", "1…", "2…", "3. Done counting.", "The board is empty."]);
});

it("ends cancelled when stopped while a step waits", async () => {
  const session = newSession();
  const updates = lastValueFrom(session.send("count to 3").pipe(toArray()));
  await steps.waiting();
  await shows(session, "On it: I will count to 3. ");
  await session.stop();
  expect((await updates).at(-1)).toEqual({ kind: "done", end: { kind: "cancelled" } });
  expect(texts(session)).toEqual(["On it: I will count to 3. "]);
});

it("takes a message steered into the count where it stands, and says it heard it", async () => {
  const incoming = new Subject<UserMessage>();
  const agent = createTaskBoardAgent({ countPace: steps.pace });
  const input = runAgentInput("steered", "r1", { messages: [{ id: "u1", role: "user", content: "count to 2" }] });
  const events: Event[] = [];
  const ended = lastValueFrom(run(agent, input, { incoming }).pipe(toArray()));
  await steps.waiting();
  incoming.next({ id: "u2", role: "user", content: [{ type: "text", text: "in French" }] });
  steps.release();
  events.push(...(await ended));
  const said = events.flatMap((event) =>
    event.type === "TEXT_MESSAGE_CONTENT" ? [event.delta] : event.type === "TEXT_MESSAGE_START" && event.role === "user" ? ["<user>"] : [],
  );
  const heard = said.indexOf('Heard you mid-count: "in French".');
  expect(said.slice(heard - 2, heard + 1)).toEqual(["<user>", "in French", 'Heard you mid-count: "in French".']);
  expect(heard).toBeLessThan(said.indexOf("1…")); // taken before the first number, where the count stood
  expect(said.filter((text) => text === "in French")).toHaveLength(1);
  expect(events.at(-1)?.type).toBe("RUN_FINISHED");
});

describe("over HTTP, while it counts (docs/queue.md#policies)", () => {
  const userTexts = (session: Session<Board>) => session.messages.filter((message) => message.role === "user").map(messageText);

  it("a steer is taken by the live run, once, with no run of its own", async () => {
    const session = newSession();
    const counting = lastValueFrom(session.send("count to 2").pipe(toArray()));
    await steps.waiting();
    await shows(session, "On it: I will count to 2. ");
    const steered = lastValueFrom(session.send("in French", { whileRunning: "steer" }).pipe(toArray()));
    await shows(session, 'Heard you mid-count: "in French".');
    steps.release();
    expect((await steered).at(-1)).toMatchObject({ kind: "done", end: { kind: "success" } });
    expect((await counting).at(-1)).toMatchObject({ kind: "done", end: { kind: "success" } });
    expect(userTexts(session)).toEqual(["count to 2", "in French"]);
    expect(session.queued).toEqual([]);
  });

  it("a queued message waits in `queued`, then runs after the count, once", async () => {
    const session = newSession();
    void lastValueFrom(session.send("count to 2").pipe(toArray()));
    await steps.waiting();
    await shows(session, "On it: I will count to 2. ");
    const queued = lastValueFrom(session.send("add buy milk", { whileRunning: "queue" }).pipe(toArray()));
    await firstValueFrom(session.queued$.pipe(filter((list) => list.length === 1)));
    expect(session.queued).toMatchObject([{ policy: "queue", status: "queued", message: { content: "add buy milk" } }]);
    expect(userTexts(session)).toEqual(["count to 2"]);
    steps.release();
    expect((await queued).at(-1)).toMatchObject({ kind: "done", end: { kind: "success" } });
    expect(userTexts(session)).toEqual(["count to 2", "add buy milk"]);
    expect(session.state?.tasks.map((task) => task.title)).toEqual(["buy milk"]);
    expect(session.queued).toEqual([]);
  });
});
