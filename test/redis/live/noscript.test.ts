/**
 * Scripts by digest (EVALSHA) on a real Redis: once a script's digest is known the store calls it
 * by digest, and when Redis no longer has it (SCRIPT FLUSH, as after a restart) the call is sent
 * whole (EVAL) and nothing is lost, doubled or reordered, appends called back to back included.
 * On a redis-server of its own: SCRIPT FLUSH on the suite's would race the other files' calls.
 */
import { ev, runAgentInput } from "../../../src/protocol/build";
import { redisStore, type RedisStore } from "../../../src/redis/redisStore";
import { scriptDigest } from "../../../src/redis/scriptDigests";
import { appendScript } from "../../../src/redis/scripts/appendBatch";
import { quietAppendScript } from "../../../src/redis/scripts/quietAppend";
import { closeClient, connectClient, uniquePrefix, type TestClient } from "../support/clients";
import { startRedisServer, type RedisServer } from "../support/redisServer";
import { APPEND_MARK, recordingPort, scriptCalls } from "../support/ports";
import { until } from "../support/until";

const prefix = uniquePrefix("noscript");
let client: TestClient;
let admin: TestClient;
let store: RedisStore | undefined;
let server: RedisServer;

beforeAll(async () => {
  server = await startRedisServer();
  [client, admin] = await Promise.all([connectClient("noscript", server.url), connectClient("noscript-admin", server.url)]);
});

afterEach(async () => {
  await store?.close();
  store = undefined;
});

afterAll(async () => {
  await closeClient(client);
  await closeClient(admin);
  await server.stop();
});

test("scripts go by digest once it is known; after SCRIPT FLUSH they are sent whole again, and back-to-back appends stay exact and in order", async () => {
  const port = recordingPort(client);
  const opened = redisStore({ port, prefix });
  store = opened;
  const writer = await opened.beginRun(runAgentInput("t1", "r1"));
  await writer.append([ev.textMessageStart("m1")]);
  await until(() => scriptDigest(appendScript) !== undefined && scriptDigest(quietAppendScript) !== undefined, "the append scripts' digests are computed");
  await writer.append([ev.textMessageContent("m1", "a")]); // the quiet append's first call: Redis does not have it yet
  await writer.append([ev.textMessageContent("m1", "a2")]);
  expect(
    scriptCalls(port.sent, APPEND_MARK)
      .map((args) => args[0])
      .slice(-1),
  ).toEqual(["EVALSHA"]);

  await admin.sendCommand(["SCRIPT", "FLUSH"]);
  port.sent.length = 0;
  const texts = ["b", "c", "d", "e"];
  const cursors = await Promise.all(texts.map((text) => writer.append([ev.textMessageContent("m1", text)])));
  const calls = scriptCalls(port.sent, APPEND_MARK).map((args) => args[0]);
  // The first finds the script gone and is sent whole (which caches it again); the rest go by digest.
  expect(calls).toEqual(["EVALSHA", "EVAL", "EVALSHA", "EVALSHA", "EVALSHA"]);
  const flat = cursors.flat();
  expect([...flat].sort()).toEqual(flat); // in call order

  const end = await writer.append([ev.textMessageEnd("m1"), ev.runFinished("t1", "r1")]);
  const read = await opened.read("t1", writer.started.cursor);
  if (read?.kind !== "resume") throw new Error(`expected the cursor path, got ${JSON.stringify(read)}`);
  expect(read.events.map((stored) => stored.event)).toEqual([
    ev.textMessageStart("m1"),
    ...["a", "a2", ...texts].map((text) => ev.textMessageContent("m1", text)),
    ev.textMessageEnd("m1"),
    ev.runFinished("t1", "r1"),
  ]);
  expect(read.events.map((stored) => stored.cursor).slice(-2)).toEqual(end);
});
