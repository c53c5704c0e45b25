// The testing kit under `node:test` (docs/testing.md): no jest, no globals, the built package by
// its public names. test/testing/packaging.test.ts runs it with `node --test` (as if `ai` were absent
// for the first three tests, which need only `agui-rx/testing`).
import assert from "node:assert/strict";
import { test } from "node:test";
import { filter, map } from "rxjs";
import { Session } from "agui-rx/client";
import { createHandler, memoryStore, success } from "agui-rx/server";
import {
  collectUpdates,
  describeUpdate,
  inProcessEndpoint,
  inProcessFetch,
  IN_PROCESS_URL,
  marbleScheduler,
  marbleValues,
  recordSse,
  replayRecording,
  summarize,
  transcript,
} from "agui-rx/testing";

const greeter = {
  async run(ctx) {
    ctx.say(`Hello, ${ctx.lastUserText() ?? "stranger"}!`, { id: `${ctx.runId}-a` });
    return success();
  },
};

test("a Session over an in-process endpoint, asserted as a list", async () => {
  const session = new Session(inProcessEndpoint(createHandler(greeter, { store: memoryStore() })), { threadId: "t1", newId: () => "u1" });
  const updates = summarize(await collectUpdates(session.send("Ada")));
  // The agent's side (the user's own message has lines of its own).
  assert.deepEqual(
    updates.filter((line) => !line.startsWith("user ")),
    ["assistant u1-a started", 'assistant u1-a content "Hello, Ada!"', "assistant u1-a ended", "done success"],
  );
  assert.deepEqual(transcript(session.messages), ["user: Ada", "assistant: Hello, Ada!"]);
});

test("a recording made through the in-process fetch, replayed, gives the same transcript", async () => {
  const input = { threadId: "t2", runId: "r1", messages: [{ id: "u1", role: "user", content: "Bob" }], tools: [], context: [] };
  const recording = await recordSse({ url: IN_PROCESS_URL, input, fetch: inProcessFetch(createHandler(greeter)) });
  const session = new Session(replayRecording(JSON.parse(JSON.stringify(recording))), { threadId: "t2" });
  await collectUpdates(session.send("Bob"));
  assert.deepEqual(transcript(session.messages), ["user: Bob", "assistant: Hello, Bob!"]);
});

test("marbles on virtual time, and a mismatch fails with a plain Error", () => {
  const recording = {
    format: "agui-rx/recording",
    version: 1,
    url: IN_PROCESS_URL,
    input: { threadId: "t3", runId: "r1", messages: [], tools: [], context: [] },
    status: 200,
    frames: [
      { data: JSON.stringify({ type: "RUN_STARTED", threadId: "t3", runId: "r1" }), atMs: 0 },
      { data: JSON.stringify({ type: "STATE_SNAPSHOT", snapshot: { n: 1 } }), atMs: 0 },
      { data: JSON.stringify({ type: "RUN_FINISHED", threadId: "t3", runId: "r1" }), atMs: 0 },
    ],
  };
  marbleScheduler().run(({ expectObservable }) => {
    const session = new Session(replayRecording(recording, { pace: 10 }), { threadId: "t3", newId: () => "u1" });
    const agentSide = session.send("hi").pipe(
      filter((update) => !(update.kind === "message" && update.message.role === "user")),
      map(describeUpdate),
    );
    expectObservable(agentSide).toBe("20ms a 9ms (b|)", marbleValues('state {"n":1}', "done success"));
  });
  assert.throws(() => marbleScheduler().run(({ cold, expectObservable }) => expectObservable(cold("a|")).toBe("b|")), /^Error: expected the marbles to match/);
});

test("no test runner's globals are here", () => {
  assert.equal(typeof globalThis.expect, "undefined");
  assert.equal(typeof globalThis.jest, "undefined");
});
