import { lastValueFrom, take, toArray } from "rxjs";
import * as t from "io-ts";
import { clientTool, type ClientTool } from "../../../src/client/tools/clientTool";
import { executeToolCalls, type ExecutableToolCall } from "../../../src/client/tools/executeToolCalls";
import type { ToolCallResult } from "../../../src/client/tools/runToolCall";
import { toolSession } from "./support";

/** A promise resolved from outside, to settle each `execute` in the order a test chooses. */
interface Deferred<T> {
  readonly promise: Promise<T>;
  resolve(value: T): void;
  reject(reason: unknown): void;
}
function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Lets every pending promise callback run (a macrotask turn, no timer): for asserting that nothing more happens. */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** A tool whose calls each wait for the test: `started` records them, `answer(id, value)` settles one. */
function controlledTool(name = "lookup") {
  const pending = new Map<string, Deferred<unknown>>();
  const started: string[] = [];
  const signals = new Map<string, AbortSignal>();
  const startedWaiters = new Map<string, Deferred<void>>();
  const waitFor = (id: string) => {
    const waiter = startedWaiters.get(id) ?? deferred<void>();
    startedWaiters.set(id, waiter);
    if (started.includes(id)) waiter.resolve();
    return waiter.promise;
  };
  const tool: ClientTool<{ q: string }, unknown> = clientTool({
    name,
    description: "Looks something up",
    parameters: t.type({ q: t.string }),
    execute: (_args, { toolCallId, signal }) => {
      started.push(toolCallId);
      signals.set(toolCallId, signal);
      const answer = deferred<unknown>();
      pending.set(toolCallId, answer);
      signal.addEventListener("abort", () => answer.reject(signal.reason));
      startedWaiters.get(toolCallId)?.resolve();
      return answer.promise;
    },
  });
  const answer = (id: string, value: unknown) => pending.get(id)?.resolve(value);
  return { tool, started, signals, answer, waitFor };
}

const call = (tool: ClientTool, id: string, messageId = "assistant-1", args = '{"q":"x"}'): ExecutableToolCall => ({
  call: { id, type: "function", function: { name: tool.name, arguments: args } },
  messageId,
  tool,
});

function ids(): () => string {
  let n = 0;
  return () => `tool-message-${++n}`;
}

const session = toolSession();

test("the calls of one assistant message run concurrently, and their results keep the calls' order", async () => {
  const { tool, started, answer } = controlledTool();
  const emitted: string[] = [];
  const done = lastValueFrom(executeToolCalls([call(tool, "c1"), call(tool, "c2"), call(tool, "c3")], { session, newId: ids() }).pipe(toArray()));
  expect(started).toEqual(["c1", "c2", "c3"]); // all three started before any settled
  answer("c3", "third");
  answer("c2", "second");
  await settle();
  answer("c1", "first");
  const results = await done;
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- the tool answers in this test are text
  for (const result of results) emitted.push(`${result.toolCallId}=${String(result.message.content)}`);
  expect(emitted).toEqual(["c1=first", "c2=second", "c3=third"]);
  expect(results.map((result) => result.message.id)).toEqual(["tool-message-1", "tool-message-2", "tool-message-3"]);
});

test("no calls: completes at once, synchronously", () => {
  const complete = jest.fn();
  executeToolCalls([], { session, newId: ids() }).subscribe({ complete });
  expect(complete).toHaveBeenCalledTimes(1);
});

test("a result is emitted as soon as it and every call before it have settled", async () => {
  const { tool, answer } = controlledTool();
  const seen: string[] = [];
  executeToolCalls([call(tool, "c1"), call(tool, "c2")], { session, newId: ids() }).subscribe((result) => seen.push(result.toolCallId));
  answer("c2", 2);
  await settle();
  expect(seen).toEqual([]); // c2 waits for c1
  answer("c1", 1);
  await settle();
  expect(seen).toEqual(["c1", "c2"]);
});

