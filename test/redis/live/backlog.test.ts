/**
 * A producer paced while Redis is down (issue #20 A4; docs/durability.md §8, "Failure behaviour"):
 * a run function that emits as fast as `ready()` allows, served by `createHandler` with a
 * `redisStore` reached through a proxy that plays a Redis that is down. While the writer sends its
 * pending batch again, the producer waits once `RECORDING_BACKLOG.paceAt` events wait for the store
 * (memory stays bounded); when Redis is back the run goes on and every event is logged once.
 */
import { Observable } from "rxjs";
import { ev } from "../../../src/protocol/build";
import type { Event } from "../../../src/protocol/events";
import { serve, type Served } from "../../../src/node/serve";
import { redisStore, type RedisStore } from "../../../src/redis/redisStore";
import { createHandler } from "../../../src/server/http/createHandler";
import type { RunFunction } from "../../../src/server/http/HandlerOptions";
import { RECORDING_BACKLOG } from "../../../src/server/http/RecordingBacklog";
import { framesOf, inputFor, postJson } from "../../http/durable/support";
import { closeClient, connectClient, redisUrl, uniquePrefix, type TestClient } from "../support/clients";
import { startRedisProxy, type RedisProxy } from "../support/redisProxy";
import { logProblems, threadLog } from "../support/threadLog";
import { until } from "../support/until";

/** Text deltas the run sends: several times the bound, so an unpaced producer would pass it. */
const DELTAS = 4 * RECORDING_BACKLOG.paceAt;
/** Deltas the run has sent when Redis goes down. */
const BEFORE_DOWN = 500;

let proxy: RedisProxy;
let client: TestClient;
let admin: TestClient;
let store: RedisStore;
let served: Served;

afterEach(async () => {
  await served.close();
  await store.close();
  await closeClient(client);
  await closeClient(admin);
  await proxy.close();
});

test(`while Redis is down the producer waits once ${RECORDING_BACKLOG.paceAt} events wait for the store; when it is back, the run goes on, each event logged once`, async () => {
  proxy = await startRedisProxy(Number(new URL(redisUrl()).port));
  client = await connectClient("backlog", proxy.url);
  admin = await connectClient("backlog-admin");
  const prefix = uniquePrefix("backlog");
  store = redisStore({ client, prefix });
  let sent = 0;
  const fast: RunFunction = (input, { ready }) =>
    new Observable<Event>((subscriber) => {
      let stopped = false;
      void (async () => {
        subscriber.next(ev.runStarted(input.threadId, input.runId));
        subscriber.next(ev.textMessageStart("m1"));
        for (; sent < DELTAS && !stopped; sent++) {
          subscriber.next(ev.textMessageContent("m1", `${sent} `));
          await ready();
        }
        subscriber.next(ev.textMessageEnd("m1"));
        subscriber.next(ev.runFinished(input.threadId, input.runId));
        subscriber.complete();
      })();
      return () => {
        stopped = true;
      };
    });
  served = await serve(createHandler(fast, { store }));
  const threadId = `${prefix}paced`;
  const answer = postJson(served.url, inputFor(threadId, "r1"));
  await until(() => sent >= BEFORE_DOWN, "the run is under way");

  proxy.down();
  const downAt = sent;
  // Half a dozen reconnect attempts refused (50 ms, 100 ms, … 500 ms apart): over a second without Redis.
  await until(() => proxy.refused >= 6, "the client tried to reconnect for a while");
  const whileDown = sent;
  proxy.up();
  const { response, text } = await answer;

  // Without the pace, the producer would have sent all of its deltas while Redis was down.
  expect(whileDown - downAt).toBeLessThanOrEqual(RECORDING_BACKLOG.paceAt + 1);
  expect(whileDown).toBeLessThan(DELTAS);
  expect(response.status).toBe(200);
  const frames = await framesOf(text);
  // First in a form whose diff fits on a screen: how the run ended and how many deltas arrived.
  expect(outline(frames.map((frame) => frame.event))).toEqual({ first: "RUN_STARTED", contents: DELTAS, last: "RUN_FINISHED" });
  expect(frames.map((frame) => frame.event.type)).toEqual([
    "RUN_STARTED",
    "TEXT_MESSAGE_START",
    ...Array<string>(DELTAS).fill("TEXT_MESSAGE_CONTENT"),
    "TEXT_MESSAGE_END",
    "RUN_FINISHED",
  ]);
  const log = await threadLog(admin, prefix, threadId);
  expect(logProblems(log)).toEqual([]);
  expect(log.filter((entry) => entry.event.type === "TEXT_MESSAGE_CONTENT")).toHaveLength(DELTAS);
  expect(new Set(frames.map((frame) => frame.id)).size).toBe(frames.length); // each frame once, each with its own cursor
});

/** The shape of a run's answer, small enough to read in a failure: its first and last event (a RUN_ERROR with its code and message) and the count of deltas. */
function outline(events: readonly Event[]): { first?: string; contents: number; last?: string } {
  const last = events.at(-1);
  return {
    first: events[0]?.type,
    contents: events.filter((event) => event.type === "TEXT_MESSAGE_CONTENT").length,
    last: last?.type === "RUN_ERROR" ? `RUN_ERROR ${last.code ?? ""}: ${last.message}` : last?.type,
  };
}
