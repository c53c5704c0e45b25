/**
 * A refused send leaves the Session as it was (issue #20 A5): a refusal before any event that
 * proves nothing was recorded takes the user message back out (a `messages` update, `done` failed
 * with it as `unsent`), and the next send does not carry it; anything else keeps it.
 */
import { concat, of, throwError, type Observable } from "rxjs";
import { ClientError } from "../../src/thread/ClientError";
import { Session } from "../../src/client/Session";
import type { Transport } from "../../src/client/transports/Transport";
import { ev } from "../../src/protocol/build";
import type { Event } from "../../src/protocol/events";
import type { RunAgentInput } from "../../src/protocol/input";
import { collect, counter, endOf, errorsOf, expectRunEndContract, kinds } from "./support";

const storeJson = JSON.stringify({ error: "unavailable", message: "the store is down" });

/** A transport whose first run fails with `error` (after `before` events), and whose later runs succeed; every input recorded. */
function failingOnce(error: ClientError, before: (input: RunAgentInput) => Event[] = () => []): { transport: Transport; inputs: RunAgentInput[] } {
  const inputs: RunAgentInput[] = [];
  const transport: Transport = {
    run(input): Observable<Event> {
      inputs.push(input);
      if (inputs.length === 1)
        return concat(
          of(...before(input)),
          throwError(() => error),
        );
      return of(ev.runStarted(input.threadId, input.runId), ev.runFinished(input.threadId, input.runId));
    },
  };
  return { transport, inputs };
}

/** A session that already holds one exchange (hydrated), so "as before" is not simply empty. */
function sessionOn(transport: Transport): Session {
  return new Session(transport, {
    threadId: "t1",
    newId: counter("m"),
    messages: [
      { id: "u0", role: "user", content: "earlier" },
      { id: "a0", role: "assistant", content: "answer" },
    ],
  });
}

describe("a send refused before any event", () => {
  test.each([403, 409, 422, 429])("%i: the message is taken back, `done` failed with the http error and the message as `unsent`", async (status) => {
    const refusal = new ClientError("http", `POST /agent answered ${status}`, { status, body: "{}" });
    const { transport, inputs } = failingOnce(refusal);
    const session = sessionOn(transport);
    const before = session.messages;
    const updates = await collect(session.send("add milk"));
    expectRunEndContract(updates);
    expect(kinds(updates)).toEqual(["message", "message", "message", "messages", "error", "done"]); // the user message: started, content, ended
    expect(errorsOf(updates)).toEqual([refusal]);
    expect(endOf(updates)).toEqual({ kind: "failed", message: refusal.message, unsent: { id: "m-1", role: "user", content: "add milk" } });
    expect(updates[3]).toEqual({ kind: "messages", messages: before });
    expect(session.messages).toEqual(before);
    // the next send carries the earlier conversation and its own message, not the refused one
    await collect(session.send("add eggs"));
    expect(inputs[1].messages.map((message) => message.content)).toEqual(["earlier", "answer", "add eggs"]);
  });

  test("a 503 with the store's JSON refusal proves it too", async () => {
    const { transport } = failingOnce(new ClientError("http", "POST /agent answered 503", { status: 503, body: storeJson }));
    const session = sessionOn(transport);
    const updates = await collect(session.send("add milk"));
    expect(endOf(updates)).toMatchObject({ kind: "failed", unsent: { content: "add milk" } });
    expect(session.messages.map((message) => message.id)).toEqual(["u0", "a0"]);
  });

  test("the views hear of it: messages$ shows the list with the message, then without it", async () => {
    const { transport } = failingOnce(new ClientError("http", "409", { status: 409 }));
    const session = sessionOn(transport);
    const seen: string[][] = [];
    const subscription = session.messages$.subscribe((messages) => seen.push(messages.map((message) => message.id)));
    await collect(session.send("add milk"));
    subscription.unsubscribe();
    expect(seen).toEqual([
      ["u0", "a0"],
      ["u0", "a0", "m-1"],
      ["u0", "a0"],
    ]);
  });
});

describe("a failed send that keeps its message", () => {
  test.each([
    ["a 500", new ClientError("http", "POST /agent answered 500", { status: 500, body: "{}" })],
    ["a 503 without the store's refusal", new ClientError("http", "POST /agent answered 503", { status: 503, body: "<html>" })],
    ["a 400 (the input itself is wrong)", new ClientError("http", "POST /agent answered 400", { status: 400, body: "{}" })],
  ])("%s: the message stays, the error and end as they were", async (_, error) => {
    const { transport } = failingOnce(error);
    const session = sessionOn(transport);
    const updates = await collect(session.send("add milk"));
    expect(kinds(updates)).toEqual(["message", "message", "message", "error", "done"]);
    expect(endOf(updates)).toEqual({ kind: "failed", message: error.message });
    expect(session.messages.map((message) => message.id)).toEqual(["u0", "a0", "m-1"]);
  });

  test("a network failure (retries used up): the message stays, and the error and end say the server may have recorded it", async () => {
    const cause = new ClientError("transport", "POST /agent was tried 6 times without an answer to go on with; the last: fetch failed", { code: "unanswered" });
    const { transport } = failingOnce(cause);
    const session = sessionOn(transport);
    const updates = await collect(session.send("add milk"));
    expectRunEndContract(updates);
    const [error] = errorsOf(updates);
    expect({ kind: error.kind, code: error.code, cause: error.cause }).toEqual({ kind: "transport", code: "unanswered", cause });
    expect(error.message).toBe(`${cause.message}; the server may have recorded message "m-1", so the session keeps it (connect() shows what the server has)`);
    expect(endOf(updates)).toEqual({ kind: "failed", message: error.message, code: "unanswered" });
    expect(session.messages.map((message) => message.id)).toEqual(["u0", "a0", "m-1"]);
  });

  test("a 409 after an event (the server had begun the run) keeps the message", async () => {
    const { transport } = failingOnce(new ClientError("http", "409", { status: 409 }), (input) => [ev.runStarted(input.threadId, input.runId)]);
    const session = sessionOn(transport);
    const updates = await collect(session.send("add milk"));
    expect(kinds(updates)).toEqual(["message", "message", "message", "error", "done"]);
    expect(endOf(updates)).not.toHaveProperty("unsent");
    expect(session.messages.map((message) => message.id)).toEqual(["u0", "a0", "m-1"]);
  });

  test("a resume (no message of its own) refused with 409 changes nothing", async () => {
    const { transport } = failingOnce(new ClientError("http", "409", { status: 409 }));
    const session = sessionOn(transport);
    const updates = await collect(session.resume([]));
    expect(kinds(updates)).toEqual(["error", "done"]);
    expect(session.messages.map((message) => message.id)).toEqual(["u0", "a0"]);
  });
});
