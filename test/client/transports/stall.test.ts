/**
 * Stall detection (docs/http.md#heartbeats) on virtual time: `HttpTransport` takes a silence of
 * three announced heartbeat intervals (or `stallMs`) as a cut: it resumes where the server
 * resumes, else fails `transport` with code `stalled`; without an announcement or an option it
 * never cuts for silence. Any byte (a heartbeat comment) resets the count. The thread events
 * stream connects again after a stall. Each answer is a body the test writes, so time moves only
 * when the test says.
 */
import { VirtualTimeScheduler, type Subscription } from "rxjs";
import { ev, runAgentInput } from "../../../src/protocol/build";
import { HEARTBEAT_HEADER } from "../../../src/protocol/heartbeat";
import { RESUMABLE_HEADER } from "../../../src/protocol/connectMode";
import { ClientError } from "../../../src/thread/ClientError";
import { HttpTransport, type HttpTransportOptions } from "../../../src/client/transports/HttpTransport";
import { stallLimit, STALLED_CODE } from "../../../src/client/transports/stallAfter";
import { isConnectionNotice } from "../../../src/client/transports/ConnectionNotice";
import { HttpThreadsTransport } from "../../../src/client/threads/HttpThreadsTransport";
import { until } from "../../http/durable/support";

/** A few turns of the event loop: whatever was due without a timer has happened. */
async function turns(count = 5): Promise<void> {
  for (let i = 0; i < count; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

const input = runAgentInput("t1", "r1", { messages: [{ id: "u1", role: "user", content: "go" }] });
const frame = (event: object, id?: string) => `${id === undefined ? "" : `id: ${id}\n`}data: ${JSON.stringify(event)}\n\n`;
const STARTED = frame(ev.runStarted("t1", "r1"), "c1");
const FINISHED = frame(ev.runFinished("t1", "r1"), "c3");

/** One request the fake server got: where, its Last-Event-ID, and the body it is answered with (written by the test). */
interface Answered {
  readonly url: string;
  readonly lastEventId: string | null;
  readonly signal: AbortSignal;
  write(text: string): void;
  end(): void;
}

/** A fetch whose every answer is an SSE body the test writes, with `headers`. */
function scriptedFetch(headers: Record<string, string>) {
  const answered: Answered[] = [];
  const fetch = async (url: string, init?: RequestInit): Promise<Response> => {
    let body!: ReadableStreamDefaultController<Uint8Array>;
    const stream = new ReadableStream<Uint8Array>({ start: (controller) => void (body = controller) });
    const signal: AbortSignal = init?.signal ?? new AbortController().signal;
    signal.addEventListener("abort", () => body.error(new DOMException("aborted", "AbortError")), { once: true });
    answered.push({
      url,
      lastEventId: new Headers(init?.headers).get("last-event-id"),
      signal,
      write: (text) => body.enqueue(new TextEncoder().encode(text)),
      end: () => body.close(),
    });
    return new Response(stream, { status: 200, headers: { "Content-Type": "text/event-stream", ...headers } });
  };
  return { fetch: fetch as typeof globalThis.fetch, answered };
}

/** Moves the virtual clock to `frame`, running what is due by then (and only that). */
function advanceTo(scheduler: VirtualTimeScheduler, frame: number): void {
  scheduler.schedule(() => undefined, frame - scheduler.frame); // a mark, so the clock reaches `frame` even if nothing else is due
  scheduler.maxFrames = frame;
  scheduler.flush();
}

/** Runs `input` over the transport, collecting what it emits and how it ends. */
function follow(options: HttpTransportOptions & { readonly fetch: typeof fetch }) {
  const scheduler = new VirtualTimeScheduler();
  const transport = new HttpTransport("http://h/agent", { reconnect: { delay: 0 }, ...options, scheduler });
  const seen: string[] = [];
  let failure: unknown;
  let completed = false;
  const subscription: Subscription = transport.run(input, { connection: true }).subscribe({
    next: (item) => seen.push(isConnectionNotice(item) ? `connection ${item.status}` : "type" in item ? item.type : "warning"),
    error: (error: unknown) => (failure = error),
    complete: () => (completed = true),
  });
  return { scheduler, seen, failure: () => failure, completed: () => completed, subscription };
}

test("announced 1 s, a server that keeps no threads: a silence of 3 s fails the run `stalled`, not sooner; a heartbeat restarts the count", async () => {
  const { fetch, answered } = scriptedFetch({ [HEARTBEAT_HEADER]: "1" });
  const run = follow({ fetch });
  await until(() => answered.length === 1 && run.scheduler.actions.length > 0, "the answer and its stall timer");
  answered[0].write(frame(ev.runStarted("t1", "r1")));
  await until(() => run.seen.includes("RUN_STARTED"), "the first event");
  advanceTo(run.scheduler, 2999);
  answered[0].write(": heartbeat\n\n");
  await until(() => run.scheduler.actions.some((action) => action.delay === 2999 + 3000), "the count to restart at the heartbeat");
  advanceTo(run.scheduler, 5998);
  await turns();
  expect(run.failure()).toBeUndefined();
  advanceTo(run.scheduler, 5999);
  await until(() => run.failure() !== undefined, "the run to fail");
  const error = run.failure();
  expect(ClientError.isInstance(error) && [error.kind, error.code]).toEqual(["transport", STALLED_CODE]);
  expect((error as Error).message).toBe("the response of POST http://h/agent was silent for 3000 ms (no event, no heartbeat): taken as a cut connection");
  expect(answered[0].signal.aborted).toBe(true); // the connection is let go
  expect(answered).toHaveLength(1); // nothing to resume at a server without threads
});

test("no announcement and no option: a silent stream is waited on, with no timer at all", async () => {
  const { fetch, answered } = scriptedFetch({});
  const run = follow({ fetch });
  await until(() => answered.length === 1, "the request");
  answered[0].write(STARTED);
  await until(() => run.seen.includes("RUN_STARTED"), "the first event");
  expect(run.scheduler.actions).toHaveLength(0);
  answered[0].write(FINISHED);
  answered[0].end();
  await until(() => run.completed(), "the run to end");
  expect(run.failure()).toBeUndefined();
});

test("stallMs sets the silence without an announcement, and `false` turns it off whatever the server announces", async () => {
  const quiet = scriptedFetch({});
  const run = follow({ fetch: quiet.fetch, stallMs: 500 });
  await until(() => run.scheduler.actions.length > 0, "the stall timer");
  advanceTo(run.scheduler, 499);
  await turns();
  expect(run.failure()).toBeUndefined();
  advanceTo(run.scheduler, 500);
  await until(() => run.failure() !== undefined, "the run to fail");
  expect((run.failure() as ClientError).code).toBe(STALLED_CODE);

  const announced = scriptedFetch({ [HEARTBEAT_HEADER]: "1" });
  const off = follow({ fetch: announced.fetch, stallMs: false });
  await until(() => announced.answered.length === 1, "the request");
  announced.answered[0].write(STARTED);
  await until(() => off.seen.includes("RUN_STARTED"), "the first event");
  expect(off.scheduler.actions).toHaveLength(0);
  off.subscription.unsubscribe();
});

test("a server that resumes: the stall is a cut like any other, resumed through /connect after the last id, and the run ends once", async () => {
  const { fetch, answered } = scriptedFetch({ [HEARTBEAT_HEADER]: "15", [RESUMABLE_HEADER]: "true" });
  const run = follow({ fetch });
  await until(() => answered.length === 1, "the run's request");
  answered[0].write(STARTED);
  answered[0].write(frame(ev.textMessageStart("m1"), "c2"));
  await until(() => run.seen.length === 2 && run.scheduler.actions.length > 0, "two events and the stall timer");
  advanceTo(run.scheduler, 45_000); // three beats of 15 s
  await until(() => run.scheduler.actions.length > 0, "the reconnect's wait");
  advanceTo(run.scheduler, run.scheduler.frame);
  await until(() => answered.length === 2, "the reconnect");
  expect([answered[1].url, answered[1].lastEventId]).toEqual(["http://h/agent/connect", "c2"]);
  expect(answered[0].signal.aborted).toBe(true);
  answered[1].write(frame(ev.textMessageEnd("m1"), "c2b"));
  answered[1].write(FINISHED);
  answered[1].end();
  await until(() => run.completed() || run.failure() !== undefined, "the run to end");
  expect(run.failure()).toBeUndefined();
  expect(run.seen).toEqual(["RUN_STARTED", "TEXT_MESSAGE_START", "connection reconnecting", "connection connected", "TEXT_MESSAGE_END", "RUN_FINISHED"]);
});

test("the thread list's events stream connects again after a stall, announcing the new connection", async () => {
  const { fetch, answered } = scriptedFetch({ [HEARTBEAT_HEADER]: "2" });
  const scheduler = new VirtualTimeScheduler();
  const transport = new HttpThreadsTransport("http://h/agent", { fetch, scheduler });
  const opened: number[] = [];
  const subscription = transport.threadEvents().subscribe((item) => (item.type === "opened" ? opened.push(item.attempt) : undefined));
  await until(() => opened.length === 1 && scheduler.actions.length > 0, "the first connection and its stall timer");
  advanceTo(scheduler, 6000);
  await until(() => scheduler.actions.length > 0, "the reconnect's wait");
  advanceTo(scheduler, scheduler.actions[0].delay);
  await until(() => opened.length === 2, "the second connection");
  expect(answered[0].signal.aborted).toBe(true);
  expect(opened).toEqual([0, 1]);
  subscription.unsubscribe();
});

test("stallLimit: the option wins, else three announced intervals; a header that is no positive number is no announcement", () => {
  expect(stallLimit(undefined, "15")).toBe(45_000);
  expect(stallLimit(undefined, "0.5")).toBe(1500);
  expect(stallLimit(2000, "15")).toBe(2000);
  expect(stallLimit(false, "15")).toBeUndefined();
  for (const bad of [null, "", "0", "-1", "soon", "1e3", "Infinity"]) expect(stallLimit(undefined, bad)).toBeUndefined();
  expect(stallLimit(0, null)).toBeUndefined();
});

test("a run that ends while stall detection is on leaves no timer behind", async () => {
  const { fetch, answered } = scriptedFetch({ [HEARTBEAT_HEADER]: "1" });
  const run = follow({ fetch });
  await until(() => answered.length === 1, "the request");
  answered[0].write(STARTED + FINISHED);
  answered[0].end();
  await until(() => run.completed(), "the run to end");
  expect(run.scheduler.actions).toHaveLength(0);
});
