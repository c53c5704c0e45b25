/**
 * A writer handed another command's reply (issue #20 A4; docs/durability.md §8, "Failure
 * behaviour"): node-redis, reconnecting while Redis restarted, was seen handing queued script calls
 * the replies to its own handshake (`OK`, `ERR unknown subcommand 'SETINFO'`) while the scripts
 * had run. Such a reply says nothing of what became of the call, so the writer sends it again (each
 * call is idempotent): the run goes on, every event is logged once, and its local tail is fed.
 * Before, the append failed, and with an `OK` the writer kept feeding nobody: the run's tails heard
 * nothing until its lease ran out (about 30 s) and it ended ABANDONED.
 */
import { lastValueFrom, toArray } from "rxjs";
import { ev, runAgentInput } from "../../../src/protocol/build";
import type { Event } from "../../../src/protocol/events";
import { redisStore, type RedisStore } from "../../../src/redis/redisStore";
import { closeClient, connectClient, uniquePrefix, type TestClient } from "../support/clients";
import { misdirectingPort, type MisdirectingPort } from "../support/ports";
import { logProblems, threadLog } from "../support/threadLog";

const prefix = uniquePrefix("out-of-step");
let client: TestClient;
let port: MisdirectingPort;
let store: RedisStore;

beforeAll(async () => {
  client = await connectClient("out-of-step");
  port = misdirectingPort(client);
  store = redisStore({ port, prefix });
});

afterAll(async () => {
  await store.close();
  await closeClient(client);
});

const text = (id: string, content: string): Event[] => [ev.textMessageStart(id), ev.textMessageContent(id, content), ev.textMessageEnd(id)];

/** The handshake replies node-redis handed to script calls: `CLIENT SETNAME`'s, and `CLIENT SETINFO`'s from a Redis before 7.2. */
const HANDSHAKE_REPLIES: readonly [string, unknown][] = [
  ["OK", "OK"],
  ["ERR unknown subcommand 'SETINFO'", new Error("ERR unknown subcommand 'SETINFO'. Try CLIENT HELP.")],
];

test.each(HANDSHAKE_REPLIES)(
  "an append and a renewal handed another command's reply (%s) are sent again: the run goes on, each event logged once, its tail fed",
  async (name, reply) => {
    const threadId = `handed-${name}`;
    const runId = "run-handed-a-reply";
    const writer = await store.beginRun(runAgentInput(threadId, runId));
    const tail = lastValueFrom(store.tail(threadId, writer.started.cursor).pipe(toArray()));

    port.misdirect("reply-handed-elsewhere", reply);
    const before = port.misdirected;
    const cursors = await writer.append(text("m1", "reply-handed-elsewhere"));
    expect(port.misdirected).toBe(before + 1);
    expect(cursors).toHaveLength(3);

    port.misdirect(runId, reply); // the next command naming the run: the renewal
    expect(await writer.renewLease()).toBe(true);
    expect(port.misdirected).toBe(before + 2);

    await writer.append([ev.runFinished(threadId, runId)]);
    const events = await tail;
    expect(events.map(({ event }) => event.type)).toEqual(["TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END", "RUN_FINISHED"]);
    expect(events.slice(0, 3).map(({ cursor }) => cursor)).toEqual(cursors);
    const log = await threadLog(client, prefix, threadId);
    expect(logProblems(log)).toEqual([]);
    expect(log.map((entry) => entry.event.type)).toEqual(["RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END", "RUN_FINISHED"]);
  },
);
