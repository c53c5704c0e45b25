/**
 * A run past the memory store's `maxRunBytes`, over loopback HTTP (docs/durability.md §6): it ends
 * RUN_TOO_LARGE for its client (a Session ends `failed`), the agent is aborted with a reason naming
 * the limit (an Agent's `ctx.signal`, a run function's `signal`) and stops generating, and every
 * other thread of the store still answers `/connect`: issue #20's scenario over real HTTP.
 */
import { lastValueFrom, Observable, toArray } from "rxjs";
import { ev } from "../../../src/protocol/build";
import type { Event } from "../../../src/protocol/events";
import { Session } from "../../../src/client/Session";
import { HttpTransport } from "../../../src/client/transports/HttpTransport";
import { success, type Agent } from "../../../src/server/Agent";
import type { RunFunction } from "../../../src/server/http/createHandler";
import { memoryStore, RUN_TOO_LARGE_ERROR_CODE } from "../../../src/server/store/memory/memoryStore";
import { StoreError } from "../../../src/server/store/StoreError";
import { counter } from "../../client/support";
import { closeAll, framesOf, inputFor, postJson, serveStored, until } from "./support";

afterEach(closeAll);

const MiB = 1024 * 1024;
const CHUNK = 16 * 1024;
const LIMIT = `maxRunBytes (${MiB / 4} bytes)`;
/** The next turn of the event loop: where a model's next chunk arrives. */
const nextTurn = (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve));
const chunk = (i: number): string => String.fromCharCode(97 + (i % 26)).repeat(CHUNK);

/** What a producer saw of its abort: whether it stopped on its own, how much it wrote, and the reason. */
interface Producer {
  written: number;
  stopped: boolean;
  reason: unknown;
}

function reasonMessage(reason: unknown): string {
  return reason instanceof Error ? `${reason.name}: ${reason.message}` : String(reason);
}

test("an Agent writing a 2 MB answer into maxBytes 1 MiB: its client's Session ends failed RUN_TOO_LARGE, ctx.signal aborts naming the limit, it stops, and the 20 other threads still answer /connect", async () => {
  const big: Producer = { written: 0, stopped: false, reason: undefined };
  const agent: Agent = {
    async run(ctx) {
      if (ctx.input.threadId !== "big") {
        ctx.say("Hello.");
        return success();
      }
      const message = ctx.assistantMessage();
      for (let i = 0; big.written < 2 * MiB; i++) {
        if (ctx.signal.aborted) break; // as a model call given ctx.signal stops
        message.delta(chunk(i));
        big.written += CHUNK;
        await nextTurn();
      }
      big.reason = ctx.signal.reason;
      big.stopped = true;
      message.end();
      return success();
    },
  };
  const failures: unknown[] = [];
  const store = memoryStore({ maxBytes: MiB });
  const { url } = await serveStored(agent, { store, onRunError: (error) => failures.push(error) });
  for (let i = 0; i < 20; i++) {
    const { response } = await postJson(url, inputFor(`small-${i}`, "r1"));
    expect(response.status).toBe(200);
  }

  const session = new Session(new HttpTransport(url), { threadId: "big", newId: counter("u") });
  const updates = await lastValueFrom(session.send("write me a book").pipe(toArray()));
  const done = updates.filter((update) => update.kind === "done");
  expect(done).toEqual([{ kind: "done", end: { kind: "failed", code: RUN_TOO_LARGE_ERROR_CODE, message: expect.stringContaining(LIMIT) } }]);

  await until(() => big.stopped, "the agent to stop");
  expect(big.written).toBeLessThan(MiB / 2); // it stopped at the bound, not at 2 MB
  expect(big.reason).toBeInstanceOf(DOMException);
  expect(reasonMessage(big.reason)).toMatch(
    /^AbortError: run "[^"]+" was stopped: the store refused it: expected run .* to stay within maxRunBytes \(262144 bytes\)/,
  );
  expect(failures).toHaveLength(1);
  expect(StoreError.isInstance(failures[0]) && failures[0].code).toBe("run-too-large");

  for (let i = 0; i < 20; i++) {
    const { response, text } = await postJson(`${url}/connect`, { threadId: `small-${i}` });
    expect(response.status).toBe(200);
    expect((await framesOf(text)).some((frame) => frame.event.type === "MESSAGES_SNAPSHOT")).toBe(true);
  }
  const stats = store.stats();
  expect(stats).toMatchObject({ threads: 21, liveRuns: 0, evictedThreads: 0, tooLargeRuns: 1 });
  expect(stats.bytes).toBeLessThanOrEqual(MiB + MiB / 4);
});

test("a run function that hears only its signal (as one feeding a model's stream does) is aborted naming the limit and stops; its response ends RUN_TOO_LARGE", async () => {
  const producer: Producer = { written: 0, stopped: false, reason: undefined };
  const stream: RunFunction = (input, { signal }) =>
    new Observable<Event>((subscriber) => {
      subscriber.next(ev.runStarted(input.threadId, input.runId));
      subscriber.next(ev.textMessageStart("m1"));
      void (async () => {
        for (let i = 0; producer.written < 2 * MiB; i++) {
          if (signal.aborted) break;
          subscriber.next(ev.textMessageContent("m1", chunk(i)));
          producer.written += CHUNK;
          await nextTurn();
        }
        producer.reason = signal.reason;
        producer.stopped = true;
      })();
      // no teardown: like a producer that hands `signal` to fetch, it stops only when that aborts
    });
  const { url } = await serveStored(stream, { store: memoryStore({ maxBytes: MiB }) });
  const { response, text } = await postJson(url, inputFor("t", "r1"));
  expect(response.status).toBe(200);
  const frames = await framesOf(text);
  expect(frames[frames.length - 1].event).toMatchObject({ type: "RUN_ERROR", code: RUN_TOO_LARGE_ERROR_CODE, message: expect.stringContaining(LIMIT) });
  await until(() => producer.stopped, "the producer to stop");
  expect(producer.written).toBeLessThan(MiB / 2);
  expect(reasonMessage(producer.reason)).toContain(LIMIT);
});

test("a run whose input's new messages alone pass maxRunBytes is refused 413 before anything is logged", async () => {
  const agent: Agent = {
    async run(ctx) {
      ctx.say("never");
      return success();
    },
  };
  const store = memoryStore({ maxBytes: 4_000 });
  const { url } = await serveStored(agent, { store });
  const { response, text } = await postJson(url, inputFor("t", "r1", "x".repeat(2_000)));
  expect(response.status).toBe(413);
  expect(JSON.parse(text)).toMatchObject({ error: "body-too-large", message: expect.stringContaining("maxRunBytes (1000 bytes)") });
  expect(store.stats()).toMatchObject({ threads: 0, bytes: 0 });
});
