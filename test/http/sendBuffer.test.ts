/**
 * Issue #14 C3: the send-buffer cap. A producer that does not follow `ready()` against a reader
 * that does not keep up is stopped once `maxBufferedBytes` would be passed: its signal aborts with a
 * `SlowConsumerError`, and the response ends with what was queued and one final RUN_ERROR
 * `SLOW_CONSUMER`. A producer that awaits `ready()` never reaches the cap.
 */
import { Observable } from "rxjs";
import { ev } from "../../src/protocol/build";
import type { Event } from "../../src/protocol/events";
import { createHandler, type RunFunction } from "../../src/server/http/createHandler";
import { SlowConsumerError } from "../../src/server/http/SlowConsumerError";
import { DEFAULT_MAX_BUFFERED_BYTES, toEventStream } from "../../src/server/http/toEventStream";
import type { Agent } from "../../src/server/Agent";
import { parseSseBody, readAll, validBody } from "./loopback";

const CAP = 64 * 1024;
const DELTA = "x".repeat(1000);
const post = () => new Request("http://127.0.0.1/", { method: "POST", headers: { "Content-Type": "application/json" }, body: validBody });

/** What an unpaced agent saw: the signal's reason and what its next write threw. */
interface Seen {
  reason?: unknown;
  thrown?: unknown;
  written: number;
}

/** Writes `total` 1 kB deltas in one synchronous burst, never awaiting `ctx.ready()`. */
function unpaced(total: number, seen: Seen): Agent {
  return {
    async run(ctx) {
      const message = ctx.assistantMessage();
      try {
        for (let i = 0; i < total; i++) {
          message.delta(DELTA);
          seen.written++;
        }
      } catch (error) {
        seen.thrown = error;
      }
      seen.reason = ctx.signal.reason;
    },
  };
}

describe("the send-buffer cap (maxBufferedBytes)", () => {
  test("an unpaced agent is stopped past the cap: its signal says why, and the body ends with the queue and RUN_ERROR SLOW_CONSUMER", async () => {
    const seen: Seen = { written: 0 };
    const response = await createHandler(unpaced(10_000, seen), { maxBufferedBytes: CAP, highWaterMark: 1_000_000 })(post());
    const text = await readAll(response.body!);

    expect(seen.reason).toBeInstanceOf(SlowConsumerError);
    expect(seen.thrown).toBe(seen.reason); // the write after the abort throws the abort reason
    expect(seen.written).toBeLessThan(CAP / DELTA.length);
    expect((seen.reason as SlowConsumerError).limit).toBe(CAP);

    const events = parseSseBody(text);
    const last = events[events.length - 1];
    expect(last).toMatchObject({ type: "RUN_ERROR", code: "SLOW_CONSUMER", message: expect.stringContaining(`send-buffer cap of ${CAP} bytes`) });
    expect(events.filter((event) => event.type === "RUN_ERROR" || event.type === "RUN_FINISHED")).toHaveLength(1);
    // nothing past the cap was queued: what was read is the capped queue plus that one RUN_ERROR
    expect(text.length - `data: ${JSON.stringify(last)}\n\n`.length).toBeLessThanOrEqual(CAP);
    // every delta written was sent except the one that did not fit (the run stops there)
    expect(events.filter((event) => event.type === "TEXT_MESSAGE_CONTENT")).toHaveLength(seen.written - 1);
  });

  test("a paced agent (ctx.ready() between deltas) against the same cap finishes with everything delivered", async () => {
    const total = 1000; // 1 MB in all, sixteen times the cap
    const agent: Agent = {
      async run(ctx) {
        const message = ctx.assistantMessage();
        for (let i = 0; i < total; i++) {
          await ctx.ready();
          message.delta(DELTA);
        }
        message.end();
      },
    };
    const response = await createHandler(agent, { maxBufferedBytes: CAP, highWaterMark: 1_000_000 })(post());
    const events = parseSseBody(await readAll(response.body!));
    expect(events[events.length - 1].type).toBe("RUN_FINISHED");
    expect(events.filter((event) => event.type === "TEXT_MESSAGE_CONTENT")).toHaveLength(total);
  });

  test("a run function gets the same: its signal aborts with a SlowConsumerError and it is unsubscribed", async () => {
    let reason: unknown;
    let unsubscribed = false;
    const flood: RunFunction = (input, { signal }) =>
      new Observable<Event>((subscriber) => {
        // eslint-disable-next-line @typescript-eslint/no-unsafe-return -- the abort reason is kept as it came, to be asserted
        signal.addEventListener("abort", () => (reason = signal.reason));
        subscriber.next(ev.runStarted(input.threadId, input.runId));
        subscriber.next(ev.textMessageStart("m1"));
        for (let i = 0; i < 10_000 && !subscriber.closed; i++) subscriber.next(ev.textMessageContent("m1", DELTA));
        return () => (unsubscribed = true);
      });
    const response = await createHandler(flood, { maxBufferedBytes: CAP })(post());
    const events = parseSseBody(await readAll(response.body!));
    expect(reason).toBeInstanceOf(SlowConsumerError);
    expect(unsubscribed).toBe(true);
    expect(events[events.length - 1]).toMatchObject({ type: "RUN_ERROR", code: "SLOW_CONSUMER" });
  });

  test("a client that goes away aborts the factory's signal with an AbortError", async () => {
    let reason: unknown;
    const body = toEventStream(
      (_ready, signal) =>
        new Observable<Event>((subscriber) => {
          // eslint-disable-next-line @typescript-eslint/no-unsafe-return -- the abort reason is kept as it came, to be asserted
          signal.addEventListener("abort", () => (reason = signal.reason));
          subscriber.next(ev.runStarted("t", "r"));
        }),
    );
    const reader = body.getReader();
    await reader.read();
    await reader.cancel();
    expect(reason).toMatchObject({ name: "AbortError" });
  });

  test("the default cap is 16 MiB", () => {
    expect(DEFAULT_MAX_BUFFERED_BYTES).toBe(16 * 1024 * 1024);
  });
});
