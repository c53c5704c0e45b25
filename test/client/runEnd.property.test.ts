/** Property: over random event streams, valid and invalid, the Update stream keeps the run-end contract. */
import fc from "fast-check";
import { Observable } from "rxjs";
import { ev, withSubagentRunId } from "../../src/protocol/build";
import type { Event } from "../../src/protocol/events";
import type { RunAgentInput } from "../../src/protocol/input";
import type { Message } from "../../src/protocol/messages";
import { encodeSse } from "../../src/wire/encodeSse";
import { Session } from "../../src/client/Session";
import { ReplayTransport } from "../../src/client/transports/ReplayTransport";
import type { Transport } from "../../src/client/transports/Transport";
import type { Update } from "../../src/thread/Update";
import { counter } from "./support";

const id = fc.constantFrom("a", "b", "c");
const tag = fc.option(fc.constantFrom("s1", "s2"), { nil: undefined });
const tagged = <E extends Parameters<typeof withSubagentRunId>[0]>(event: E, owner: string | undefined): E =>
  owner === undefined ? event : withSubagentRunId(event, owner);

/** Any event, with ids from a small pool so that rules interact (and often break). */
const event: fc.Arbitrary<Event> = fc.oneof(
  fc.tuple(id, tag).map(([m, s]) => tagged(ev.textMessageStart(m), s)),
  fc.tuple(id, fc.string({ maxLength: 3 })).map(([m, d]) => ev.textMessageContent(m, d)),
  id.map((m) => ev.textMessageEnd(m)),
  fc
    .tuple(id, fc.option(id, { nil: undefined }), tag)
    .map(([t, p, s]) => tagged(ev.toolCallStart(`t${t}`, "f", p === undefined ? {} : { parentMessageId: p }), s)),
  id.map((t) => ev.toolCallArgs(`t${t}`, "{}")),
  id.map((t) => ev.toolCallEnd(`t${t}`)),
  fc.tuple(id, id).map(([m, t]) => ev.toolCallResult(`r${m}`, `t${t}`, "ok")),
  fc.dictionary(fc.constantFrom("x", "y"), fc.integer()).map((snapshot) => ev.stateSnapshot(snapshot)),
  fc.constantFrom("/x", "/y", "/missing/deep").map((path) => ev.stateDelta([{ op: "replace", path, value: 1 }])),
  fc.tuple(id, fc.boolean()).map(([m, replace]) => ev.activitySnapshot(`act-${m}`, "plan", { ops: [] }, { replace })),
  id.map((m) => ev.activityDelta(`act-${m}`, "plan", [{ op: "add", path: "/ops/-", value: 1 }])),
  id.map((m) => ev.reasoningStart(`rb-${m}`)),
  id.map((m) => ev.reasoningEnd(`rb-${m}`)),
  id.map((m) => ev.reasoningMessageStart(`rs-${m}`)),
  id.map((m) => ev.reasoningMessageChunk({ messageId: `rc-${m}`, delta: "hm" })),
  id.map((m) => ev.reasoningMessageContent(`rs-${m}`, "hm")),
  fc.constantFrom("s1", "s2").map((s) => ev.subagentStarted(s, "helper")),
  fc.constantFrom("s1", "s2").map((s) => ev.subagentFinished(s)),
  fc.constant(ev.messagesSnapshot([{ id: "a", role: "assistant", content: "snap" }])),
  fc.constant(ev.textMessageChunk({ messageId: "k", delta: "chunk" })),
  fc.constant(ev.runFinished("t", "r")),
  fc.constant(ev.runError("boom", { code: "X" })),
  fc.constant(ev.runFinished("t", "r", { outcome: { type: "interrupt", interrupts: [{ id: "i", reason: "confirmation" }] } })),
);

/** How the source ends after its events. */
type Ending = "complete" | "transport-error" | "unknown-type" | "bad-json";

const scenario = fc.record({
  startsWithRunStarted: fc.boolean(),
  events: fc.array(event, { maxLength: 40 }),
  ending: fc.constantFrom<Ending>("complete", "transport-error", "unknown-type", "bad-json"),
  asSse: fc.boolean(),
});

interface Scenario {
  readonly startsWithRunStarted: boolean;
  readonly events: Event[];
  readonly ending: Ending;
  readonly asSse: boolean;
}

function transportFor(s: Scenario): Transport {
  return {
    run(input: RunAgentInput): Observable<Event> {
      const events = s.startsWithRunStarted ? [ev.runStarted(input.threadId, input.runId), ...s.events] : s.events;
      if (s.asSse || s.ending === "unknown-type" || s.ending === "bad-json") {
        let body = events.map((e: Event) => encodeSse(e)).join("");
        if (s.ending === "unknown-type") body += 'data: {"type":"TELEPATHY_START"}\n\n';
        if (s.ending === "bad-json") body += "data: {oops\n\n";
        return new ReplayTransport(body).run(input); // the real SSE decoder
      }
      return new Observable<Event>((subscriber) => {
        for (const e of events) subscriber.next(e);
        if (s.ending === "transport-error") subscriber.error(new Error("connection reset"));
        else subscriber.complete();
      });
    },
  };
}

describe("run-end contract (property)", () => {
  it("never errors, ends with exactly one done, failed after an error, and keeps what was applied", async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        const session = new Session(transportFor(s), { threadId: "t", newId: counter() });
        const updates: Update[] = [];
        let beforeDone: readonly Message[] | undefined;
        await new Promise<void>((resolve, reject) => {
          session.send("go").subscribe({
            next: (update) => {
              if (update.kind === "done") beforeDone = session.messages;
              updates.push(update);
            },
            error: reject,
            complete: resolve,
          });
        });
        const dones = updates.filter((update) => update.kind === "done");
        expect(dones).toHaveLength(1);
        const last = updates[updates.length - 1];
        expect(last.kind).toBe("done");
        if (last.kind === "done" && last.end.kind === "failed") {
          const error = updates[updates.length - 2];
          expect(error?.kind).toBe("error");
          if (error?.kind === "error") expect(error.error.message).toBe(last.end.message);
        }
        // a failure undoes nothing
        expect(session.messages).toEqual(beforeDone);
        const lastList = [...updates].reverse().find((update) => update.kind === "messages");
        const since = lastList === undefined ? updates : updates.slice(updates.indexOf(lastList));
        const present = new Set(session.messages.map((message) => message.id));
        for (const update of since) if (update.kind === "message") expect(present.has(update.id)).toBe(true);
        expect(session.running).toBe(false);
      }),
      { numRuns: 300 },
    );
  });
});
