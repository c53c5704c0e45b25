/**
 * Recording a real endpoint and replaying it (docs/testing.md#record-and-replay): a run recorded
 * over loopback HTTP from a server that keeps threads (frames with `id:`), kept as JSON, replayed
 * into a Session gives the updates a live Session got; replays at a pace run on virtual time; bad
 * recordings and bad answers are refused with what was wrong.
 */
import { filter, map } from "rxjs";
import { Session } from "../../src/client/Session";
import { HttpTransport } from "../../src/client/transports/HttpTransport";
import { serve, type Served } from "../../src/node/serve";
import { createHandler } from "../../src/server/http/createHandler";
import { memoryStore } from "../../src/server/store/memory/memoryStore";
import type { RunAgentInput } from "../../src/protocol/input";
import {
  collectUpdates,
  describeUpdate,
  marbleScheduler,
  marbleValues,
  readRecording,
  recordSse,
  replayRecording,
  summarize,
  type Recording,
} from "../../src/testing";
import { greeter } from "./agents";

/** Deterministic client ids: id-1, id-2, … */
const counter = (): (() => string) => {
  let n = 0;
  return () => `id-${++n}`;
};

let recordingServer: Served;
let liveServer: Served;
beforeAll(async () => {
  // Two servers, each with its own store: the recorded run and the live run both start a new thread.
  recordingServer = await serve(createHandler(greeter, { store: memoryStore() }));
  liveServer = await serve(createHandler(greeter, { store: memoryStore() }));
});
afterAll(async () => {
  await recordingServer.close();
  await liveServer.close();
});

/** A live Session's exchange over HTTP, and the input it posted. */
async function liveExchange(text: string): Promise<{ updates: string[]; input: RunAgentInput }> {
  const inputs: RunAgentInput[] = [];
  const spying: typeof fetch = async (url, init) => {
    if (typeof init?.body === "string" && url === liveServer.url) inputs.push(JSON.parse(init.body) as RunAgentInput); // test-only: our own client's body
    return fetch(url, init);
  };
  const session = new Session(new HttpTransport(liveServer.url, { fetch: spying }), { threadId: "t1", newId: counter() });
  const updates = summarize(await collectUpdates(session.send(text)));
  return { updates, input: inputs[0] };
}

test("a recorded run, kept as JSON and replayed into a Session, gives the updates the live Session got", async () => {
  const live = await liveExchange("Ada");
  expect(live.updates.at(-1)).toBe("done success");
  expect(live.updates).toContain(`assistant ${live.input.runId}-a content "Ada"`);

  const recording = await recordSse({ url: recordingServer.url, input: live.input });
  expect(recording.status).toBe(200);
  expect(recording.frames.length).toBeGreaterThanOrEqual(10);
  expect(recording.frames.every((frame) => typeof frame.id === "string" && frame.atMs >= 0)).toBe(true); // a store's cursors
  expect(JSON.parse(recording.frames[0].data)).toMatchObject({ type: "RUN_STARTED", threadId: "t1", runId: live.input.runId });

  const kept: unknown = JSON.parse(JSON.stringify(recording));
  const session = new Session(replayRecording(readRecording(kept)), { threadId: "t1", newId: counter() });
  expect(summarize(await collectUpdates(session.send("Ada")))).toEqual(live.updates);
});

test("a replay serves its recordings in order and refuses a run past the last or on another thread", async () => {
  const recording = await recordSse({ url: recordingServer.url, input: input("t2", "r1", "Bob") });
  const replay = replayRecording([recording]);
  const first = await collectUpdates(new Session(replay, { threadId: "t2", newId: counter() }).send("Bob"));
  expect(summarize(first).at(-1)).toBe("done success");
  const second = summarize(await collectUpdates(new Session(replay, { threadId: "t2", newId: counter() }).send("Bob")));
  expect(second.at(-1)).toMatch(/^done failed: the transport failed: replayRecording: expected run 2 to have a recording, but the replay holds 1;/);
  const elsewhere = summarize(await collectUpdates(new Session(replayRecording(recording), { threadId: "t9", newId: counter() }).send("Bob")));
  expect(elsewhere.at(-1)).toContain('replayRecording: expected run 1 on thread "t2" (its recording\'s), but it is on thread "t9"');
  expect(replay.runs).toBe(2);
});

