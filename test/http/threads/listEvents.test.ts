/**
 * `GET {url}/threads/events` over loopback (docs/threads.md#the-thread-list): a principal hears
 * the changes of its own list and never another owner's, even for a thread id both use; frames
 * carry no `id:` (a client resyncs by refetching the first page); and a reader that falls too far
 * behind has its stream ended instead of queued without bound.
 */
import type { ThreadListEvent } from "../../../src/thread/threadList";
import { closeAll, serveStored } from "../durable/support";
import { as, call, converse, decodeFrame, identifyByHeader, openEvents, replier, threadUrl } from "./support";

afterEach(closeAll);

const threadOf = (change: ThreadListEvent): string => ("thread" in change ? change.thread.threadId : change.threadId);

test("a principal hears its own list's changes, and none of another owner's, not even on a thread id both use", async () => {
  const { url } = await serveStored(replier, { identify: identifyByHeader });
  const alice = await openEvents(url, "alice");
  expect(alice.response.status).toBe(200);
  expect(alice.response.headers.get("content-type")).toBe("text/event-stream");
  await converse(url, "alice", "shared", 1);
  await converse(url, "bob", "shared", 1); // the same id, bob's thread
  await converse(url, "bob", "bobs-own", 1);
  expect((await call("PATCH", threadUrl(url, "shared"), { title: "bob's" }, as("bob"))).status).toBe(200);
  expect((await call("DELETE", threadUrl(url, "bobs-own"), undefined, as("bob"))).status).toBe(204);
  expect((await call("DELETE", threadUrl(url, "shared"), undefined, as("bob"))).status).toBe(204);
  // alice's last change: whatever bob's changes sent her would have come before it
  expect((await call("PATCH", threadUrl(url, "shared"), { title: "alice's" }, as("alice"))).status).toBe(200);
  const heard = await alice.until((change) => change.type === "renamed");
  await alice.cancel();
  expect(heard.map(threadOf).every((threadId) => threadId === "shared")).toBe(true);
  expect(heard.map((change) => change.type)).toEqual(expect.arrayContaining(["created", "run-ended", "renamed"]));
  expect(heard.some((change) => change.type === "deleted" || ("thread" in change && change.thread.title === "bob's"))).toBe(false);
  expect(heard[heard.length - 1]).toMatchObject({ type: "renamed", thread: { threadId: "shared", title: "alice's" } });
});

test("a reader further behind than the stream's cap has its stream ended (it reconnects and refetches), not queued without bound", async () => {
  const { url, store } = await serveStored(replier, { identify: identifyByHeader, maxBufferedBytes: 1000 });
  await converse(url, "alice", "t1", 1);
  const alice = await openEvents(url, "alice");
  await call("PATCH", threadUrl(url, "t1"), { title: "first" }, as("alice"));
  await alice.until((change) => change.type === "renamed"); // the stream is followed
  // 50 renames of ~250 bytes each, all in one turn, before the stream can hand any on
  await Promise.all(Array.from({ length: 50 }, (_, n) => store.update("t1", { title: `title ${n}` }, { owner: "alice" })));
  const frames = await alice.rest(); // ends: no hang
  expect(frames.length).toBeGreaterThan(1);
  expect(frames.length).toBeLessThan(1 + 50);
  expect(frames.map(decodeFrame).every((change) => change.type === "renamed")).toBe(true);
});

test("the events answer 406 to a client that does not accept text/event-stream, before identify", async () => {
  const { url } = await serveStored(replier, { identify: identifyByHeader });
  const answer = await fetch(`${url}/threads/events`, { headers: { Accept: "application/json" } });
  expect(answer.status).toBe(406);
  expect(await answer.json()).toMatchObject({ error: "not-acceptable" });
});
