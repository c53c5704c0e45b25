/** The task board's thread access over real loopback HTTP: each thread belongs to the bearer token whose digest starts its id. */
import { serve, type Served } from "../../../src/node/serve";
import { memoryStore } from "../../../src/server/store/memory/memoryStore";
import { runAgentInput } from "../../../src/protocol/build";
import { bearerThreadAccess, createTaskBoardHandler, threadIdFor } from "..";

let server: Served;
beforeAll(async () => {
  server = await serve(createTaskBoardHandler({ store: memoryStore(), authorize: bearerThreadAccess }));
});
afterAll(() => server.close());

const post = (path: string, body: unknown, token?: string) =>
  fetch(`${server.url}agent${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...(token === undefined ? {} : { Authorization: `Bearer ${token}` }) },
    body: JSON.stringify(body),
  });

test("the owner runs, joins and stops its thread; another token, or none, gets 403 whether the thread exists or not", async () => {
  const mine = await threadIdFor("alice-token", "board-1");
  const run = await post("", runAgentInput(mine, "r1", { messages: [{ id: "u1", role: "user", content: "add milk" }] }), "alice-token");
  expect(run.status).toBe(200);
  await run.text();
  expect((await post("/connect", { threadId: mine }, "alice-token")).status).toBe(200);
  const unknownOfAlice = await threadIdFor("alice-token", "board-never");
  for (const [threadId, token] of [
    [mine, "mallory-token"],
    [mine, undefined],
    [unknownOfAlice, "mallory-token"],
  ] as const) {
    for (const [path, body] of [
      ["", runAgentInput(threadId, "r2")],
      ["/connect", { threadId }],
      ["/stop", { threadId, runId: "r1" }],
    ] as const) {
      const answer = await post(path, body, token);
      expect(answer.status).toBe(403);
      expect(await answer.json()).toMatchObject({ error: "forbidden" });
    }
  }
  // the owner joins its never-used thread as a new, empty one (docs/threads.md#joining-a-new-thread)
  const joined = await post("/connect", { threadId: unknownOfAlice }, "alice-token");
  expect([joined.status, joined.headers.get("agui-connect-mode")]).toEqual([200, "new"]);
  expect(await joined.text()).toContain("RUN_FINISHED");
});
