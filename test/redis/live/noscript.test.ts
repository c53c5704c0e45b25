/**
 * Scripts by digest (EVALSHA) on a real Redis: once a script's digest is known the store calls it
 * by digest, and when Redis no longer has it (SCRIPT FLUSH, as after a restart) the call is sent
 * whole (EVAL) and nothing is lost, doubled or reordered, appends called back to back included.
 */
import { ev, runAgentInput } from "../../../src/protocol/build";
import { redisStore } from "../../../src/redis/redisStore";
import { closeClient, connectClient, uniquePrefix, type TestClient } from "../support/clients";
import { recordingPort, scriptCalls } from "../support/ports";

const prefix = uniquePrefix("noscript");
const APPEND = "local first = redis.call('HGET', META, 'seq')"; // a line only the append script has
let client: TestClient;
let admin: TestClient;

beforeAll(async () => {
  [client, admin] = await Promise.all([connectClient("noscript"), connectClient("noscript-admin")]);
});

afterAll(async () => {
  await closeClient(client);
  await closeClient(admin);
});

test("scripts go by digest once it is known; after SCRIPT FLUSH they are sent whole again, and back-to-back appends stay exact and in order", async () => {
  const port = recordingPort(client);
  const store = redisStore({ port, prefix });
  const writer = await store.beginRun(runAgentInput("t1", "r1"));
  await writer.append([ev.textMessageStart("m1")]);
  await writer.append([ev.textMessageContent("m1", "a")]);
  expect(scriptCalls(port.sent, APPEND).map((args) => args[0]).slice(-1)).toEqual(["EVALSHA"]);

  await admin.sendCommand(["SCRIPT", "FLUSH"]);
  port.sent.length = 0;
  const texts = ["b", "c", "d", "e"];
  const cursors = await Promise.all(texts.map((text) => writer.append([ev.textMessageContent("m1", text)])));
  const calls = scriptCalls(port.sent, APPEND).map((args) => args[0]);
  // The first finds the script gone and is sent whole (which caches it again); the rest go by digest.
  expect(calls).toEqual(["EVALSHA", "EVAL", "EVALSHA", "EVALSHA", "EVALSHA"]);
  const flat = cursors.flat();
  expect([...flat].sort()).toEqual(flat); // in call order

  const end = await writer.append([ev.textMessageEnd("m1"), ev.runFinished("t1", "r1")]);
  const read = await store.read("t1", writer.started.cursor);
  if (read?.kind !== "resume") throw new Error(`expected the cursor path, got ${JSON.stringify(read)}`);
  expect(read.events.map((stored) => stored.event)).toEqual([
    ev.textMessageStart("m1"),
    ...["a", ...texts].map((text) => ev.textMessageContent("m1", text)),
    ev.textMessageEnd("m1"),
    ev.runFinished("t1", "r1"),
  ]);
  expect(read.events.map((stored) => stored.cursor).slice(-2)).toEqual(end);
  await store.close();
});
