/**
 * `toolLoop` as an operator over hand-made run streams: pass-through, unsubscribing a synchronous
 * source, per-subscription state, and the contract on every odd path (a throwing callback, a run
 * stream that errors or ends without its done).
 */
import * as t from "io-ts";
import { lastValueFrom, Observable, of, take, throwError, toArray } from "rxjs";
import { TestScheduler } from "rxjs/testing";
import { toolLoop, type ToolLoopOptions } from "../../src/client/toolLoop";
import { clientTool, type ClientTool } from "../../src/client/tools/clientTool";
import type { Update } from "../../src/thread/Update";
import type { AssistantMessage, Message, ToolMessage } from "../../src/protocol/messages";
import { expectRunEndContract } from "./support";

const echo = clientTool({ name: "echo", description: "Echoes", parameters: t.type({ text: t.string }), execute: ({ text }) => text });

/** An assistant message holding one call of `echo`. */
const asking = (id: string, callId: string): AssistantMessage => ({
  id,
  role: "assistant",
  toolCalls: [{ id: callId, type: "function", function: { name: "echo", arguments: '{"text":"hi"}' } }],
});
const started = (message: Message, index: number): Update => ({ kind: "message", index, id: message.id, change: { kind: "started" }, message });
const success: Update = { kind: "done", end: { kind: "success" } };

/** Options over a plain message array: each run "applies" by pushing its message, as a Session's reducer would. */
function setup(runs: (Message | undefined)[], overrides: Partial<ToolLoopOptions<unknown>> = {}) {
  const messages: Message[] = [];
  const session = {
    threadId: "t",
    get messages() {
      return messages;
    },
    rawState: {},
    state: {},
  };
  let n = 0;
  const runStream = (): Observable<Update> =>
    new Observable<Update>((subscriber) => {
      const message = runs.shift();
      if (message !== undefined) {
        messages.push(message);
        subscriber.next(started(message, messages.length - 1));
      }
      subscriber.next(success);
      subscriber.complete();
    });
  const options: ToolLoopOptions<unknown> = {
    first: runStream(),
    followUp: () => runStream(),
    tools: new Map<string, ClientTool>([["echo", echo]]),
    maxToolRoundtrips: 5,
    session,
    append: (message: ToolMessage) => messages.push(message) - 1,
    newId: () => `id-${++n}`,
    ...overrides,
  };
  return { options, messages };
}

describe("toolLoop", () => {
  it("is the first run itself when there are no client tools", () => {
    const first = of(success);
    expect(toolLoop({ ...setup([]).options, first, tools: new Map() })).toBe(first);
  });

  it("passes a run without client calls through, done included, and unsubscribes it (marbles)", () => {
    new TestScheduler((actual, expected) => expect(actual).toEqual(expected)).run(({ cold, expectObservable, expectSubscriptions }) => {
      const user: Message = { id: "u", role: "user", content: "hi" };
      const first = cold<Update>("a-b-(d|)", {
        a: started(user, 0),
        b: { kind: "run", runId: "x", roundtrip: 1, previousEnd: { kind: "success" }, toolCallIds: [] },
        d: success,
      });
      const { options } = setup([]);
      expectObservable(toolLoop({ ...options, first })).toBe("a-b-(d|)", {
        a: started(user, 0),
        b: { kind: "run", runId: "x", roundtrip: 1, previousEnd: { kind: "success" }, toolCallIds: [] },
        d: success,
      });
      expectSubscriptions(first.subscriptions).toBe("^---!");
    });
  });

  it("stops listening to a synchronous run when unsubscribed", () => {
    const emitted: number[] = [];
    const first = new Observable<Update>((subscriber) => {
      for (let i = 0; !subscriber.closed && i < 10; i++) {
        emitted.push(i);
        subscriber.next({ kind: "error", error: new Error(`e${i}`) } as unknown as Update); // only `kind` matters to the loop here
      }
    });
    toolLoop({ ...setup([]).options, first })
      .pipe(take(3))
      .subscribe();
    expect(emitted).toEqual([0, 1, 2]);
  });

  it("runs the loop per subscription: each one executes and follows up on its own", async () => {
    const runs = [asking("a1", "c1"), undefined, asking("a2", "c2"), undefined];
    const { options, messages } = setup(runs);
    const loop = toolLoop({ ...options, first: options.followUp("first") });
    const one = await lastValueFrom(loop.pipe(toArray()));
    const two = await lastValueFrom(loop.pipe(toArray()));
    for (const updates of [one, two]) {
      expectRunEndContract(updates);
      expect(updates.filter((u) => u.kind === "run")).toEqual([expect.objectContaining({ roundtrip: 1 })]);
    }
    expect(messages.map((m) => m.role)).toEqual(["assistant", "tool", "assistant", "tool"]);
  });

  it("ends by the contract when append throws: a tool-loop error, done failed, no follow-up", async () => {
    const runs = [asking("a1", "c1"), undefined];
    const { options } = setup(runs, {
      append: () => {
        throw new Error("the list is frozen");
      },
    });
    const updates = await lastValueFrom(toolLoop(options).pipe(toArray()));
    expectRunEndContract(updates);
    expect(updates.at(-2)).toMatchObject({
      kind: "error",
      error: { kind: "tool", code: "tool-loop", message: "the client-tool loop failed: the list is frozen" },
    });
    expect(runs).toHaveLength(1); // the follow-up never ran
  });

  it("ends by the contract when a run stream errors, or completes without its done", async () => {
    const { options } = setup([]);
    const errored = await lastValueFrom(toolLoop({ ...options, first: throwError(() => new TypeError("socket hang up")) }).pipe(toArray()));
    expectRunEndContract(errored);
    expect(errored.at(-2)).toMatchObject({ kind: "error", error: { kind: "transport" } });
    const cut = await lastValueFrom(toolLoop({ ...options, first: of<Update>() }).pipe(toArray()));
    expectRunEndContract(cut);
    expect(cut.at(-2)).toMatchObject({ kind: "error", error: { kind: "decode", code: "truncated" } });
  });
});
