/**
 * Fuzz: random event sequences through a whole `Session` (issue #14 D). The streams come from the
 * verifier's generator (valid by construction: concurrent messages, tool calls, reasoning, steps,
 * subagents, activities, state, several runs), sometimes mutated, cut short, or sent as SSE with
 * unknown properties added. Checked: the run-end invariants (exactly one `done`, last; `failed`
 * right after an `error`; the stream never errors) and that nothing is lost: every delta of the run
 * is in the message it names, and stripped material changes nothing but the warnings.
 */
import * as fc from "fast-check";
import type { Event } from "../../src/protocol/events";
import { ReplayTransport } from "../../src/client/transports/ReplayTransport";
import { encodeSse } from "../../src/wire/encodeSse";
import { applyMutation, eventsOf, streams, withMutation } from "../operators/verify/generate";
import { fuzzParameters } from "../support/fuzz";
import { expectNothingLost, expectRunEnd, firstRun, runSession, validStreams } from "./runModel";

const replay = (recording: readonly Event[] | string) => runSession(new ReplayTransport(recording));

const valid = validStreams;

test("fuzz: valid streams keep the run-end invariants, report no violation, and lose nothing", async () => {
  await fc.assert(
    fc.asyncProperty(valid, async (events) => {
      const { session, updates } = await replay(events);
      expectRunEnd(updates);
      expect(updates.filter((update) => update.kind === "error" && update.error.kind === "protocol")).toEqual([]);
      const run = firstRun(events);
      const terminal = run[run.length - 1];
      const end = updates[updates.length - 1];
      if (end.kind === "done") expect(end.end.kind).toBe(terminal.type === "RUN_ERROR" ? "failed" : "success");
      expectNothingLost(session.messages, run);
    }),
    fuzzParameters(150),
  );
});

test("fuzz: a valid stream cut short ends failed (truncated) and keeps what arrived", async () => {
  await fc.assert(
    fc.asyncProperty(valid, fc.nat(), async (events, at) => {
      const run = firstRun(events);
      const cut = run.slice(0, at % run.length); // never the terminal itself
      const { session, updates } = await replay(cut);
      expectRunEnd(updates);
      const end = updates[updates.length - 1];
      expect(end.kind === "done" && end.end).toMatchObject({ kind: "failed", code: "truncated" });
      expectNothingLost(session.messages, cut);
    }),
    fuzzParameters(150),
  );
});

test("fuzz: a mutated stream (one rule broken) still keeps the run-end invariants", async () => {
  await fc.assert(
    fc.asyncProperty(withMutation(streams), async ({ stream, mutation }) => {
      const events = applyMutation(eventsOf(stream), mutation);
      const { updates } = await replay(events);
      expectRunEnd(updates);
    }),
    fuzzParameters(150),
  );
});

test("fuzz: unknown properties added anywhere (as SSE) change nothing but one warning each, where they were", async () => {
  const withExtras = valid.chain((events) =>
    fc.record({
      events: fc.constant(events),
      extras: fc.array(fc.tuple(fc.nat(), fc.constantFrom("vendor", "x_trace", "futureField")), { maxLength: 5 }),
    }),
  );
  await fc.assert(
    fc.asyncProperty(withExtras, async ({ events, extras }) => {
      const added = new Map<number, string>();
      for (const [at, key] of extras) added.set(at % events.length, key);
      const body = events.map((event, i) => encodeSse(added.has(i) ? { ...event, [added.get(i) ?? ""]: { any: i } } : event)).join("");
      const plain = await replay(events);
      const stripped = await replay(body);
      expect(stripped.session.messages).toEqual(plain.session.messages);
      expect(stripped.session.rawState).toEqual(plain.session.rawState);
      const withoutWarnings = stripped.updates.filter((update) => !(update.kind === "error" && update.error.kind === "warning"));
      expect(withoutWarnings).toEqual(plain.updates);
      const consumed = firstRun(events).length;
      const expected = [...added.keys()].filter((i) => i < consumed).length;
      const warnings = stripped.updates.flatMap((update) => (update.kind === "error" && update.error.kind === "warning" ? [update.error] : []));
      expect(warnings.map((warning) => warning.code)).toEqual(Array(expected).fill("unknown-property"));
    }),
    fuzzParameters(100),
  );
});
