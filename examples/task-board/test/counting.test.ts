/**
 * `count to <n>`, the task board's slow command (examples/task-board/counting.ts), over real
 * loopback HTTP with a pace the test steps: the run stays live until released, and a run stopped
 * while a step waits ends cancelled (the step does not keep it).
 */
import { lastValueFrom, toArray } from "rxjs";
import { HttpTransport } from "../../../src/client/transports/HttpTransport";
import { Session } from "../../../src/client/Session";
import { memoryStore } from "../../../src/server/store/memory/memoryStore";
import type { Served } from "../../../src/node/serve";
import { boardSpec, createTaskBoardServer, plan, type Board } from "..";
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

let thread = 0;
const newSession = () => new Session<Board>(transport, { threadId: `count-${++thread}`, state: boardSpec });
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
  expect(texts(session)).toEqual(["On it: I will count to 3. "]); // nothing counted before the first step goes
  steps.release();
  const all = await updates;
  expect(all.at(-1)).toEqual({ kind: "done", end: { kind: "success", result: { tasks: 0 } } });
  expect(texts(session)).toEqual(["On it: I will count to 3. ", "1…", "2…", "3. Done counting.", "The board is empty."]);
});

it("ends cancelled when stopped while a step waits", async () => {
  const session = newSession();
  const updates = lastValueFrom(session.send("count to 3").pipe(toArray()));
  await steps.waiting();
  await session.stop();
  expect((await updates).at(-1)).toEqual({ kind: "done", end: { kind: "cancelled" } });
  expect(texts(session)).toEqual(["On it: I will count to 3. "]);
});
