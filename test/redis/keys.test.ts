/** The Redis key layout (pure): one hash tag per thread, the whole id, escaped so no two ids share keys. */
import fc from "fast-check";
import { DEFAULT_PREFIX, ownerKeys, scriptKeys, signalChannel, threadKeys, wakeKey } from "../../src/redis/keys";

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
    messages: "agui:{thread-1}:messages",
    ids: "agui:{thread-1}:ids",
    tombstone: "agui:{thread-1}:tombstone",
    queue: "agui:{thread-1}:queue",
    queueEntries: "agui:{thread-1}:queue-entries",
    queueOutcomes: "agui:{thread-1}:queue-outcomes",
    sync: "agui:{thread-1}:sync", // not a script key: what a reading instance writes before its WAIT
  });
  expect(scriptKeys(threadKeys("p:", "t"))).toEqual([
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
  ]);
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

test("an owner's thread: owner and thread id together in one tag, the owner's index under the owner's own tag", () => {
  expect(threadKeys("agui:", "t1", "ann").meta).toBe("agui:{ann%:t1}:meta");
  expect(threadKeys("agui:", "", "").events).toBe("agui:{%:}:events");
  expect(ownerKeys("agui:", "a}b")).toEqual({ active: "agui:{%o:a%7Db}:threads", archived: "agui:{%o:a%7Db}:archived", deleted: "agui:{%o:a%7Db}:deleted" });
});

const tagUnits = fc.constantFrom("a", "{", "}", "%", ":", "o", "2", "5", "7", "B", "D");
const ownerOrNone = fc.option(fc.string({ unit: tagUnits }), { nil: undefined });

test("no two (owner, thread) pairs, with or without an owner, share a hash tag; an owner's thread shares none with any owner's index", () => {
  fc.assert(
    fc.property(ownerOrNone, fc.string({ unit: tagUnits }), ownerOrNone, fc.string({ unit: tagUnits }), fc.string({ unit: tagUnits }), (o1, t1, o2, t2, o3) => {
      fc.pre(o1 !== o2 || t1 !== t2);
      const a = clusterHashTag(threadKeys("p:", t1, o1).meta);
      expect(a).not.toBe(clusterHashTag(threadKeys("p:", t2, o2).meta));
      expect(a).not.toBe(clusterHashTag(ownerKeys("p:", o3).active));
      // every key of the thread hashes by that one tag (one slot)
      expect(new Set(scriptKeys(threadKeys("p:", t1, o1)).map(clusterHashTag))).toEqual(new Set([a]));
    }),
  );
});
