/** The Session posts only what is new to a server that owns the history, everything otherwise (docs/client.md#session, docs/threads.md#the-anchor-rule). */
import { lastValueFrom, of, toArray } from "rxjs";
import { ev } from "../../src/protocol/build";
import type { RunAgentInput } from "../../src/protocol/input";
import { Session } from "../../src/client/Session";
import { KnownHistory } from "../../src/client/KnownHistory";
import type { Transport } from "../../src/client/transports/Transport";
import { counter } from "./support";

/** A transport whose every run answers with one assistant message, recording the inputs; `owns` is its answer to serverOwnsHistory. */
function answering(owns: (() => Promise<boolean>) | undefined): { transport: Transport; inputs: RunAgentInput[]; asked: () => number } {
  const inputs: RunAgentInput[] = [];
  let asked = 0;
  const transport: Transport = {
    run: (input) => {
      inputs.push(input);
      const id = `a-${inputs.length}`;
      return of(
        ev.runStarted(input.threadId, input.runId),
        ev.textMessageStart(id),
        ev.textMessageContent(id, "ok"),
        ev.textMessageEnd(id),
        ev.runFinished(input.threadId, input.runId),
      );
    },
    ...(owns === undefined
      ? {}
      : {
          serverOwnsHistory: () => {
            asked += 1;
            return owns();
          },
        }),
  };
  return { transport, inputs, asked: () => asked };
}

async function sendAll(session: Session, texts: string[]): Promise<void> {
  for (const text of texts) await lastValueFrom(session.send(text).pipe(toArray()));
}

test("a server that owns the history is posted the anchor and the new message; asked only once a post could be cut", async () => {
  const { transport, inputs, asked } = answering(async () => true);
  const session = new Session(transport, { threadId: "t", newId: counter("u") });
  await lastValueFrom(session.send("one").pipe(toArray()));
  expect(asked()).toBe(0); // nothing to leave out: nothing asked
  await sendAll(session, ["two", "three"]);
  const [u1, a1, u2, a2, u3] = session.messages.map((message) => message.id);
  expect(inputs.map((input) => input.messages.map((message) => message.id))).toEqual([[u1], [a1, u2], [a2, u3]]);
});

test("when the answer cannot be read, or is no, everything is posted", async () => {
  for (const owns of [async () => Promise.reject(new Error("no route")), async () => false, undefined]) {
    const { transport, inputs } = answering(owns);
    const session = new Session(transport, { threadId: "t", newId: counter("u") });
    await sendAll(session, ["one", "two"]);
    expect(inputs[1].messages.map((message) => message.id)).toEqual(session.messages.slice(0, 3).map((message) => message.id));
    expect(inputs[1].messages).toHaveLength(3);
  }
});

test("messages not known to be stored before the anchor (a hydrated history) make the whole history posted", () => {
  const known = new KnownHistory();
  const hydrated = { id: "h", role: "user" as const, content: "from elsewhere" };
  const stored = { id: "s", role: "assistant" as const, content: "stored" };
  const fresh = { id: "n", role: "user" as const, content: "new" };
  known.heard([stored]);
  expect(known.newPart([hydrated, stored, fresh])).toEqual([hydrated, stored, fresh]);
  known.heard([hydrated]);
  expect(known.newPart([hydrated, stored, fresh])).toEqual([stored, fresh]);
  expect(known.saves([hydrated, stored, fresh])).toBe(true);
  known.learn({ kind: "messages", messages: [hydrated, stored, fresh] });
  expect(known.newPart([hydrated, stored, fresh])).toEqual([fresh]);
});
