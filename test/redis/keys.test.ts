/** The Redis key layout (pure): one hash tag per thread, the whole id, escaped so no two ids share keys. */
import fc from "fast-check";
import { DEFAULT_PREFIX, scriptKeys, signalChannel, threadKeys, wakeKey } from "../../src/redis/keys";

/** The hash tag Redis Cluster hashes a key by (cluster spec: the text between the first `{` and the next `}`, if not empty). */
function clusterHashTag(key: string): string {
  const open = key.indexOf("{");
  if (open < 0) return key;
  const close = key.indexOf("}", open + 1);
  return close <= open + 1 ? key : key.slice(open + 1, close);
}

test("the layout: prefix, the thread's hash tag, the key's role", () => {
  expect(threadKeys(DEFAULT_PREFIX, "thread-1")).toEqual({
    events: "agui:{thread-1}:events",
    meta: "agui:{thread-1}:meta",
    lease: "agui:{thread-1}:lease",
    snapshot: "agui:{thread-1}:snapshot",
    runs: "agui:{thread-1}:runs",
  });
  expect(scriptKeys(threadKeys("p:", "t"))).toEqual(["p:{t}:events", "p:{t}:meta", "p:{t}:lease", "p:{t}:snapshot", "p:{t}:runs"]);
  expect(signalChannel("p:")).toBe("p:signals");
  expect(wakeKey("p:", "abc")).toBe("p:reader:abc:wake");
});

test.each([
  ["a}b", "agui:{a%7Db}:meta"],
  ["{x}", "agui:{%7Bx%7D}:meta"],
  ["100%", "agui:{100%25}:meta"],
  ["%7D", "agui:{%257D}:meta"],
  ["", "agui:{%}:meta"],
])("the id %j is escaped so that it cannot end, open or empty a hash tag", (threadId, meta) => {
  expect(threadKeys(DEFAULT_PREFIX, threadId).meta).toBe(meta);
});

test("every key of a thread hashes by the same tag (one Cluster slot), whatever the id", () => {
  fc.assert(
    fc.property(fc.string({ unit: fc.constantFrom("a", "{", "}", "%", "7", "D", ":", " ") }), fc.string(), (threadId, prefix) => {
      fc.pre(!prefix.includes("{"));
      const tags = scriptKeys(threadKeys(prefix, threadId)).map(clusterHashTag);
      expect(new Set(tags).size).toBe(1);
    }),
  );
});

test("two different thread ids never share a key", () => {
  fc.assert(
    fc.property(
      fc.string({ unit: fc.constantFrom("a", "{", "}", "%", "2", "5", "7", "B", "D") }),
      fc.string({ unit: fc.constantFrom("a", "{", "}", "%", "2", "5", "7", "B", "D") }),
      (a, b) => {
        fc.pre(a !== b);
        expect(threadKeys("p:", a).events).not.toBe(threadKeys("p:", b).events);
      },
    ),
  );
});
