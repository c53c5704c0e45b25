/**
 * The thread routes over loopback HTTP (docs/threads.md#routes, #the-thread-list,
 * #paginated-history): the list, a rename and an archive, history pages, `/connect` with a limit,
 * a delete after which the thread is unknown on every route, the checks every route makes in
 * order, and percent-encoded thread ids, including ids named after routes.
 */
import { CONNECT_MODE_HEADER, HISTORY_OLDER_HEADER, HISTORY_OLDEST_HEADER } from "../../../src/protocol/connectMode";
import { serve } from "../../../src/node/serve";
import { createHandler, type ThreadAccess } from "../../../src/server/http/createHandler";
import { MAX_TITLE_LENGTH } from "../../../src/server/http/serveThread";
import type { ThreadPage, ThreadSummary } from "../../../src/thread/threadList";
import { closeAll, framesOf, inputFor, serveStored } from "../durable/support";
import { as, call, converse, identifyByHeader, joinOf, NEW_THREAD, replier, threadUrl } from "./support";

afterEach(closeAll);

const header = (answer: { headers: readonly (readonly [string, string])[] }, name: string): string | undefined =>
  answer.headers.find(([key]) => key === name.toLowerCase())?.[1];

test("as one principal: run, list, rename, connect with a limit, older pages, archive, then delete, after which every route answers unknown", async () => {
  const { url } = await serveStored(replier, { identify: identifyByHeader });
  const ids = await converse(url, "alice", "t1", 3); // u-r1 a-r1 u-r2 a-r2 u-r3 a-r3

  const listed = await call("GET", `${url}/threads`, undefined, as("alice"));
  expect(listed.status).toBe(200);
  expect(header(listed, "content-type")).toMatch(/^application\/json/);
  const page = JSON.parse(listed.text) as ThreadPage; // test-only: the handler's own JSON
  expect(page.threads.map((row) => [row.threadId, row.title, row.running, row.archived])).toEqual([["t1", "question 1", false, false]]);
  expect(page.threads[0].lastMessage).toEqual({ role: "assistant", preview: "answer to question 3 (saw 5)" });

  const renamed = await call("PATCH", threadUrl(url, "t1"), { title: "Trip to Lisbon" }, as("alice"));
  expect(renamed.status).toBe(200);
  expect((JSON.parse(renamed.text) as ThreadSummary).title).toBe("Trip to Lisbon");

  const joined = await call("POST", `${url}/connect`, { threadId: "t1", limit: 2 }, as("alice"));
  expect(joined.status).toBe(200);
  expect(header(joined, CONNECT_MODE_HEADER)).toBe("snapshot");
  expect(header(joined, HISTORY_OLDER_HEADER)).toBe("true");
  expect(header(joined, HISTORY_OLDEST_HEADER)).toBe("u-r3");
  const prelude = await framesOf(joined.text);
  expect(prelude[1].event).toMatchObject({ type: "MESSAGES_SNAPSHOT", messages: [{ id: "u-r3" }, { id: "a-r3" }] });

  const older = await call("POST", `${url}/history`, { threadId: "t1", before: "u-r3", limit: 3 }, as("alice"));
  expect(older.status).toBe(200);
  expect(JSON.parse(older.text)).toMatchObject({ hasOlder: true, messages: ids.slice(1, 4).map((id) => ({ id })) });
  const oldest = await call("POST", `${url}/history`, { threadId: "t1", before: "a-r1", limit: 3 }, as("alice"));
  expect(JSON.parse(oldest.text)).toMatchObject({ hasOlder: false, messages: [{ id: "u-r1" }] });

  const whole = await call("POST", `${url}/connect`, { threadId: "t1" }, as("alice"));
  expect([header(whole, HISTORY_OLDER_HEADER), header(whole, HISTORY_OLDEST_HEADER)]).toEqual(["false", "u-r1"]);

  expect((await call("PATCH", threadUrl(url, "t1"), { archived: true }, as("alice"))).status).toBe(200);
  expect(JSON.parse((await call("GET", `${url}/threads`, undefined, as("alice"))).text)).toEqual({ threads: [] });
  const archived = JSON.parse((await call("GET", `${url}/threads?archived=true`, undefined, as("alice"))).text) as ThreadPage;
  expect(archived.threads.map((row) => [row.threadId, row.archived])).toEqual([["t1", true]]);

  const deleted = await call("DELETE", threadUrl(url, "t1"), undefined, as("alice"));
  expect([deleted.status, deleted.text]).toEqual([204, ""]);
  for (const [method, path, body] of [
    ["DELETE", threadUrl(url, "t1"), undefined],
    ["PATCH", threadUrl(url, "t1"), { title: "again" }],
    ["POST", `${url}/history`, { threadId: "t1", before: "u-r3", limit: 1 }],
    ["POST", `${url}/stop`, { threadId: "t1", runId: "r3" }],
  ] as const) {
    const answer = await call(method, path, body, as("alice"));
    expect([method, path, answer.status, JSON.parse(answer.text)]).toEqual([method, path, 404, expect.objectContaining({ error: "not-found" })]);
  }
  // a join no longer finds it: a new, empty thread (docs/threads.md#joining-a-new-thread); a reconnect after one of its cursors: gone
  expect(await joinOf(await call("POST", `${url}/connect`, { threadId: "t1" }, as("alice")))).toEqual(NEW_THREAD);
  const cursor = (await framesOf(whole.text)).at(-1)?.id ?? "";
  expect(cursor).not.toBe("");
  const gone = await call("POST", `${url}/connect`, { threadId: "t1" }, { ...as("alice"), "Last-Event-ID": cursor });
  expect([gone.status, JSON.parse(gone.text)]).toEqual([410, { error: "gone", message: expect.stringContaining("deleted, evicted or expired") }]);
  expect(JSON.parse((await call("GET", `${url}/threads?archived=true`, undefined, as("alice"))).text)).toEqual({ threads: [] });
  // within the tombstone a run on the id is refused, so nothing recreates it
  const late = await call("POST", url, inputFor("t1", "r4"), as("alice"));
  expect([late.status, JSON.parse(late.text)]).toEqual([409, expect.objectContaining({ error: "thread-deleted" })]);
});

