/**
 * Table-driven tests of the pure verifier step and of both operator modes over the same tables:
 * docs/rules.md#edge-cases rows 1–49 and one example per rule R1–R45 (and issue #20's R7a, A16, R22 role) (see cases.ts).
 */
import * as E from "fp-ts/Either";
import { from, lastValueFrom, toArray } from "rxjs";
import type { Event } from "../../../src/protocol/events";
import { Diagnostic, ProtocolError } from "../../../src/operators/ProtocolError";
import { verifyEvents } from "../../../src/operators/verifyEvents";
import { verifyStep } from "../../../src/operators/verify/verifyStep";
import { initialVerifierState, type VerifierState } from "../../../src/operators/verify/VerifierState";
import { RE, RF, RS, SAS, STF, STS, TMC, TME, TMS, TXC, label, labels } from "../../support/streams";
import { ALL_CASES, ROWS, RULE_EXAMPLES, type VerifierCase } from "./cases";
import { snapshot } from "./generate";

/** Feeds events to verifyStep until the first rejection. */
function runSteps(events: readonly Event[]): { state: VerifierState; accepted: number; error?: ProtocolError; before?: unknown } {
  let state = initialVerifierState();
  for (let i = 0; i < events.length; i++) {
    const before = snapshot(state);
    const result = verifyStep(state, events[i]);
    if (E.isLeft(result)) return { state, accepted: i, error: result.left, before };
    expect(result.right).toBe(state); // mutated in place and returned
    state = result.right;
  }
  return { state, accepted: events.length };
}

const describeCase = (c: VerifierCase) => `${c.name}: ${labels(c.events)} → ${c.reject ? `X ${c.reject.rule} at ${label(c.events[c.reject.at])}` : "V"}`;

describe.each([
  ["docs/rules.md#edge-cases rows 1–49", ROWS],
  ["one example per rule R1–R45 (and issue #20's R7a, A16, R22 role)", RULE_EXAMPLES],
])("verifyStep: %s", (_title, cases) => {
  test.each(cases.map((c) => [describeCase(c), c] as const))("%s", (_name, c) => {
    const outcome = runSteps(c.events);
    if (!c.reject) {
      expect(outcome.error).toBeUndefined();
      expect(outcome.accepted).toBe(c.events.length);
      return;
    }
    expect(outcome.accepted).toBe(c.reject.at);
    const error = outcome.error!;
    expect(error).toBeInstanceOf(ProtocolError);
    expect({ code: error.code, rule: error.rule }).toEqual({ code: c.reject.code, rule: c.reject.rule });
    expect(error.event).toBe(c.events[c.reject.at]);
    for (const fragment of c.reject.mentions ?? []) expect(error.message).toContain(fragment);
    // A rejected event changes none of the state.
    expect(snapshot(outcome.state)).toEqual(outcome.before);
  });
});

describe("verifyEvents over the tables", () => {
  test.each(ALL_CASES.map((c) => [describeCase(c), c] as const))("strict: %s", async (_name, c) => {
    const delivered: Event[] = [];
    const done = new Promise<unknown>((resolve) =>
      from(c.events)
        .pipe(verifyEvents())
        .subscribe({ next: (e) => delivered.push(e), error: (e: unknown) => resolve(e), complete: () => resolve("complete") }),
    );
    const end = await done;
    const expected = c.reject ? c.events.slice(0, c.reject.at) : c.events;
    expect(delivered).toHaveLength(expected.length);
    delivered.forEach((event, i) => expect(event).toBe(expected[i])); // the very same objects, in order
    if (!c.reject) {
      expect(end).toBe("complete");
    } else {
      expect(end).toBeInstanceOf(ProtocolError);
      expect(end).toMatchObject({ code: c.reject.code, rule: c.reject.rule, event: c.events[c.reject.at] });
    }
  });

  test.each(ALL_CASES.map((c) => [describeCase(c), c] as const))("report: %s", async (_name, c) => {
    const output = await lastValueFrom(from(c.events).pipe(verifyEvents({ mode: "report" }), toArray()));
    expect(output).toHaveLength(c.events.length); // one item per event: the event or its diagnostic
    const firstBad = c.reject?.at ?? c.events.length;
    output.slice(0, firstBad).forEach((item, i) => expect(item).toBe(c.events[i]));
    if (c.reject) {
      const item = output[c.reject.at];
      expect(item).toBeInstanceOf(Diagnostic);
      expect(item).toMatchObject({ kind: "diagnostic", error: { code: c.reject.code, rule: c.reject.rule } });
    }
  });
});

