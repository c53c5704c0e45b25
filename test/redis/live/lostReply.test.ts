/**
 * Connections to Redis dropped mid-append (issue #20 A4; docs/durability.md §8, "Failure
 * behaviour"), through a TCP proxy between the store and the suite's `redis-server`: an append
 * whose reply is lost (Redis logged the batch; the connection dropped before the answer arrived)
 * is sent again and answered with the cursors it was first given, the terminal's too; a cut with
 * appends in flight is survived alike. The run goes on: no event twice, none lost, no ABANDONED,
 * nothing reported to `onRunError`.
 */
import { ev, runAgentInput } from "../../../src/protocol/build";
import type { Event } from "../../../src/protocol/events";
import { HttpTransport } from "../../../src/client/transports/HttpTransport";
import type { Served } from "../../../src/node/serve";
import { redisStore, type RedisStore } from "../../../src/redis/redisStore";
import { createTaskBoardServer } from "../../../examples/task-board/server";
import { boardTurn, comparable, withoutConnection } from "../../support/boardTurns";
import { closeClient, connectClient, redisUrl, uniquePrefix, type TestClient } from "../support/clients";
import { startRedisProxy, type RedisProxy } from "../support/redisProxy";
import { logProblems, threadLog } from "../support/threadLog";

const prefix = uniquePrefix("lost-reply");
let proxy: RedisProxy;
let client: TestClient;
let admin: TestClient;
let store: RedisStore;
let served: Served | undefined;

beforeEach(async () => {
  proxy = await startRedisProxy(Number(new URL(redisUrl()).port));
  client = await connectClient("lost-reply", proxy.url);
  admin = await connectClient("lost-reply-admin");
  store = redisStore({ client, prefix });
});

afterEach(async () => {
  await served?.close();
  served = undefined;
  await store.close();
  await closeClient(client);
  await closeClient(admin);
  await proxy.close();
});

test("an append whose reply was lost is answered with the cursors it was first given, the terminal's too; each event is logged once", async () => {
  const threadId = "lost";
  const writer = await store.beginRun(runAgentInput(threadId, "r1"));
  const batch: Event[] = [ev.textMessageStart("m1"), ev.textMessageContent("m1", "reply-lost-here"), ev.textMessageEnd("m1")];
  proxy.loseReplyTo("reply-lost-here");
  const cursors = await writer.append(batch);
  expect(proxy.lostReplies).toBe(1);

  proxy.loseReplyTo("RUN_FINISHED");
  const last = await writer.append([ev.stepStarted("s"), ev.runFinished(threadId, "r1")]);
  expect(proxy.lostReplies).toBe(2);
  expect(await writer.renewLease()).toBe(false); // the run ended with the batch whose reply was lost

  const log = await threadLog(admin, prefix, threadId);
  expect(logProblems(log)).toEqual([]);
  expect(log.map((entry) => entry.event.type)).toEqual([
    "RUN_STARTED",
    "TEXT_MESSAGE_START",
    "TEXT_MESSAGE_CONTENT",
    "TEXT_MESSAGE_END",
    "STEP_STARTED",
    "RUN_FINISHED",
  ]);
  expect(log.slice(1).map((entry) => entry.cursor)).toEqual([...cursors, ...last]);
});

test("over HTTP: lost replies (the terminal's among them) and cuts with appends in flight, and the run ends as its uncut version, nothing reported", async () => {
  const runErrors: string[] = [];
  served = await createTaskBoardServer({
    store,
    typingDelayMs: 2,
    researchDelayMs: 5,
    onRunError: (error, run) => runErrors.push(`${run.threadId}: ${error instanceof Error ? error.message : String(error)}`),
  });
  const url = served.url;
  const reference = await boardTurn(new HttpTransport(url), `${prefix}uncut`);

  const threadId = `${prefix}cut`;
  for (let i = 0; i < 3; i++) proxy.loseReplyTo("TEXT_MESSAGE_CONTENT");
  proxy.loseReplyTo("RUN_FINISHED");
  let updates = 0;
  const cutAt = new Set([10, 40, 70]);
  const turn = await boardTurn(new HttpTransport(url), threadId, undefined, () => {
    if (cutAt.has(++updates)) proxy.cutAll();
  });

  expect(proxy.lostReplies).toBe(4);
  expect(runErrors).toEqual([]);
  expect(comparable(withoutConnection(turn.updates))).toBe(comparable(reference.updates));
  expect({ messages: comparable(turn.messages), state: turn.state }).toEqual({ messages: comparable(reference.messages), state: reference.state });
  const log = await threadLog(admin, prefix, threadId);
  expect(logProblems(log)).toEqual([]);
  expect(comparable(log.map((entry) => entry.event))).toBe(comparable((await threadLog(admin, prefix, `${prefix}uncut`)).map((entry) => entry.event)));
});