test("a replay at a pace runs on virtual time: a fixed gap, and the recorded times", () => {
  const recording = fixedRecording();
  const scheduler = marbleScheduler();
  scheduler.run(({ expectObservable }) => {
    const labels = (pace: number | "recorded") =>
      new Session(replayRecording(recording, { pace }), { threadId: "t1", newId: counter() }).send("hi").pipe(
        filter((update) => !(update.kind === "message" && update.message.role === "user")), // the agent's side
        map(describeUpdate),
      );
    const lines = marbleValues("assistant m1 started", 'assistant m1 content "Hi"', "assistant m1 ended", "done success");
    expectObservable(labels(5)).toBe("10ms a 4ms b 4ms c 4ms (d|)", lines);
    expectObservable(labels("recorded")).toBe("20ms a 19ms b 9ms c 9ms (d|)", lines);
  });
});

test("a paced replay on an explicit scheduler, and one unsubscribed mid-run, stop where they are", () => {
  const scheduler = marbleScheduler();
  scheduler.run(({ expectObservable }) => {
    const events = replayRecording(fixedRecording(), { pace: 10, scheduler })
      .run(input("t1", "r1", "hi"))
      .pipe(map((event) => event.type));
    expectObservable(events, "^ 25ms !").toBe("10ms a 9ms b", { a: "RUN_STARTED", b: "TEXT_MESSAGE_START" });
  });
});

test("a bad recording is refused when the replay is made, naming the member", () => {
  const recording = fixedRecording();
  expect(() => replayRecording({ ...recording, frames: [{ data: "{}", atMs: -1 }] })).toThrow(
    'expected a recording (agui-rx/recording, version 1): at "/frames/0/atMs" expected a non-negative integer, but got -1',
  );
  expect(() => readRecording({ format: "something else" })).toThrow('at "/format" expected "agui-rx/recording", but got "something else"');
  expect(() => replayRecording(recording, { pace: -5 })).toThrow('expected pace "instant", "recorded" or a number of milliseconds (0 or more), but got -5');
});

test("recording an answer that is not a run's event stream rejects with what arrived", async () => {
  const missing = async () => new Response("no agent here", { status: 404 });
  await expect(recordSse({ url: "http://agui-rx.test/nowhere", input: input("t3", "r1", "x"), fetch: missing })).rejects.toThrow(
    'expected a 2xx answer to POST http://agui-rx.test/nowhere, but got 404: "no agent here"',
  );
  const json = async () => new Response("{}", { headers: { "Content-Type": "application/json" } });
  await expect(recordSse({ url: "http://agui-rx.test/", input: input("t3", "r1", "x"), fetch: json })).rejects.toThrow(
    "expected a text/event-stream answer to POST http://agui-rx.test/, but got application/json",
  );
});

function input(threadId: string, runId: string, text: string): RunAgentInput {
  return { threadId, runId, messages: [{ id: `${runId}-u`, role: "user", content: text }], tools: [], context: [] };
}

/** A small recording written by hand: a run of one message, frames 10, 30, 40, 50 ms after the send. */
function fixedRecording(): Recording {
  const frame = (event: object, atMs: number) => ({ data: JSON.stringify(event), atMs });
  return {
    format: "agui-rx/recording",
    version: 1,
    url: "http://agui-rx.test/",
    input: input("t1", "r1", "hi"),
    status: 200,
    frames: [
      frame({ type: "RUN_STARTED", threadId: "t1", runId: "r1" }, 10),
      frame({ type: "TEXT_MESSAGE_START", messageId: "m1", role: "assistant" }, 20),
      frame({ type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "Hi" }, 40),
      frame({ type: "TEXT_MESSAGE_END", messageId: "m1" }, 50),
      frame({ type: "RUN_FINISHED", threadId: "t1", runId: "r1" }, 60),
    ],
  };
}
