/**
 * Another owner's thread is, on every route, exactly an unknown thread (docs/threads.md#owners):
 * a table of every route that names a thread, walked by a foreign principal, once with the id of
 * a thread another principal owns (with a live run, a rename, older pages, cursors the caller may
 * have learnt) and once with an id nobody has; the answers are identical but for the id sent (and a
 * new thread's prelude's run id): a join is a new, empty thread of the caller's, a reconnect after
 * a cursor is gone (docs/threads.md#joining-a-new-thread), everything else is 404.
 */
import type { Message } from "../../../src/protocol/messages";
import { success, type Agent } from "../../../src/server/Agent";
import type { ThreadPage, ThreadSummary } from "../../../src/thread/threadList";
import { closeAll, framesOf, gate, inputFor, openStream, serveStored } from "../durable/support";
import { as, call, converse, identifyByHeader, joinOf, NEW_THREAD, threadUrl, type WireAnswer } from "./support";

afterEach(closeAll);

const FOREIGN = "secret-x"; // alice's
const UNKNOWN = "secret-y"; // nobody's: the same length, so the answers' lengths match

/** Answers like `replier`, but a user message "park" parks the run until `release` opens. */
function parkingReplier(parked: { open(): void }, release: { opened: Promise<void> }): Agent {
  return {
    async run(ctx) {
      if (ctx.lastUserText() === "park") {
        ctx.say("parked", { id: `a-${ctx.runId}` });
        parked.open();
        await release.opened;
        return success();
      }
      ctx.say(`answer to ${ctx.lastUserText() ?? "nothing"} (saw ${ctx.messages.length})`, { id: `a-${ctx.runId}` });
      return success();
    },
  };
}

type Row = readonly [
  name: string,
  /** What an unknown thread answers there (docs/threads.md#joining-a-new-thread): a join is a new thread, a reconnect after a cursor is gone. */
  status: number,
  method: string,
  path: (url: string, threadId: string) => string,
  body: (threadId: string) => unknown,
  headers?: Record<string, string>,
];

test("every route answers a foreign principal for another owner's thread exactly as for an unknown thread (status, headers, body)", async () => {
  const parked = gate();
  const release = gate();
  const { url } = await serveStored(parkingReplier(parked, release), { identify: identifyByHeader });
  const history: Message[] = [];
  await converse(url, "alice", FOREIGN, 2, history);
  expect((await call("PATCH", threadUrl(url, FOREIGN), { title: "Alice's plans" }, as("alice"))).status).toBe(200);
  const live = await openStream(url, { ...inputFor(FOREIGN, "r3"), messages: [...history, { id: "u-r3", role: "user", content: "park" }] }, as("alice"));
  await parked.opened;
  const aliceCursor = (await framesOf(await live.until("parked")))[0].id ?? "";
  expect(aliceCursor).not.toBe("");

  const table: readonly Row[] = [
    ["connect", 200, "POST", (u) => `${u}/connect`, (threadId) => ({ threadId })],
    ["connect with a limit", 200, "POST", (u) => `${u}/connect`, (threadId) => ({ threadId, limit: 1 })],
    ["connect naming alice's run", 404, "POST", (u) => `${u}/connect`, (threadId) => ({ threadId, runId: "r3" })],
    ["connect after alice's cursor", 410, "POST", (u) => `${u}/connect`, (threadId) => ({ threadId }), { "Last-Event-ID": aliceCursor }],
    ["stop alice's live run", 404, "POST", (u) => `${u}/stop`, (threadId) => ({ threadId, runId: "r3" })],
    ["history before alice's message", 404, "POST", (u) => `${u}/history`, (threadId) => ({ threadId, before: "a-r1", limit: 5 })],
    ["rename", 404, "PATCH", threadUrl, () => ({ title: "pwned" })],
    ["archive", 404, "PATCH", threadUrl, () => ({ archived: true })],
    ["delete", 404, "DELETE", threadUrl, () => undefined],
  ];
  const answerFor = async ([, , method, path, body, headers]: Row, threadId: string): Promise<WireAnswer> =>
    call(method, path(url, threadId), body(threadId), { ...as("bob"), ...headers });
  // a new thread's prelude names a run made for that answer alone: the same text but for its id
  const sameBut = (text: string, threadId: string) => text.replaceAll(threadId, "X").replace(/"runId":"[^"]*"/g, '"runId":"R"');
  for (const row of table) {
    const foreign = await answerFor(row, FOREIGN);
    const unknown = await answerFor(row, UNKNOWN);
    expect([row[0], foreign.status]).toEqual([row[0], row[1]]);
    expect([row[0], foreign.headers]).toEqual([row[0], unknown.headers]);
    expect([row[0], sameBut(foreign.text, FOREIGN)]).toEqual([row[0], sameBut(unknown.text, UNKNOWN)]);
    if (row[1] === 200) expect([row[0], await joinOf(foreign)]).toEqual([row[0], NEW_THREAD]); // nothing of alice's: an empty thread
  }

  // A run on another owner's id is a new thread of the caller's, as on an unknown id: the agent sees only what bob sent.
  const runs = await Promise.all([FOREIGN, UNKNOWN].map((threadId) => call("POST", url, inputFor(threadId, "r9", "hello"), as("bob"))));
  const [foreignRun, unknownRun] = await Promise.all(runs.map(async (answer) => ({ ...answer, frames: await framesOf(answer.text) })));
  expect(foreignRun.status).toBe(200);
  expect(foreignRun.headers).toEqual(unknownRun.headers);
  const events = (run: typeof foreignRun, threadId: string) =>
    JSON.parse(JSON.stringify(run.frames.map((frame) => frame.event)).replaceAll(threadId, "X")) as unknown;
  expect(events(foreignRun, FOREIGN)).toEqual(events(unknownRun, UNKNOWN));
  expect(foreignRun.text).toContain("answer to hello (saw 1)");
  expect(foreignRun.frames.every((frame) => frame.id !== undefined)).toBe(true);

  // Nothing of alice's changed, and her run is still live.
  const bobs = JSON.parse((await call("GET", `${url}/threads`, undefined, as("bob"))).text) as ThreadPage;
  expect(bobs.threads.map((row) => [row.threadId, row.title]).sort()).toEqual([
    [FOREIGN, "hello"],
    [UNKNOWN, "hello"],
  ]);
  const alices = JSON.parse((await call("GET", `${url}/threads`, undefined, as("alice"))).text) as ThreadPage;
  expect(alices.threads.map((row: ThreadSummary) => [row.threadId, row.title, row.archived, row.running])).toEqual([[FOREIGN, "Alice's plans", false, true]]);
  release.open();
  const rest = await framesOf(await live.rest());
  expect(rest[rest.length - 1].event).toMatchObject({ type: "RUN_FINISHED", outcome: { type: "success" } });
  const joined = await framesOf((await call("POST", `${url}/connect`, { threadId: FOREIGN }, as("alice"))).text);
  expect(joined[1].event).toMatchObject({ messages: [{ id: "u-r1" }, { id: "a-r1" }, { id: "u-r2" }, { id: "a-r2" }, { id: "u-r3" }, { id: "a-r3" }] });
});
