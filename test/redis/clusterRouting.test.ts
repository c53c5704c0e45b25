/** The pure parts of the Redis Cluster support (docs/durability.md#redis-cluster): command routes, the retried cluster answers, the scripts' announcement. */
import { evalshaArguments } from "../../src/redis/commands/EVAL";
import { commandRoute } from "../../src/redis/commands/route";
import { xrangeArguments } from "../../src/redis/commands/XRANGE";
import { xreadArguments } from "../../src/redis/commands/XREAD";
import { threadKeys } from "../../src/redis/keys";
import { isClusterRetry } from "../../src/redis/RedisCalls";
import { appendScript } from "../../src/redis/scripts/appendBatch";
import { quietAppendScript } from "../../src/redis/scripts/quietAppend";
import { notifyingScript } from "../../src/redis/scripts/notifyingScript";
import { NOTIFY_MARK, PRELUDE } from "../../src/redis/scripts/prelude";

const keys = threadKeys("agui:", "t1");
const context = { now: "", channel: "agui:signals", threadId: "t1", ttl: 1000 };

test("a script routes by the thread's first key and counts as writing; XRANGE reads; XREAD by its first stream; PUBLISH by none", () => {
  expect(commandRoute(evalshaArguments("ab12", keys, context, ["r1"]))).toEqual({ key: "agui:{t1}:events", readOnly: false });
  expect(commandRoute(["EVAL", "return 1", "0"])).toEqual({ key: undefined, readOnly: false });
  expect(commandRoute(xrangeArguments(keys.events, "1-0", "+", 10))).toEqual({ key: keys.events, readOnly: true });
  expect(
    commandRoute(
      xreadArguments(
        [
          { key: "w", after: "0-0" },
          { key: keys.events, after: "1-0" },
        ],
        10,
        100,
      ),
    ),
  ).toEqual({ key: "w", readOnly: true });
  expect(commandRoute(["DEL", "agui:reader:k:wake"])).toEqual({ key: "agui:reader:k:wake", readOnly: false });
  expect(commandRoute(["PUBLISH", "agui:signals", "[]"])).toEqual({ key: undefined, readOnly: false });
});

test("TRYAGAIN and CLUSTERDOWN are sent again (nothing ran); MOVED, NOSCRIPT and other errors are not", () => {
  expect(isClusterRetry(new Error("TRYAGAIN Multiple keys request during rehashing of slot"))).toBe(true);
  expect(isClusterRetry(new Error("CLUSTERDOWN The cluster is down"))).toBe(true);
  expect(isClusterRetry(new Error("MOVED 3999 127.0.0.1:6381"))).toBe(false);
  expect(isClusterRetry(new Error("NOSCRIPT No matching script"))).toBe(false);
  expect(isClusterRetry("TRYAGAIN")).toBe(false);
});

test("the cluster variant of a logging script announces on the events key's channel; one server's carries only the comment", () => {
  expect(PRELUDE).toContain(NOTIFY_MARK);
  expect(appendScript.source).not.toContain("SPUBLISH");
  const variant = notifyingScript(appendScript);
  expect(variant.source).toContain("redis.call('SPUBLISH', EVENTS, ids[#ids])");
  expect(variant.source).not.toContain(NOTIFY_MARK);
  // both of the append's ways to log announce: its fast path (log_batch) and the prelude's log
  expect(variant.source.split("redis.call('SPUBLISH', EVENTS, ids[#ids])")).toHaveLength(3);
  expect(notifyingScript(appendScript)).toBe(variant); // one object: its digest computed once
  // the quiet append logs too, after its entries
  expect(notifyingScript(quietAppendScript).source.split("redis.call('SPUBLISH', EVENTS, ids[#ids])")).toHaveLength(2);
  const silent = { name: "plain", source: "return 1" };
  expect(notifyingScript(silent)).toBe(silent);
});
