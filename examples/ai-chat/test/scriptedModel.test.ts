/** The scripted model's pace: injectable, a timer per part by default, none with `delayMs: null`; and its bounded record of calls. */
import { scriptedChatModel, DEFAULT_DELAY_MS } from "../scriptedModel";

type Call = Parameters<ReturnType<typeof scriptedChatModel>["doStream"]>[0];
const CALL: Call = { prompt: [{ role: "user", content: [{ type: "text", text: "Hello!" }] }] };

afterEach(() => jest.useRealTimers());

test("each part waits delayMs on the clock (a fake one here)", async () => {
  jest.useFakeTimers();
  const model = scriptedChatModel({ delayMs: 1000 });
  const reader = (await model.doStream(CALL)).stream.getReader();
  let first: unknown;
  const reading = reader.read().then((result) => (first = result.value));
  await jest.advanceTimersByTimeAsync(999);
  expect(first).toBeUndefined();
  await jest.advanceTimersByTimeAsync(1);
  await reading;
  expect(first).toEqual({ type: "stream-start", warnings: [] });
  let second: unknown;
  const next = reader.read().then((result) => (second = result.value));
  await jest.advanceTimersByTimeAsync(999);
  expect(second).toBeUndefined();
  await jest.advanceTimersByTimeAsync(1);
  await next;
  expect(second).toEqual({ type: "reasoning-start", id: "reasoning-1" });
  await reader.cancel();
});

test("delayMs: null streams the whole turn without a timer", async () => {
  jest.useFakeTimers();
  const model = scriptedChatModel({ delayMs: null });
  const reader = (await model.doStream(CALL)).stream.getReader();
  const types: string[] = [];
  for (let result = await reader.read(); !result.done; result = await reader.read()) types.push(result.value.type);
  expect(types.at(-1)).toBe("finish");
  expect(jest.getTimerCount()).toBe(0);
});

test("the default pace, and a delay that is not milliseconds refused", () => {
  expect(DEFAULT_DELAY_MS).toBe(30);
  expect(() => scriptedChatModel({ delayMs: -1 })).toThrow(new TypeError("expected delayMs to be a number of milliseconds, 0 or more, or null, but got -1"));
  expect(() => scriptedChatModel({ delayMs: Number.NaN })).toThrow(/but got NaN/);
});

test("doStreamCalls keeps the last 20 calls, so a long-running server does not grow", async () => {
  const model = scriptedChatModel({ delayMs: null });
  for (let i = 0; i < 25; i++) await (await model.doStream({ prompt: [{ role: "user", content: [{ type: "text", text: `hello ${i}` }] }] })).stream.cancel();
  expect(model.doStreamCalls).toHaveLength(20);
  expect(model.doStreamCalls.at(-1)?.prompt).toEqual([{ role: "user", content: [{ type: "text", text: "hello 24" }] }]);
});