test("the next assistant message's calls start when the previous message's have all settled", async () => {
  const { tool, started, answer, waitFor } = controlledTool();
  const done = lastValueFrom(
    executeToolCalls([call(tool, "a1", "m1"), call(tool, "b1", "m2"), call(tool, "a2", "m1")], { session, newId: ids() }).pipe(toArray()),
  );
  expect(started).toEqual(["a1", "a2"]);
  answer("a1", 1);
  await settle();
  expect(started).toEqual(["a1", "a2"]);
  answer("a2", 2);
  await waitFor("b1");
  expect(started).toEqual(["a1", "a2", "b1"]);
  answer("b1", 3);
  expect((await done).map((result) => result.toolCallId)).toEqual(["a1", "a2", "b1"]);
});

test("failures are results too: the Observable completes with every call answered", async () => {
  const ok = clientTool({ name: "ok", description: "d", execute: () => "fine" });
  const broken = clientTool({ name: "broken", description: "d", execute: () => Promise.reject(new Error("offline")) });
  const strict = clientTool({ name: "strict", description: "d", parameters: t.type({ n: t.number }), execute: jest.fn() });
  const results: ToolCallResult[] = await lastValueFrom(
    executeToolCalls([call(ok, "1"), call(broken, "2"), call(strict, "3", "assistant-1", '{"n":"x"}')], { session, newId: ids() }).pipe(toArray()),
  );
  expect(results.map((result) => [result.toolCallId, result.kind, result.kind === "failed" ? result.error.code : result.message.content])).toEqual([
    ["1", "success", "fine"],
    ["2", "failed", "execute-failed"],
    ["3", "failed", "invalid-arguments"],
  ]);
});

test("unsubscribing aborts the signal of every running execute, and nothing is emitted after", async () => {
  const { tool, signals } = controlledTool();
  const next = jest.fn();
  const complete = jest.fn();
  const subscription = executeToolCalls([call(tool, "c1"), call(tool, "c2")], { session, newId: ids() }).subscribe({ next, complete });
  expect([...signals.values()].map((signal) => signal.aborted)).toEqual([false, false]);
  subscription.unsubscribe();
  expect([...signals.values()].map((signal) => signal.aborted)).toEqual([true, true]);
  expect(signals.get("c1")?.reason).toMatchObject({ name: "AbortError" });
  await settle(); // the executes reject with the abort reason; their results are dropped
  expect(next).not.toHaveBeenCalled();
  expect(complete).not.toHaveBeenCalled();
});

test("a subscriber that stops after the first result aborts the rest", async () => {
  const { tool, signals, answer } = controlledTool();
  const first = lastValueFrom(executeToolCalls([call(tool, "c1"), call(tool, "c2")], { session, newId: ids() }).pipe(take(1), toArray()));
  answer("c1", 1);
  expect((await first).map((result) => result.toolCallId)).toEqual(["c1"]);
  expect(signals.get("c2")?.aborted).toBe(true);
});

test("two subscribers execute the calls twice, each with its own signal", async () => {
  const { tool, started, signals, answer } = controlledTool();
  const calls = executeToolCalls([call(tool, "c1")], { session, newId: ids() });
  const a = calls.subscribe();
  const firstSignal = signals.get("c1");
  const b = lastValueFrom(calls.pipe(toArray()));
  expect(started).toEqual(["c1", "c1"]);
  a.unsubscribe();
  expect(firstSignal?.aborted).toBe(true);
  expect(signals.get("c1")?.aborted).toBe(false);
  answer("c1", "second run");
  expect((await b).map((result) => result.message.content)).toEqual(["second run"]);
});

test("a newId that throws errors the Observable before that message's calls start", () => {
  const { tool, started } = controlledTool();
  const error = jest.fn();
  executeToolCalls([call(tool, "c1")], {
    session,
    newId: () => {
      throw new Error("no ids");
    },
  }).subscribe({ error });
  expect(error).toHaveBeenCalledWith(new Error("no ids"));
  expect(started).toEqual([]);
});
