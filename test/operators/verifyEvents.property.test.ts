/**
 * Property tests: streams that are valid by construction (several runs, each interleaving
 * concurrently open text messages, tool calls, reasoning, steps, subagents, activities, tagged
 * events and state events) pass unchanged; the same streams with one structural event deleted or
 * duplicated are rejected with a ProtocolError in strict mode, and yield Diagnostics without ever
 * failing in report mode.
 */
import * as fc from "fast-check";
import * as E from "fp-ts/Either";
import { from, lastValueFrom, toArray } from "rxjs";
import type { Event } from "../../src/protocol/events";
import { Diagnostic, ProtocolError } from "../../src/operators/ProtocolError";
import { verifyEvents } from "../../src/operators/verifyEvents";
import { verifyStep } from "../../src/operators/verify/verifyStep";
import { initialVerifierState } from "../../src/operators/verify/VerifierState";
import { labels } from "../support/streams";
import { applyMutation, eventsOf, mutated, snapshot, streams } from "./verify/generate";

/** Runs strict verification to the end: the delivered events, and how the stream ended. */
function runStrict(events: readonly Event[]): { delivered: Event[]; end: unknown } {
  const delivered: Event[] = [];
  let end: unknown = "pending";
  from(events)
    .pipe(verifyEvents())
    .subscribe({ next: (e) => delivered.push(e), error: (e: unknown) => (end = e), complete: () => (end = "complete") });
  return { delivered, end };
}

describe("verifyEvents properties", () => {
  test("the generator covers what the properties claim (guards against a degenerate generator)", () => {
    const sample = fc.sample(streams, { numRuns: 300, seed: 42 });
    const measure = (events: readonly Event[]) => {
      let open = 0;
      let maxOpen = 0;
      for (const e of events) {
        if (e.type === "TEXT_MESSAGE_START" || e.type === "TOOL_CALL_START" || e.type === "SUBAGENT_STARTED" || e.type === "STEP_STARTED") open += 1;
        if (["TEXT_MESSAGE_END", "TOOL_CALL_END", "SUBAGENT_FINISHED", "SUBAGENT_ERROR", "STEP_FINISHED"].includes(e.type)) open -= 1;
        if (e.type === "RUN_STARTED") open = 0;
        maxOpen = Math.max(maxOpen, open);
      }
      return {
        maxOpen,
        runs: events.filter((e) => e.type === "RUN_STARTED").length,
        tagged: events.filter((e) => typeof Reflect.get(e, "subagentRunId") === "string" && !e.type.startsWith("SUBAGENT")).length,
        types: new Set(events.map((e) => e.type)),
      };
    };
    const stats = sample.map((s) => measure(eventsOf(s)));
    const covered = new Set(stats.flatMap((m) => [...m.types]));
    expect(stats.filter((m) => m.maxOpen >= 4).length).toBeGreaterThan(30);
    expect(stats.filter((m) => m.runs >= 2).length).toBeGreaterThan(30);
    expect(stats.filter((m) => m.tagged >= 5).length).toBeGreaterThan(30);
    // Reasoning messages open inside a block of their owner, and some block is the only one a message relies on (R22).
    expect(sample.filter((s) => s.slots.some((slot) => slot.bracketsMessage === true)).length).toBeGreaterThan(10);
    for (const type of [
      "REASONING_START",
      "REASONING_MESSAGE_START",
      "REASONING_MESSAGE_CONTENT",
      "REASONING_END",
      "REASONING_ENCRYPTED_VALUE",
      "ACTIVITY_DELTA",
      "MESSAGES_SNAPSHOT",
      "TOOL_CALL_RESULT",
      "STATE_DELTA",
      "SUBAGENT_ERROR",
      "RUN_ERROR",
    ]) {
      expect(covered).toContain(type);
    }
  });

  test("streams valid by construction pass unchanged in strict mode", () => {
    fc.assert(
      fc.property(streams, (s) => {
        const events = eventsOf(s);
        const { delivered, end } = runStrict(events);
        if (end !== "complete") throw new Error(`rejected a valid stream: ${String(end)}\n${labels(events)}`);
        expect(delivered).toHaveLength(events.length);
        delivered.forEach((event, i) => expect(event).toBe(events[i]));
      }),
      { numRuns: 400 },
    );
  });

  test("one structural event deleted or duplicated: strict errors with a ProtocolError, never another error", () => {
    fc.assert(
      fc.property(mutated, ({ stream, mutation }) => {
        const events = applyMutation(eventsOf(stream), mutation);
        const { end } = runStrict(events);
        if (!(end instanceof ProtocolError)) {
          throw new Error(`${mutation.kind} at ${mutation.index} ended with ${String(end)}\n${labels(events)}`);
        }
      }),
      { numRuns: 600 },
    );
  });

  test("report mode never fails: valid streams yield no Diagnostic, mutated ones at least one, one item per event", async () => {
    await fc.assert(
      fc.asyncProperty(mutated, async ({ stream, mutation }) => {
        const valid = eventsOf(stream);
        const clean = await lastValueFrom(from(valid).pipe(verifyEvents({ mode: "report" }), toArray()));
        expect(clean.filter((item) => item instanceof Diagnostic)).toHaveLength(0);

        const events = applyMutation(valid, mutation);
        const output = await lastValueFrom(from(events).pipe(verifyEvents({ mode: "report" }), toArray())); // rejects if the stream errors
        expect(output).toHaveLength(events.length);
        expect(output.some((item) => item instanceof Diagnostic)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  test("every rejected event leaves the verifier state exactly as it was", () => {
    fc.assert(
      fc.property(mutated, ({ stream, mutation }) => {
        let state = initialVerifierState();
        let rejections = 0;
        for (const event of applyMutation(eventsOf(stream), mutation)) {
          const before = snapshot(state);
          const result = verifyStep(state, event);
          if (E.isLeft(result)) {
            rejections += 1;
            expect(snapshot(state)).toEqual(before);
          } else {
            state = result.right;
          }
        }
        expect(rejections).toBeGreaterThan(0);
      }),
      { numRuns: 300 },
    );
  });
});
