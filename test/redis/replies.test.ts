/** Reading replies without casts (pure): each shape checked, anything else unavailable with an excerpt. */
import { optionalString, replyArray, replyNumber, replyString } from "../../src/redis/replies";
import { parseRunSignal } from "../../src/redis/RunSignals";
import { StoreError } from "../../src/server/store/StoreError";

function message(read: () => unknown): string {
  try {
    read();
  } catch (error) {
    if (StoreError.isInstance(error) && error.code === "unavailable") return error.message;
    throw error;
  }
  throw new Error("expected a refusal");
}

test("each reader accepts its shape", () => {
  expect(replyArray([1, "a"], "x")).toEqual([1, "a"]);
  expect(replyString("s", "x")).toBe("s");
  expect(optionalString(null, "x")).toBeUndefined();
  expect(optionalString("s", "x")).toBe("s");
  expect(replyNumber("250", "x")).toBe(250);
  expect(replyNumber(-3, "x")).toBe(-3);
});

test("and refuses any other, saying what was expected and quoting what arrived (cut at 120 characters)", () => {
  expect(message(() => replyArray("a", "XRANGE"))).toBe('expected an array as the reply of XRANGE, but Redis answered "a"');
  expect(message(() => replyString([1], "a status"))).toBe("expected a string as a status, but Redis answered [1]");
  expect(message(() => replyNumber("x", "a count"))).toBe('expected a number as a count, but Redis answered "x"');
  expect(message(() => replyString("y".repeat(500).split(""), "a status"))).toMatch(/Redis answered \["y","y",.{80,}…$/);
});

test.each<[string, ReturnType<typeof parseRunSignal>]>([
  ['["stop","t1","r1"]', { kind: "stop", threadId: "t1", runId: "r1" }],
  ['["end","t 1","r\\"1"]', { kind: "end", threadId: "t 1", runId: 'r"1' }],
  ["hello", undefined],
  ['["stop","t1"]', undefined],
  ['["pause","t1","r1"]', undefined],
  ['["stop",1,"r1"]', undefined],
  ['{"kind":"stop"}', undefined],
])("a signal message %s reads as %j (anything a store script does not publish is not ours)", (text, signal) => {
  expect(parseRunSignal(text)).toEqual(signal);
});