describe("verifyStep details", () => {
  function stateAfter(events: Event[]): VerifierState {
    const outcome = runSteps(events);
    expect(outcome.error).toBeUndefined();
    return outcome.state;
  }

  test("a new run discards every per-run record, so ids and owners of an earlier run constrain nothing (R6)", () => {
    const events = [RS(), TMS("m", "s1"), SAS("s1"), STS("a"), RE("x"), RS({ runId: "r2" }), TMS("m", "s2"), SAS("s1")];
    const state = stateAfter(events);
    expect(snapshot(state.run.owners.message)).toEqual([["m", { owner: "s2", source: "opener" }]]);
    expect(state.run.activeStepCount).toBe(0);
    expect(state.run.runId).toBe("r2");
  });

  test("RUN_FINISHED lists at most ten open items and counts the rest", () => {
    const ids = Array.from({ length: 13 }, (_, i) => `m${i}`);
    const result = verifyStep(stateAfter([RS(), ...ids.map((id) => TMS(id))]), RF());
    expect(E.isLeft(result) && result.left.message).toContain("m0, m1, m2, m3, m4, m5, m6, m7, m8, m9 and 3 more");
  });

  test("R7a: with the thread the client sent, a RUN_STARTED on another thread is refused and changes nothing", () => {
    const state = initialVerifierState({ threadId: "t-sent" });
    const before = snapshot(state);
    const result = verifyStep(state, RS());
    expect(E.isLeft(result) && [result.left.rule, result.left.message]).toEqual([
      "R7a",
      expect.stringContaining(`names thread "t1", but every run of the stream carries the input's threadId "t-sent" (the thread the client sent)`),
    ]);
    expect(snapshot(state)).toEqual(before);
    expect(E.isRight(verifyStep(initialVerifierState({ threadId: "t1" }), RS()))).toBe(true);
  });

  test("R7a: RUN_ERROR carries no identity, so it ends any run; the next run is still held to the stream's thread", () => {
    const state = stateAfter([RS(), RE("x")]);
    const result = verifyStep(state, RS({ runId: "r2" }));
    expect(E.isRight(result)).toBe(true);
    expect(state.thread).toEqual({ threadId: "t1", source: "stream" });
  });

  test("R7 names the first failing category only", () => {
    const result = verifyStep(stateAfter([RS(), TMS("m1"), SAS("s1")]), RF());
    expect(E.isLeft(result) && result.left.message).toMatch(/text messages are still open: m1;/);
    expect(E.isLeft(result) && result.left.message).not.toMatch(/subagent/);
  });

  test("an untagged reopen keeps the recorded owner (first writer wins)", () => {
    const state = stateAfter([RS(), TMS("m1", "s1"), TME("m1"), TMS("m1")]);
    expect(snapshot(state.run.owners.message.get("m1"))).toEqual({ owner: "s1", source: "opener" });
  });

  test('"" against the parent is reported as R28 even when a third owner holds the same step name', () => {
    const state = stateAfter([RS(), STS("tools", "a"), STS("tools")]);
    const result = verifyStep(state, STF("tools", ""));
    expect(E.isLeft(result) && [result.left.rule, result.left.message]).toEqual(["R28", expect.stringContaining("open under the parent agent")]);
  });

  test("chunk events that reach the verifier are checked only for run lifecycle and passed on", () => {
    expect(E.isRight(verifyStep(stateAfter([RS()]), TXC({ messageId: "m1", delta: "a" })))).toBe(true);
    const first = verifyStep(initialVerifierState(), TXC({ messageId: "m1" }));
    expect(E.isLeft(first) && first.left.rule).toBe("R1");
  });

  test("an unknown type from an in-process producer is not an ordering matter: it passes (decoding rejects it, E7)", () => {
    const unknownEvent = { type: "TELEPATHY_START" } as unknown as Event; // impossible for typed producers
    const state = stateAfter([RS()]);
    const result = verifyStep(state, unknownEvent);
    expect(E.isRight(result) && result.right).toBe(state);
  });

  test("errors name what was expected and what arrived", () => {
    const result = verifyStep(stateAfter([RS(), TMS("m1")]), TMC("m2"));
    expect(E.isLeft(result) && result.left.message).toBe("TEXT_MESSAGE_CONTENT for m2, but no text message m2 is open (open: m1)");
  });
});