test("the list pages by limit and cursor, most recently updated first; bad parameters answer 400 naming them", async () => {
  const { url } = await serveStored(replier, { identify: identifyByHeader, maxPageSize: 10 });
  for (const threadId of ["a", "b", "c"]) await converse(url, "alice", threadId, 1);
  const first = JSON.parse((await call("GET", `${url}/threads?limit=2`, undefined, as("alice"))).text) as ThreadPage;
  expect(first.threads.map((row) => row.threadId)).toEqual(["c", "b"]);
  expect(first.next).toEqual(expect.any(String));
  const second = JSON.parse(
    (await call("GET", `${url}/threads?limit=2&cursor=${encodeURIComponent(first.next ?? "")}`, undefined, as("alice"))).text,
  ) as ThreadPage;
  expect(second).toEqual({ threads: [expect.objectContaining({ threadId: "a" })] });

  for (const [query, path] of [
    ["limit=0", "limit"],
    ["limit=11", "limit"],
    ["limit=2.5", "limit"],
    ["limit=ten", "limit"],
    ["archived=yes", "archived"],
    ["cursor=page-2", "cursor"],
  ]) {
    const answer = await call("GET", `${url}/threads?${query}`, undefined, as("alice"));
    expect([query, answer.status, JSON.parse(answer.text)]).toEqual([query, 400, expect.objectContaining({ error: "invalid-input", path })]);
  }
});

test("/connect and /history refuse a limit outside 1 to maxPageSize, naming it, before identify is asked", async () => {
  let identified = 0;
  const { url } = await serveStored(replier, {
    identify: (request) => (identified++, identifyByHeader(request)),
    maxPageSize: 10,
  });
  await converse(url, "alice", "t1", 1);
  identified = 0;
  for (const [path, body] of [
    ["/connect", { threadId: "t1", limit: 0 }],
    ["/connect", { threadId: "t1", limit: 11 }],
    ["/history", { threadId: "t1", before: "a-r1", limit: 1.5 }],
    ["/history", { threadId: "t1", before: "a-r1", limit: -1 }],
  ] as const) {
    const answer = await call("POST", `${url}${path}`, body, as("alice"));
    expect([path, answer.status, JSON.parse(answer.text)]).toEqual([
      path,
      400,
      { error: "invalid-input", path: "/limit", message: expect.stringContaining("expected a limit from 1 to 10") },
    ]);
  }
  expect(identified).toBe(0);
});

