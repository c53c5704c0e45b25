/**
 * `Session.connect()` over real loopback HTTP against `createHandler` (docs/threads.md#joining-a-new-thread):
 * always exactly one `done`. A thread never had is a new, empty thread (the session keeps what it
 * was hydrated with); a server without a store and a transport without `connect` end failed, saying so.
 */
import { lastValueFrom, toArray } from "rxjs";
import * as t from "io-ts";
import { Session } from "../../src/client/Session";
import { HttpTransport } from "../../src/client/transports/HttpTransport";
import { stateSpec } from "../../src/protocol/stateSpec";
import { createHandler } from "../../src/server/http/createHandler";
import { serve } from "../../src/node/serve";
import type { Agent } from "../../src/server/Agent";
import { inProcessTransport } from "../../src/server/inProcessTransport";
import { closeAll, serveStored } from "../http/durable/support";
import { counter, errorsOf, kinds } from "./support";

afterEach(closeAll);

const greeter: Agent = { run: async (ctx) => void ctx.say(`hello, ${ctx.lastUserText() ?? "nobody"}`, { id: `a-${ctx.runId}` }) };
const Notes = t.type({ notes: t.array(t.string) });
const notes = stateSpec(Notes, { notes: [] });

test("a new thread: one done success, hydrated messages and state kept; the session then sends and a second session joins its history", async () => {
  const { url } = await serveStored(greeter);
  const session = new Session(new HttpTransport(url), {
    threadId: "fresh",
    state: notes,
    newId: counter("s1-"),
    messages: [{ id: "seed", role: "system", content: "be brief" }],
    rawState: { notes: ["kept"] },
  });
  const joined = await lastValueFrom(session.connect().pipe(toArray()));
  expect(joined).toEqual([{ kind: "done", end: { kind: "success" } }]);
  expect(session.messages.map((message) => message.id)).toEqual(["seed"]);
  expect(session.state).toEqual({ notes: ["kept"] });
  expect(session.running).toBe(false);

  const sent = await lastValueFrom(session.send("ana").pipe(toArray()));
  expect(sent[sent.length - 1]).toEqual({ kind: "done", end: { kind: "success" } });
  const other = new Session(new HttpTransport(url), { threadId: "fresh" });
  const again = await lastValueFrom(other.connect().pipe(toArray()));
  expect(again.filter((update) => update.kind === "done")).toEqual([{ kind: "done", end: { kind: "success" } }]);
  expect(other.messages.map((message) => message.content)).toEqual(["be brief", "ana", "hello, ana"]);
  expect(other.rawState).toEqual({ notes: ["kept"] }); // the hydrated state went with the first run
});

test("a server without a store: one error, then one done failed with code not-resumable; the session untouched", async () => {
  const served = await serve(createHandler(greeter));
  try {
    const session = new Session(new HttpTransport(`${served.url}agent`, { retry: false }), {
      threadId: "t",
      messages: [{ id: "u1", role: "user", content: "kept" }],
    });
    const updates = await lastValueFrom(session.connect().pipe(toArray()));
    expect(kinds(updates)).toEqual(["error", "done"]);
    expect(errorsOf(updates)[0]).toMatchObject({ kind: "http", status: 404, code: "not-resumable", message: expect.stringMatching(/keeps no threads/) });
    expect(updates[1]).toMatchObject({ kind: "done", end: { kind: "failed", code: "not-resumable" } });
    expect(session.messages.map((message) => message.content)).toEqual(["kept"]);
    expect(session.running).toBe(false);
  } finally {
    await served.close();
  }
});

test("a transport without connect (in process): one error, then one done failed with code no-connect", async () => {
  const session = new Session(inProcessTransport(greeter), { threadId: "t" });
  const updates = await lastValueFrom(session.connect().pipe(toArray()));
  expect(kinds(updates)).toEqual(["error", "done"]);
  expect(updates[1]).toMatchObject({ kind: "done", end: { kind: "failed", code: "no-connect", message: expect.stringMatching(/has no connect/) } });
});

test("transport.connect with a Last-Event-ID for a thread the store does not know: the http error with code gone", async () => {
  const { url } = await serveStored(greeter);
  const error: unknown = await lastValueFrom(new HttpTransport(url, { reconnect: false }).connect({ threadId: "never", lastEventId: "abc.1.2" })).catch(
    (failure: unknown) => failure,
  );
  expect(error).toMatchObject({ kind: "http", status: 410, code: "gone" });
});
