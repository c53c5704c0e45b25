/** The commands' argument builders and reply transforms (pure, node-redis style: checked without a server). */
import { delArguments } from "../../src/redis/commands/DEL";
import { evalArguments, evalshaArguments, isNoScript } from "../../src/redis/commands/EVAL";
import { pexpireArguments } from "../../src/redis/commands/PEXPIRE";
import { wakeArguments } from "../../src/redis/commands/XADD";
import { xrangeArguments, xrangeAtArguments } from "../../src/redis/commands/XRANGE";
import { parseXReadReply, xreadArguments } from "../../src/redis/commands/XREAD";
import { ownerKeys, threadKeys } from "../../src/redis/keys";
import { StoreError } from "../../src/server/store/StoreError";

test("EVAL: the source, eight keys in KEYS order, the four context arguments, then the script's own", () => {
  const args = evalArguments({ name: "x", source: "return 1" }, threadKeys("p:", "t"), { now: "", channel: "p:signals", threadId: "t", ttl: 1000 }, [
    "r1",
    "2",
  ]);
  expect(
    evalArguments({ name: "x", source: "return 1" }, ownerKeys("p:", "o"), { now: "", channel: "p:signals", threadId: "t", ttl: 1 }, []).slice(2, 6),
  ).toEqual(["3", "p:{%o:o}:threads", "p:{%o:o}:archived", "p:{%o:o}:deleted"]);
  expect(args).toEqual([
    "EVAL",
    "return 1",
    "11",
    "p:{t}:events",
    "p:{t}:meta",
    "p:{t}:lease",
    "p:{t}:snapshot",
    "p:{t}:runs",
    "p:{t}:messages",
    "p:{t}:ids",
    "p:{t}:tombstone",
    "p:{t}:queue",
    "p:{t}:queue-entries",
    "p:{t}:queue-outcomes",
    "",
    "p:signals",
    "t",
    "1000",
    "r1",
    "2",
  ]);
});

test("XRANGE: exclusive start with (, inclusive end, a page; and the one entry at a cursor", () => {
  expect(xrangeArguments("k", "5-1", "+", 1000)).toEqual(["XRANGE", "k", "(5-1", "+", "COUNT", "1000"]);
  expect(xrangeArguments("k", "5-1", "9-0", 10)).toEqual(["XRANGE", "k", "(5-1", "9-0", "COUNT", "10"]);
  expect(xrangeAtArguments("k", "5-1")).toEqual(["XRANGE", "k", "5-1", "5-1"]);
});

test("XREAD: every key, then every id, in the same order", () => {
  expect(
    xreadArguments(
      [
        { key: "w", after: "0-0" },
        { key: "a", after: "1-0" },
        { key: "b", after: "2-3" },
      ],
      500,
      10_000,
    ),
  ).toEqual(["XREAD", "COUNT", "500", "BLOCK", "10000", "STREAMS", "w", "a", "b", "0-0", "1-0", "2-3"]);
});

test("XREAD's reply: nil (timed out or woken) is nothing; RESP2 pairs and RESP3 maps read alike", () => {
  const entries = [["1-0", ["n", "0", "e", "{}"]]];
  expect(parseXReadReply(null)).toEqual([]);
  expect(
    parseXReadReply([
      ["a", entries],
      ["b", []],
    ]),
  ).toEqual([
    { key: "a", entries },
    { key: "b", entries: [] },
  ]);
  expect(parseXReadReply({ a: entries })).toEqual([{ key: "a", entries }]);
});

test("XREAD's reply in another shape is unavailable, saying what arrived", () => {
  let error: unknown;
  try {
    parseXReadReply([[7, []]]);
  } catch (caught) {
    error = caught;
  }
  expect(StoreError.isInstance(error) && error.code).toBe("unavailable");
  expect(String(error)).toContain("expected a string as an XREAD stream's key, but Redis answered 7");
});

test("the wake-up XADD keeps one entry; PEXPIRE and DEL", () => {
  expect(wakeArguments("w")).toEqual(["XADD", "w", "MAXLEN", "1", "*", "w", "1"]);
  expect(pexpireArguments("w", 60_000)).toEqual(["PEXPIRE", "w", "60000"]);
  expect(delArguments("w")).toEqual(["DEL", "w"]);
});

test("EVALSHA: the same call by the script's digest; NOSCRIPT is told from the error or its cause", () => {
  const args = evalshaArguments("ab".repeat(20), threadKeys("p:", "t"), { now: "5", channel: "p:signals", threadId: "t", ttl: 1000 }, ["r1"]);
  expect(args).toEqual([
    "EVALSHA",
    "ab".repeat(20),
    "11",
    "p:{t}:events",
    "p:{t}:meta",
    "p:{t}:lease",
    "p:{t}:snapshot",
    "p:{t}:runs",
    "p:{t}:messages",
    "p:{t}:ids",
    "p:{t}:tombstone",
    "p:{t}:queue",
    "p:{t}:queue-entries",
    "p:{t}:queue-outcomes",
    "5",
    "p:signals",
    "t",
    "1000",
    "r1",
  ]);
  expect(isNoScript(new Error("NOSCRIPT No matching script. Please use EVAL."))).toBe(true);
  expect(
    isNoScript(
      new StoreError("unavailable", "expected Redis to answer the append script, but NOSCRIPT No matching script", {
        cause: { message: "NOSCRIPT No matching script" },
      }),
    ),
  ).toBe(true);
  expect(
    isNoScript(new StoreError("unavailable", "expected Redis to answer, but Socket closed unexpectedly", { cause: new Error("Socket closed unexpectedly") })),
  ).toBe(false);
  expect(isNoScript("NOSCRIPT")).toBe(false);
});