test("every route checks in the same order: method, media type, body, identify (401, 500 when it throws), authorize (403)", async () => {
  const { url, store } = await serveStored(replier, {
    identify: (request) => {
      if (request.headers.get("x-user") === "boom") throw new Error("the session service is down");
      return identifyByHeader(request);
    },
    authorize: (request, access) => access.principal !== "mallory",
  });
  const routes = [
    ["POST", url, inputFor("t1", "r1")],
    ["POST", `${url}/connect`, { threadId: "t1" }],
    ["POST", `${url}/stop`, { threadId: "t1", runId: "r1" }],
    ["POST", `${url}/history`, { threadId: "t1", before: "m", limit: 1 }],
    ["PATCH", threadUrl(url, "t1"), { title: "x" }],
    ["DELETE", threadUrl(url, "t1"), undefined],
    ["GET", `${url}/threads`, undefined],
    ["GET", `${url}/threads/events`, undefined],
  ] as const;
  for (const [method, path, body] of routes) {
    const unidentified = await call(method, path, body);
    expect([method, path, unidentified.status, JSON.parse(unidentified.text)]).toEqual([
      method,
      path,
      401,
      expect.objectContaining({ error: "unauthenticated" }),
    ]);
    const failing = await call(method, path, body, as("boom"));
    expect([method, path, failing.status, failing.text]).toEqual([method, path, 500, expect.stringContaining("the session service is down")]);
    const denied = await call(method, path, body, as("mallory"));
    expect([method, path, denied.status, JSON.parse(denied.text)]).toEqual([method, path, 403, expect.objectContaining({ error: "forbidden" })]);
    if (body !== undefined) {
      // the body is read (and refused) before identify is asked
      const notJson = await call(method, path, undefined, { "Content-Type": "text/plain" });
      expect([method, path, notJson.status]).toEqual([method, path, 415]);
    }
  }
  expect((await call("GET", `${url}/capabilities`)).status).toBe(401);
  expect((await call("GET", `${url}/capabilities`, undefined, as("alice"))).status).toBe(200);
  expect(store.stats().threads).toBe(0);
  const wrong = await call("PUT", threadUrl(url, "t1"), { title: "x" }, as("alice"));
  expect([wrong.status, header(wrong, "allow")]).toEqual([405, "PATCH, DELETE"]);
  const badId = await call("DELETE", `${url}/threads/%zz`, undefined, as("alice"));
  expect([badId.status, JSON.parse(badId.text)]).toEqual([400, expect.objectContaining({ error: "invalid-input", message: expect.stringContaining('"%zz"') })]);
});

test.each(["events", "connect", "threads", "a/b", "%", "ü", "a b?c#d"])("the thread id %j works on every route, percent-encoded in paths", async (threadId) => {
  const { url } = await serveStored(replier, { identify: identifyByHeader });
  await converse(url, "alice", threadId, 2);
  const listed = JSON.parse((await call("GET", `${url}/threads`, undefined, as("alice"))).text) as ThreadPage;
  expect(listed.threads.map((row) => row.threadId)).toEqual([threadId]);
  const renamed = await call("PATCH", threadUrl(url, threadId), { title: "renamed" }, as("alice"));
  expect([renamed.status, (JSON.parse(renamed.text) as ThreadSummary).threadId]).toEqual([200, threadId]);
  const older = await call("POST", `${url}/history`, { threadId, before: "u-r2", limit: 5 }, as("alice"));
  expect(JSON.parse(older.text)).toMatchObject({ messages: [{ id: "u-r1" }, { id: "a-r1" }] });
  expect((await call("DELETE", threadUrl(url, threadId), undefined, as("alice"))).status).toBe(204);
  expect(await joinOf(await call("POST", `${url}/connect`, { threadId }, as("alice")))).toEqual(NEW_THREAD);
});

test("without identify: the list and its events answer 404, threads have no owner and the id is the only protection", async () => {
  const { url } = await serveStored(replier);
  await converse(url, "anyone", "t1", 1);
  for (const path of [`${url}/threads`, `${url}/threads/events`]) {
    const answer = await call("GET", path);
    expect([path, answer.status, JSON.parse(answer.text)]).toEqual([
      path,
      404,
      expect.objectContaining({ error: "not-found", message: expect.stringContaining("needs identify") }),
    ]);
  }
  expect((await call("GET", `${url}/capabilities`)).status).toBe(200);
  // by id, anyone may rename, page and delete it
  expect((await call("PATCH", threadUrl(url, "t1"), { title: "x" })).status).toBe(200);
  expect((await call("POST", `${url}/history`, { threadId: "t1", before: "a-r1", limit: 1 })).status).toBe(200);
  expect((await call("DELETE", threadUrl(url, "t1"))).status).toBe(204);
});

