/**
 * Server-owned threads on two instances over one real redis-server, over real HTTP
 * (docs/threads.md#owners, #the-thread-list, #redis-keys): each instance a `createHandler` with its
 * own `redisStore` and client, served on its own loopback port. A thread started on A is listed on
 * B for its owner only; B's list events hear A's rename; a thread deleted on B answers as unknown
 * on A, on every route, and its owner's list on both instances forgets it.
 */
import { serve, type Served } from "../../../src/node/serve";
import { redisStore, type RedisStore } from "../../../src/redis/redisStore";
import { createHandler } from "../../../src/server/http/createHandler";
import type { ThreadPage } from "../../../src/thread/threadList";
import { as, call, converse, identifyByHeader, openEvents, replier, threadUrl } from "../../http/threads/support";
import { closeClient, connectClient, uniquePrefix, type TestClient } from "../support/clients";

const prefix = uniquePrefix("owned-http");
const opened: { store: RedisStore; client: TestClient; served: Served }[] = [];

async function instance(name: string): Promise<string> {
  const client = await connectClient(`owned-http-${name}`);
  const store = redisStore({ client, prefix });
  const served = await serve(createHandler(replier, { store, identify: identifyByHeader }));
  opened.push({ store, client, served });
  return served.url.replace(/\/$/, "") + "/agent";
}

afterAll(async () => {
  for (const { store, client, served } of opened) {
    await served.close();
    await store.close();
    await closeClient(client);
  }
});

const listed = async (url: string, user: string): Promise<string[]> => {
  const answer = await call("GET", `${url}/threads`, undefined, as(user));
  expect(answer.status).toBe(200);
  return (JSON.parse(answer.text) as ThreadPage).threads.map((row) => row.threadId); // test-only: the handler's own JSON
};

test("a thread started on A is B's to list for its owner only; B hears A's rename; deleted on B, it is unknown on A", async () => {
  const [a, b] = [await instance("a"), await instance("b")];
  await converse(a, "alice", "trip", 2);
  expect(await listed(b, "alice")).toEqual(["trip"]);
  expect(await listed(b, "bob")).toEqual([]);

  const events = await openEvents(b, "alice");
  const renamed = await call("PATCH", threadUrl(a, "trip"), { title: "Lisbon" }, as("alice"));
  expect(renamed.status).toBe(200);
  const heard = await events.until((change) => change.type === "renamed");
  expect(heard.filter((change) => change.type === "renamed").map((change) => ("thread" in change ? change.thread.title : ""))).toEqual(["Lisbon"]);
  await events.cancel();

  // Bob asking for alice's thread, on either instance, gets what an unknown id gets.
  const foreign = await call("POST", `${b}/history`, { threadId: "trip", before: "a-r2", limit: 5 }, as("bob"));
  const unknown = await call("POST", `${b}/history`, { threadId: "nope", before: "a-r2", limit: 5 }, as("bob"));
  expect([foreign.status, foreign.text.replace("trip", "nope")]).toEqual([unknown.status, unknown.text]);

  expect((await call("DELETE", threadUrl(b, "trip"), undefined, as("alice"))).status).toBe(204);
  expect(await listed(a, "alice")).toEqual([]);
  expect(await listed(b, "alice")).toEqual([]);
  // a join of the deleted thread finds a new, empty one (docs/threads.md#joining-a-new-thread)
  const joined = await call("POST", `${a}/connect`, { threadId: "trip" }, as("alice"));
  expect([joined.status, joined.headers.find(([name]) => name === "agui-connect-mode")?.[1]]).toEqual([200, "new"]);
  for (const [method, path, body] of [
    ["POST", "/history", { threadId: "trip", before: "a-r2", limit: 5 }],
    ["PATCH", "/threads/trip", { title: "again" }],
    ["DELETE", "/threads/trip", undefined],
  ] as const) {
    const answer = await call(method, `${a}${path}`, body, as("alice"));
    expect([method, path, answer.status]).toEqual([method, path, 404]);
  }
});
