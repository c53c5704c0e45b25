/**
 * connect() takes up the client tool calls a joined thread waits for (docs/threads.md#pending-client-tools), against
 * scripted transports: only the calls the prelude's end names (never the fallback over the whole
 * history), and a follow-up refused because another session answered first is taken back and
 * the thread joined again, while any other refusal still fails the exchange.
 */
import { Observable, of, throwError } from "rxjs";
import { answeredElsewhere } from "../../src/client/answeredElsewhere";
import { Session } from "../../src/client/Session";
import { clientTool } from "../../src/client/tools/clientTool";
import type { ConnectRequest, Transport } from "../../src/client/transports/Transport";
import { ev } from "../../src/protocol/build";
import type { Event } from "../../src/protocol/events";
import type { RunAgentInput } from "../../src/protocol/input";
import type { Message } from "../../src/protocol/messages";
import { ClientError } from "../../src/thread/ClientError";
import { collect, counter, endOf, errorsOf, expectRunEndContract, kinds } from "./support";

const history: Message[] = [
  { id: "u1", role: "user", content: "what time is it?" },
  { id: "a1", role: "assistant", content: "", toolCalls: [{ id: "tc1", type: "function", function: { name: "get_local_time", arguments: "{}" } }] },
];
const answered: Message[] = [
  ...history,
  { id: "t-other", role: "tool", toolCallId: "tc1", content: "09:00" },
  { id: "a2", role: "assistant", content: "It is 09:00." },
];

/** A thread's connect stream: the prelude of an idle thread, ending with `pending` on the success when given. */
function prelude(messages: readonly Message[], pending?: string[]): Event[] {
  return [
    ev.runStarted("t", "r1"),
    ev.messagesSnapshot([...messages]),
    ev.stateSnapshot({}),
    ev.runFinished("t", "r1", { outcome: pending === undefined ? { type: "success" } : { type: "success", pendingToolCallIds: pending } }),
  ];
}

/** Answers connects from `joins` in turn and runs with `runAnswer`, recording what it was asked. */
class ScriptedThread implements Transport {
  readonly inputs: RunAgentInput[] = [];
  readonly connects: ConnectRequest[] = [];
  constructor(
    private readonly joins: readonly Event[][],
    private readonly runAnswer: (input: RunAgentInput) => Observable<Event>,
  ) {}
  run(input: RunAgentInput): Observable<Event> {
    this.inputs.push(input);
    return this.runAnswer(input);
  }
  connect(request: ConnectRequest): Observable<Event> {
    this.connects.push(request);
    return of(...(this.joins[this.connects.length - 1] ?? []));
  }
}

const getLocalTime = clientTool({ name: "get_local_time", description: "The user's clock", execute: () => "14:05" });
const refusal = (status: number, error: string) =>
  new ClientError("http", `POST /agent answered ${status}`, { status, body: JSON.stringify({ error, message: "x".repeat(600) }).slice(0, 500) + "…" });
const session = (transport: Transport) => new Session(transport, { threadId: "t", newId: counter(), tools: [getLocalTime] });

test("answeredElsewhere: 409 run-active or history-conflict, 422 history-forged, read from a body cut short; nothing else", () => {
  expect(answeredElsewhere(refusal(409, "run-active"))).toBe(true);
  expect(answeredElsewhere(refusal(409, "history-conflict"))).toBe(true);
  expect(answeredElsewhere(refusal(422, "history-forged"))).toBe(true);
  expect(answeredElsewhere(refusal(422, "invalid-input"))).toBe(false);
  expect(answeredElsewhere(refusal(409, "history-forged"))).toBe(false);
  expect(answeredElsewhere(refusal(403, "forbidden"))).toBe(false);
  expect(answeredElsewhere(new ClientError("http", "409", { status: 409, body: "<html>conflict</html>" }))).toBe(false);
  expect(answeredElsewhere(new ClientError("transport", "offline"))).toBe(false);
});

test("connect() executes the calls the prelude's end names and sends the follow-up with their results, one done", async () => {
  const transport = new ScriptedThread([prelude(history, ["tc1"])], (input) => of(ev.runStarted("t", input.runId), ev.runFinished("t", input.runId)));
  const joined = session(transport);
  const updates = await collect(joined.connect());
  expectRunEndContract(updates);
  expect(errorsOf(updates)).toEqual([]);
  expect(kinds(updates).filter((kind) => kind === "run")).toHaveLength(1);
  expect(transport.inputs).toHaveLength(1);
  expect(transport.inputs[0].messages[2]).toMatchObject({ role: "tool", toolCallId: "tc1", content: "14:05" });
});

test("connect() never takes up unanswered calls its prelude's end does not name (an abandoned exchange's calls stay as they are)", async () => {
  const transport = new ScriptedThread([prelude(history)], () => throwError(() => new Error("no run expected")));
  const joined = session(transport);
  const updates = await collect(joined.connect());
  expect(endOf(updates)).toEqual({ kind: "success" });
  expect(transport.inputs).toEqual([]);
  expect(joined.messages).toEqual(history);
});

test("a follow-up refused 422 history-forged (answered by another page): the answer is taken back, no error, the thread is joined again", async () => {
  const transport = new ScriptedThread([prelude(history, ["tc1"]), prelude(answered)], () => throwError(() => refusal(422, "history-forged")));
  const joined = session(transport);
  const updates = await collect(joined.connect());
  expectRunEndContract(updates);
  expect(errorsOf(updates)).toEqual([]);
  expect(endOf(updates)).toEqual({ kind: "success" });
  expect(transport.connects).toHaveLength(2);
  // the answer went out, came back refused, and was withdrawn before the second join replaced the history
  const withdrawn = updates.find((update) => update.kind === "messages" && update.messages.length === history.length);
  expect(withdrawn).toBeDefined();
  expect(joined.messages).toEqual(answered);
  expect(joined.running).toBe(false);
});

test("any other refusal of the follow-up fails the exchange as before, the answer kept", async () => {
  const transport = new ScriptedThread([prelude(history, ["tc1"])], () => throwError(() => refusal(422, "invalid-input")));
  const joined = session(transport);
  const updates = await collect(joined.connect());
  expectRunEndContract(updates);
  expect(errorsOf(updates).map((error) => error.status)).toEqual([422]);
  expect(endOf(updates)).toMatchObject({ kind: "failed" });
  expect(transport.connects).toHaveLength(1);
  expect(joined.messages[2]).toMatchObject({ role: "tool", toolCallId: "tc1" });
});
