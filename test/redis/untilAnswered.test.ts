/** untilAnswered: which failures leave a call's outcome unknown (sent again) and which are answers (issue #20 A4); the limits of sending again. */
import { StoreError } from "../../src/server/store/StoreError";
import { isUnanswered, RETRY_BACKOFF, untilAnswered } from "../../src/redis/untilAnswered";

/** A StoreError as RedisCalls makes it, with the client's error as its cause. */
const unavailable = (cause: Error): StoreError =>
  new StoreError("unavailable", `expected Redis to answer the append script for thread "t1", but ${cause.message}`, { threadId: "t1", cause });

test("a lost connection, a deadline, a refused connection or a Redis still loading leave the outcome unknown; an error reply is an answer", () => {
  expect(isUnanswered(unavailable(new Error("Socket closed unexpectedly")))).toBe(true);
  expect(isUnanswered(unavailable(new Error("The client is offline")))).toBe(true);
  expect(isUnanswered(unavailable(new Error("connect ECONNREFUSED 127.0.0.1:6379")))).toBe(true);
  expect(isUnanswered(new StoreError("unavailable", 'expected Redis to answer the append script for thread "t1", but it did not answer within 10000 ms'))).toBe(
    true,
  );
  expect(isUnanswered(unavailable(new Error("LOADING Redis is loading the dataset in memory")))).toBe(true);
  expect(isUnanswered(unavailable(new Error("BUSY Redis is busy running a script.")))).toBe(true);
  expect(isUnanswered(unavailable(new Error("ERR user_script:12: Script attempted to access nonexistent global variable 'x'")))).toBe(false);
  expect(isUnanswered(unavailable(new Error("OOM command not allowed when used memory > 'maxmemory'.")))).toBe(false);
  expect(isUnanswered(unavailable(new Error("WRONGTYPE Operation against a key holding the wrong kind of value")))).toBe(false);
});

test("a reply meant for another command (a client whose replies got out of step) leaves the outcome unknown; the script's own refusals do not", () => {
  // node-redis handed queued script calls its handshake's replies after reconnecting to a restarted Redis 7.0
  expect(isUnanswered(unavailable(new Error("ERR unknown subcommand 'SETINFO'. Try CLIENT HELP.")))).toBe(true);
  expect(isUnanswered(unavailable(new Error("ERR unknown command 'FOO', with args beginning with: ")))).toBe(true);
  // a reply of another shape: the parse failure carries no error reply
  expect(isUnanswered(new StoreError("unavailable", 'expected an array as the reply of the append script, but Redis answered "OK"'))).toBe(true);
  expect(isUnanswered(unavailable(new Error("ERR Error running script (call to f_1234): @user_script:1: user_script:1: unknown command")))).toBe(false);
  expect(isUnanswered(unavailable(new Error("ERR wrong number of arguments for 'evalsha' command")))).toBe(false);
});

test("a call whose outcome is unknown is made again until it resolves; an answer fails at once", async () => {
  let calls = 0;
  const limits = { remainingMs: () => 10_000, wanted: () => true };
  const value = await untilAnswered(async () => {
    if (++calls < 3) throw unavailable(new Error("Socket closed unexpectedly"));
    return "logged";
  }, limits);
  expect({ value, calls }).toEqual({ value: "logged", calls: 3 });

  calls = 0;
  const refused = unavailable(new Error("ERR user_script:1: bad"));
  await expect(
    untilAnswered(async () => {
      calls++;
      throw refused;
    }, limits),
  ).rejects.toBe(refused);
  expect(calls).toBe(1);
});

test("it gives up when the time allowed is up, saying how often and how long it tried, the last failure kept as the cause", async () => {
  let calls = 0;
  const last = unavailable(new Error("Socket closed unexpectedly"));
  const started = Date.now();
  const failure = await untilAnswered(
    async () => {
      calls++;
      throw last;
    },
    { remainingMs: () => 1500, wanted: () => true },
  ).catch((error: unknown) => error);
  const took = Date.now() - started;
  if (!StoreError.isInstance(failure)) throw failure;
  // Waits of 25, 50, 100, 200, 400, 500 ms fit in 1,500 ms, the next (500 ms) would not: 7 calls,
  // fewer on a busy machine whose timers run late; never a wait past the limit.
  expect(RETRY_BACKOFF).toEqual({ firstMs: 25, maxMs: 500 });
  expect(calls).toBeGreaterThanOrEqual(2);
  expect(calls).toBeLessThanOrEqual(7);
  expect(took).toBeLessThan(1500 + 1500); // the last attempt itself, late on a busy machine (jest's workers share two cores)
  expect(failure.message).toBe(
    `expected Redis to answer the append script for thread "t1", but Socket closed unexpectedly (sent again ${calls - 1} times over ${/over (\d+) ms/.exec(failure.message)?.[1]} ms, until the run's lease was up)`,
  );
  expect({ code: failure.code, threadId: failure.threadId, cause: failure.cause }).toEqual({ code: "unavailable", threadId: "t1", cause: last });
});

test("a call no longer wanted (the writer was released) is not made again", async () => {
  let calls = 0;
  let wanted = true;
  const lost = unavailable(new Error("Socket closed unexpectedly"));
  const failure = await untilAnswered(
    async () => {
      calls++;
      wanted = false; // released while this attempt was on its way
      throw lost;
    },
    { remainingMs: () => 10_000, wanted: () => wanted },
  ).catch((error: unknown) => error);
  expect({ failure, calls }).toEqual({ failure: lost, calls: 1 });
});
