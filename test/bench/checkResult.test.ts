/**
 * The client bench's result checks (bench/support/checkResult.ts), its workloads' expectations
 * (bench/support/clientWorkloads.ts) and its lanes: every lane builds exactly what the generator
 * expects, and the pipeline the bench used to time as "official" (it built nothing) fails.
 */
import { AbstractAgent, defaultApplyEvents, parseSSEStream, transformChunks, verifyEvents as officialVerify } from "@ag-ui/client";
import { EMPTY, from } from "rxjs";
import { encodeSse } from "../../src/wire/encodeSse";
import { applyOpsInPlace, BenchCheckError, checkEventCount, checkEventTypes, checkThread, firstDifference, tally } from "../../bench/support/checkResult";
import { RUN, THREAD, USER, WORKLOADS } from "../../bench/support/clientWorkloads";
import { compareAsync } from "../../bench/support/measure";
import { runOfficialAgent } from "../../bench/support/officialLane";
import { checkedEvents, reduceBody, sessionThread } from "../../bench/support/clientLanes";
import { LeastReducer, leastThread, type LeastEvent, type LeastUpdate } from "../../bench/support/leastReducer";

const bodyOf = (n: number, name: string) => {
  const workload = WORKLOADS.find((w) => w.name === name);
  if (workload === undefined) throw new Error(`no workload ${name}`);
  const { events, expected } = workload.generate(n);
  return { body: events.map((event) => encodeSse(event)).join(""), events, expected };
};

describe("firstDifference", () => {
  it("finds none between equal JSON values, whatever their key order, and counts a key holding undefined as absent", () => {
    expect(firstDifference({ b: [1, { c: "x" }], a: 1, gone: undefined }, { a: 1, b: [1, { c: "x" }] }, "v")).toBeUndefined();
  });

  it("names the first differing path with the expected and the actual value", () => {
    expect(firstDifference({ a: [1, 2] }, { a: [1, 3] }, "state")).toBe("at state.a[1]: expected 3, but got 2");
    expect(firstDifference([{ id: "m" }], [{ id: "m", content: "hi" }], "messages")).toBe("at messages[0]: expected the keys content, but they are missing");
    expect(firstDifference({ a: 1, extra: true }, { a: 1 }, "state")).toBe("at state: expected no keys extra, but got them");
    expect(firstDifference([1], [1, 2], "messages")).toBe("at messages: expected 2 items, but got 1");
    expect(firstDifference(undefined, {}, "state")).toBe("at state: expected an object, but got nothing");
  });

  it("names a long string by its lengths and the first differing offset instead of printing it", () => {
    const expected = "word ".repeat(100);
    expect(firstDifference(`${expected.slice(0, 250)}X`, expected, "text")).toBe(
      "at text: expected a string of 500 characters, but got 251, first different at offset 250",
    );
  });
});

describe("the workloads' expectations", () => {
  it.each(WORKLOADS.map((w) => w.name))("%s: counts the events it generated, and expects more than the message it started with", (name) => {
    const { events, expected } = bodyOf(40, name);
    expect(expected.events).toBe(events.length);
    expect(expected.eventTypes).toEqual(tally(events));
    expect(expected.messages[0]).toEqual(name === "chat" ? { id: "h-0", role: "user", content: "Question number 0 about the quarterly plan?" } : USER);
    expect(expected.messages.length > 1 || JSON.stringify(expected.state) !== "{}").toBe(true);
  });

  it("text: one message holding every delta, from the generator's own deltas", () => {
    const { expected } = bodyOf(1_000, "text");
    expect(expected.messages).toHaveLength(2);
    expect(expected.messages[1]).toMatchObject({ id: "m", role: "assistant" });
    const content = expected.messages[1].content;
    expect(typeof content === "string" ? content.length : -1).toBe(1_000 * 5 + Math.ceil(1_000 / 7));
  });

  it("state: the snapshot with each delta's assignment made, and tools: one message per call", () => {
    // delta 50 sets sections[50].tasks[50].done to true; it was false (50 is not a multiple of 3)
    expect(firstDifference(bodyOf(51, "state").expected.state, bodyOf(50, "state").expected.state, "state")).toBe(
      "at state.sections[50].tasks[50].done: expected false, but got true",
    );
    expect(bodyOf(25, "tools").expected).toMatchObject({ toolCalls: 25, events: 77 });
  });
});

describe("the checks", () => {
  it("fail an event count or a type tally other than the generator's, naming the lane", () => {
    const { expected } = bodyOf(10, "text");
    expect(() => checkEventCount("floor on text/10", 0, expected)).toThrow(
      new BenchCheckError("event-count", "floor on text/10: expected 14 events, but got 0", { lane: "floor on text/10" }),
    );
    expect(() => checkEventTypes("decode on text/10", { ...expected.eventTypes, "in-band report": 1 }, expected)).toThrow(
      "decode on text/10: at types: expected no keys in-band report, but got them",
    );
  });

  it("fail a lane that applied nothing, as the old official pipeline did", async () => {
    const { body, expected } = bodyOf(1_000, "text");
    const agent = new (class extends AbstractAgent {
      run(): ReturnType<AbstractAgent["run"]> {
        return EMPTY as never; // never called: defaultApplyEvents is driven directly, as the bench did
      }
    })({ threadId: THREAD, initialMessages: [USER] });
    const input = { threadId: THREAD, runId: RUN, messages: [USER], tools: [], context: [], state: {}, forwardedProps: {} };
    // The bench's former official lane, verbatim in substance: parseSSEStream subscribes to a
    // synchronous source before anyone listens to its output, so every event is lost.
    const http$ = from([{ type: "data", data: new TextEncoder().encode(body) }]);
    const events$ = parseSSEStream(http$ as never).pipe(transformChunks() as never, officialVerify() as never);
    let mutations = 0;
    await new Promise<void>((resolve, reject) =>
      defaultApplyEvents(input, events$ as never, agent, []).subscribe({ next: () => mutations++, error: reject, complete: resolve }),
    );
    expect(mutations).toBe(0);
    expect(() => checkThread("official on text/1,000", { messages: agent.messages, state: agent.state }, expected)).toThrow(
      "official on text/1,000: expected 2 messages, but the lane built 1 (nothing was applied)",
    );
  });
});