test("threads stored before identify was turned on belong to nobody: no principal sees or reaches them", async () => {
  const before = await serveStored(replier);
  await converse(before.url, "anyone", "old", 1);
  const { url } = await serveStored(replier, { store: before.store, identify: identifyByHeader });
  expect(JSON.parse((await call("GET", `${url}/threads`, undefined, as("alice"))).text)).toEqual({ threads: [] });
  expect(await joinOf(await call("POST", `${url}/connect`, { threadId: "old" }, as("alice")))).toEqual(NEW_THREAD);
  expect((await call("PATCH", threadUrl(url, "old"), { title: "mine" }, as("alice"))).status).toBe(404);
});

test("without a store the thread routes answer 404 and say why", async () => {
  const served = await serve(createHandler(replier, { identify: identifyByHeader }));
  try {
    const url = `${served.url}agent`;
    for (const [method, path, body] of [
      ["GET", `${url}/threads`, undefined],
      ["PATCH", threadUrl(url, "t1"), { title: "x" }],
      ["DELETE", threadUrl(url, "t1"), undefined],
      ["POST", `${url}/history`, { threadId: "t1", before: "m", limit: 1 }],
    ] as const) {
      const answer = await call(method, path, body, as("alice"));
      expect([method, answer.status, JSON.parse(answer.text)]).toEqual([
        method,
        404,
        expect.objectContaining({ message: expect.stringContaining("needs a thread store") }),
      ]);
    }
  } finally {
    await served.close();
  }
});

test("authorize is asked on every route with the principal and the route's action: one thread's with its id, the list's without", async () => {
  const asked: ThreadAccess[] = [];
  const { url } = await serveStored(replier, { identify: identifyByHeader, authorize: (request, access) => (asked.push(access), true) });
  await converse(url, "alice", "t1", 1);
  await call("POST", `${url}/connect`, { threadId: "t1", limit: 1 }, as("alice"));
  await call("POST", `${url}/history`, { threadId: "t1", before: "a-r1", limit: 1 }, as("alice"));
  await call("GET", `${url}/threads`, undefined, as("alice"));
  await call("PATCH", threadUrl(url, "t1"), { archived: true }, as("alice"));
  await call("POST", `${url}/stop`, { threadId: "t1", runId: "r1" }, as("alice"));
  await call("DELETE", threadUrl(url, "t1"), undefined, as("alice"));
  const events = await fetch(`${url}/threads/events`, { headers: { Accept: "text/event-stream", ...as("alice") } });
  await events.body?.cancel();
  expect(asked).toEqual([
    { action: "run", principal: "alice", threadId: "t1", runId: "r1" },
    { action: "connect", principal: "alice", threadId: "t1" },
    { action: "history", principal: "alice", threadId: "t1" },
    { action: "list", principal: "alice" },
    { action: "update", principal: "alice", threadId: "t1", patch: { archived: true } },
    { action: "stop", principal: "alice", threadId: "t1", runId: "r1" },
    { action: "delete", principal: "alice", threadId: "t1" },
    { action: "events", principal: "alice" },
  ]);
});

test("a rename past the longest title is refused, naming the length, and the title stays", async () => {
  const { url } = await serveStored(replier, { identify: identifyByHeader });
  await converse(url, "alice", "t1", 1);
  await call("PATCH", threadUrl(url, "t1"), { title: "Short" }, as("alice"));
  const tooLong = await call("PATCH", threadUrl(url, "t1"), { title: "x".repeat(MAX_TITLE_LENGTH + 1) }, as("alice"));
  expect(tooLong.status).toBe(400);
  expect(JSON.parse(tooLong.text)).toEqual({
    error: "invalid-input",
    message: `expected a title of at most ${MAX_TITLE_LENGTH} characters, but got ${MAX_TITLE_LENGTH + 1}`,
    path: "/title",
  });
  const longest = await call("PATCH", threadUrl(url, "t1"), { title: "y".repeat(MAX_TITLE_LENGTH) }, as("alice"));
  expect(longest.status).toBe(200);
  const list = await call("GET", `${url}/threads`, undefined, as("alice"));
  expect((JSON.parse(list.text) as ThreadPage).threads.map((row) => row.title)).toEqual(["y".repeat(MAX_TITLE_LENGTH)]);
});
