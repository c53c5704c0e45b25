/**
 * Asserting on an Update stream (docs/testing.md#asserting-on-updates): every kind of update as its
 * line, a thread as its transcript, the list a stream collects to, and marbles that fail with a
 * readable message under any runner.
 */
import { filter, map, of, throwError } from "rxjs";
import { Session } from "../../src/client/Session";
import { ev } from "../../src/protocol/build";
import type { Message } from "../../src/protocol/messages";
import { inProcessTransport } from "../../src/server/inProcessTransport";
import { ClientError } from "../../src/thread/ClientError";
import type { Update } from "../../src/thread/Update";
import { collectUpdates, describeUpdate, marbleScheduler, marbleValues, summarize, transcript } from "../../src/testing";
import { greeter } from "./agents";

/** Not the user's own message: its lines depend on how the Session reports it, not on the agent. */
const agentSide = (update: Update): boolean => !(update.kind === "message" && update.message.role === "user");

const assistant: Message = { id: "m1", role: "assistant", content: "Hi" };

test("every kind of update reads as one line", () => {
  const updates: Update[] = [
    { kind: "message", index: 0, id: "m1", change: { kind: "started" }, message: assistant },
    { kind: "message", index: 0, id: "m1", change: { kind: "content", delta: 'say "hi"' }, message: assistant },
    { kind: "message", index: 0, id: "m1", change: { kind: "toolCallStarted", toolCallId: "c1" }, message: assistant },
    { kind: "message", index: 0, id: "m1", change: { kind: "toolCallArgs", toolCallId: "c1", delta: '{"a"' }, message: assistant },
    { kind: "message", index: 0, id: "m1", change: { kind: "toolCallEnded", toolCallId: "c1", args: { a: 1 } }, message: assistant },
    {
      kind: "message",
      index: 1,
      id: "x1",
      change: { kind: "toolResult", toolCallId: "c1" },
      message: { id: "x1", role: "tool", toolCallId: "c1", content: "ok" },
    },
    { kind: "message", index: 0, id: "m1", change: { kind: "encryptedValue", subtype: "message", entityId: "m1" }, message: assistant },
    { kind: "reasoning", index: 2, id: "r1", change: { kind: "content", delta: "hm" }, text: "hm", message: { id: "r1", role: "reasoning", content: "hm" } },
    { kind: "messages", messages: [assistant] },
    { kind: "state", state: { n: 2 }, rawState: { n: 2 } },
    { kind: "interrupt", interrupt: { id: "i1", reason: "confirm" } },
    { kind: "subagent", change: "finished", subagent: { id: "s1", name: "researcher", status: { kind: "finished" } } },
    { kind: "error", error: new ClientError("tool", "get_time threw: no clock") },
    { kind: "connection", status: "reconnecting", attempt: 1 },
    { kind: "run", runId: "r2", roundtrip: 1, previousEnd: { kind: "success" }, toolCallIds: ["c1"] },
    { kind: "queued", notice: { id: "q1", status: "waiting" } },
    { kind: "done", end: { kind: "failed", message: "boom" } },
    { kind: "done", end: { kind: "interrupted", interrupts: [] } },
  ];
  expect(summarize(updates)).toEqual([
    "assistant m1 started",
    'assistant m1 content "say \\"hi\\""',
    "assistant m1 toolCallStarted c1",
    'assistant m1 toolCallArgs c1 "{\\"a\\""',
    'assistant m1 toolCallEnded c1 {"a":1}',
    "tool x1 toolResult c1",
    "assistant m1 encryptedValue message m1",
    'reasoning r1 content "hm"',
    "messages 1",
    'state {"n":2}',
    "interrupt i1 confirm",
    "subagent researcher finished",
    "error tool: get_time threw: no clock",
    "connection reconnecting 1",
    "run r2 roundtrip 1",
    "queued q1 waiting",
    "done failed: boom",
    "done interrupted",
  ]);
});

test("a thread as its transcript: every role, tool calls by name, failed results, non-text parts", () => {
  const messages: Message[] = [
    { id: "s", role: "system", content: "Be brief." },
    { id: "d", role: "developer", content: "No emojis." },
    {
      id: "u1",
      role: "user",
      content: [
        { type: "text", text: "What is this? " },
        { type: "image", source: { type: "url", value: "https://example.com/a.png" } },
      ],
    },
    { id: "r", role: "reasoning", content: "An image question." },
    { id: "a1", role: "assistant", toolCalls: [{ id: "c1", type: "function", function: { name: "describe", arguments: '{"n":1}' } }] },
    { id: "t1", role: "tool", toolCallId: "c1", content: "", error: "no vision" },
    { id: "t2", role: "tool", toolCallId: "c9", content: "orphan" },
    { id: "p", role: "activity", activityType: "PLAN", content: { steps: [] } },
    { id: "a2", role: "assistant", content: "I cannot see it." },
  ];
  expect(transcript(messages)).toEqual([
    "system: Be brief.",
    "developer: No emojis.",
    "user: What is this? [image]",
    "reasoning: An image question.",
    'assistant → describe({"n":1})',
    "tool describe failed: no vision",
    "tool c9: orphan",
    'activity PLAN: {"steps":[]}',
    "assistant: I cannot see it.",
  ]);
});

test("collectUpdates resolves with a Session's whole exchange, and rejects with a stream's error", async () => {
  const session = new Session(inProcessTransport(greeter), { threadId: "t1" });
  const updates = await collectUpdates(session.send("Ada"));
  expect(updates.filter((update) => update.kind === "done")).toHaveLength(1);
  expect(transcript(session.messages)).toEqual([
    "user: Ada",
    "assistant: Hello, Ada!",
    'assistant → lookup({"name":"Ada"})',
    'tool lookup: {"known":true}',
    "assistant: I know you.",
  ]);
  await expect(collectUpdates(throwError(() => new Error("cut")))).rejects.toThrow("cut");
});

test("marbles over a Session's updates, and a mismatch that throws a readable Error (no runner's expect)", () => {
  const events = [ev.runStarted("t1", "r1"), ev.textMessageStart("m1"), ev.textMessageContent("m1", "Hi"), ev.textMessageEnd("m1"), ev.runFinished("t1", "r1")];
  const scheduler = marbleScheduler();
  scheduler.run(({ cold, expectObservable }) => {
    const session = new Session({ run: () => cold("a 9ms (bcde|)", marbleValues(...events)) }, { threadId: "t1", newId: () => "u1" });
    const lines = marbleValues("assistant m1 started", 'assistant m1 content "Hi"', "assistant m1 ended", "done success");
    expectObservable(session.send("hi").pipe(filter(agentSide), map(describeUpdate))).toBe("10ms (abcd|)", lines);
  });
  const failing = () =>
    marbleScheduler().run(({ expectObservable }) => expectObservable(of(1, { a: [1, new Error("x")] })).toBe("(ab|)", { a: 1, b: { a: [1, new Error("y")] } }));
  expect(failing).toThrow(
    /^expected the marbles to match, but they differ at \[1\]\.notification\.value\.a\[1\]\nexpected: .*"Error: y".*\nactual: {3}.*"Error: x"/,
  );
  expect(() => marbleScheduler().run(({ expectObservable }) => expectObservable(of({ a: 1, b: undefined })).toBe("(a|)", { a: { a: 1 } }))).not.toThrow();
});

test("marbleValues letters a list, and refuses more than 26", () => {
  expect(marbleValues("x", "y")).toEqual({ a: "x", b: "y" });
  expect(() => marbleValues(...Array.from({ length: 27 }, (_, index) => index))).toThrow("marbleValues: expected at most 26 values (a to z), but got 27");
});