describe("the lanes build exactly the expected thread", () => {
  it.each(WORKLOADS.map((w) => w.name))(
    "%s: our Session, its pipeline alone (+apply) and the official HttpAgent.runAgent over an in-memory fetch",
    async (name) => {
      const { body, expected } = bodyOf(name.startsWith("state") ? 2 : 20, name);
      checkThread(`session on ${name}`, sessionThread(body), expected);
      checkThread(`+apply on ${name}`, reduceBody(body), expected);
      checkThread(`official on ${name}`, await runOfficialAgent(new TextEncoder().encode(body)), expected);
    },
  );
});

describe("the least lane (bench/support/leastReducer.ts, a bound for bench/clientBounds.ts)", () => {
  it.each(["text", "chat", "tools"])(
    "%s: builds exactly the expected thread, one update per event but RUN_STARTED, alone and behind the checked step",
    (name) => {
      const { body, events, expected } = bodyOf(20, name);
      const updates: LeastUpdate[] = [];
      checkThread(
        `least on ${name}`,
        leastThread(body, (update) => updates.push(update)),
        expected,
      );
      expect(updates).toHaveLength(events.length - 1);
      expect(updates.at(-1)?.kind).toBe("done");
      const least = new LeastReducer(() => undefined);
      checkedEvents(body, (event) => least.apply(event as unknown as LeastEvent));
      checkThread(`checked + least on ${name}`, least.thread(), expected);
    },
  );

  it("keeps the identity of the messages an update does not touch", () => {
    const { body } = bodyOf(3, "tools");
    const thread = new LeastReducer(() => undefined);
    for (const frame of body.split("\n\n").filter((text) => text.length > 0)) thread.apply(JSON.parse(frame.slice(6)) as LeastEvent);
    const before = thread.thread().messages.slice();
    thread.apply({ type: "TOOL_CALL_START", toolCallId: "late", toolCallName: "search" } as LeastEvent);
    thread.apply({ type: "TOOL_CALL_ARGS", toolCallId: "late", delta: "{}" } as LeastEvent);
    const after = thread.thread().messages;
    before.forEach((message, index) => expect(after[index]).toBe(message));
  });

  it("refuses an event outside the streams it covers, and a continuation of an id it never saw, naming them", () => {
    const { body } = bodyOf(2, "state");
    expect(() => leastThread(body, () => undefined)).toThrow("expected the events of the text, chat or tools workload, but got STATE_SNAPSHOT");
    expect(() => new LeastReducer(() => undefined).apply({ type: "TEXT_MESSAGE_CONTENT", messageId: "nobody", delta: "x" } as LeastEvent)).toThrow(
      "expected a message or tool call nobody started before its continuation, but there is none",
    );
  });
});

describe("applyOpsInPlace (the state bench's own applier of published deltas)", () => {
  it("adds, appends, replaces and removes in arrays and objects, by RFC 6902", () => {
    const document = { tasks: [{ done: false }, { done: true }], "a/b": 1 };
    applyOpsInPlace(document, [
      { op: "replace", path: "/tasks/0/done", value: true },
      { op: "add", path: "/tasks/-", value: { done: false } },
      { op: "add", path: "/tasks/1", value: { done: null } },
      { op: "remove", path: "/tasks/2" },
      { op: "remove", path: "/a~1b" },
    ]);
    expect(document).toEqual({ tasks: [{ done: true }, { done: null }, { done: false }] });
  });

  it("refuses an operation it does not apply and an index out of range", () => {
    expect(() => applyOpsInPlace({ a: 1 }, [{ op: "move", from: "/a", path: "/b" }])).toThrow("expected add, replace or remove, but got move at /b");
    expect(() => applyOpsInPlace({ tasks: [] }, [{ op: "add", path: "/tasks/3", value: 1 }])).toThrow("expected an index within 0..0 at /tasks/3, but got 3");
  });
});

describe("compareAsync", () => {
  it("checks every result of the candidate, the warm-up's included, and fails with the check", async () => {
    const seen: number[] = [];
    let calls = 0;
    const comparison = await compareAsync(
      "sync",
      () => 1,
      "async",
      async () => ++calls,
      { minTimeMs: 0, minSamples: 3, check: (result) => seen.push(result) },
    );
    expect(seen).toEqual([1, 2, 3, 4]);
    expect(comparison.candidate.samples).toBe(3);
    await expect(
      compareAsync(
        "sync",
        () => 1,
        "async",
        async () => 0,
        {
          check: () => {
            throw new Error("built nothing");
          },
        },
      ),
    ).rejects.toThrow("built nothing");
  });
});
