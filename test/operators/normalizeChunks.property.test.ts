/**
 * Properties of the chunk normalizer over random streams of chunks mixed with the events that
 * close lanes: the output holds no chunk, every START/END pair is balanced per id except the
 * streams still open at the end, each lane holds at most one stream, and tags stay with their
 * opener. A differential property checks strict-mode output against @ag-ui/client's transformChunks.
 */
import fc from "fast-check";
import { ev } from "../../src/protocol/build";
import { transformChunks } from "@ag-ui/client";
import { from } from "rxjs";
import { normalizeChunks } from "../../src/operators/normalizeChunks";
import type { Event } from "../../src/protocol/events";
import * as E from "fp-ts/Either";
import { initialNormalizerState, normalizeStep, passesThrough } from "../../src/operators/normalize/normalizeStep";
import { AS, CUS, MS, RAW, RE, RF, RS, SAE, SAF, SD, SS, STS, TMC, TMS, isRejection, rxc, runSteps, snapshotState, tlc, txc } from "./normalize/notation";

const tag = fc.constantFrom<string | undefined>(undefined, undefined, "s1", "s2", "");
const id = fc.constantFrom<string | undefined>(undefined, "a", "b", "");
const delta = fc.constantFrom<string | undefined>(undefined, "x", "");
const metadata = fc.constantFrom<Record<string, unknown> | undefined>(undefined, undefined, { k: 1 });
const sub = fc.constantFrom("s1", "s2", "");

const optional = <T extends object>(fields: T): Partial<T> =>
  Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Partial<T>; // drops absent members only

const chunk: fc.Arbitrary<Event> = fc.oneof(
  fc.record({ messageId: id, subagentRunId: tag, delta, metadata }).map((f) => txc(optional(f))),
  fc
    .record({ toolCallId: id, toolCallName: fc.constantFrom<string | undefined>(undefined, "f"), subagentRunId: tag, delta, metadata })
    .map((f) => tlc(optional(f))),
  fc.record({ messageId: id, subagentRunId: tag, delta, metadata }).map((f) => rxc(optional(f))),
);
const closer: fc.Arbitrary<Event> = fc.oneof(
  fc.constant(RS()),
  fc.constant(RF()),
  fc.constant(RE()),
  fc.constant(MS()),
  tag.map((t) => SS(t)),
  tag.map((t) => STS("w", t)),
  tag.map((t) => CUS(t)),
  tag.map((t) => RAW(t)),
  tag.map((t) => AS("act", t)),
  sub.map((s) => SAF(s)),
  sub.map((s) => SAE(s)),
);
const stream = fc.array(fc.oneof({ arbitrary: chunk, weight: 4 }, { arbitrary: closer, weight: 1 }), { maxLength: 40 });

const KIND = {
  TEXT_MESSAGE_START: ["text", "start"],
  TEXT_MESSAGE_CONTENT: ["text", "delta"],
  TEXT_MESSAGE_END: ["text", "end"],
  TOOL_CALL_START: ["tool", "start"],
  TOOL_CALL_ARGS: ["tool", "delta"],
  TOOL_CALL_END: ["tool", "end"],
  REASONING_MESSAGE_START: ["reasoning", "start"],
  REASONING_MESSAGE_CONTENT: ["reasoning", "delta"],
  REASONING_MESSAGE_END: ["reasoning", "end"],
} as const;

describe("normalizeStep properties", () => {
  it("output has no chunk; START/END balance per id except what is still open; one stream per lane; tags follow the opener", () => {
    fc.assert(
      fc.property(stream, (input) => {
        const { output, state } = runSteps(input); // also asserts that every rejection left the state unchanged
        const open = new Map<string, string | undefined>(); // "kind id" -> opener tag
        const perLane = new Map<string | undefined, number>();
        for (const item of output) {
          if (isRejection(item)) continue;
          expect(item.type.endsWith("_CHUNK")).toBe(false);
          for (const value of Object.values(item)) expect(value === undefined || value === null).toBe(false);
          if (!(item.type in KIND)) continue;
          const [kind, role] = KIND[item.type as keyof typeof KIND]; // narrowed by the `in` check above
          const key = `${kind} ${"toolCallId" in item ? item.toolCallId : "messageId" in item ? item.messageId : ""}`;
          const itemTag = "subagentRunId" in item ? item.subagentRunId : undefined;
          if (role === "start") {
            expect(open.has(key)).toBe(false);
            open.set(key, itemTag);
            perLane.set(itemTag, (perLane.get(itemTag) ?? 0) + 1);
            expect(perLane.get(itemTag)).toBe(1);
          } else {
            expect(open.has(key)).toBe(true);
            expect(itemTag).toBe(open.get(key));
            if (role === "end") {
              open.delete(key);
              perLane.set(itemTag, (perLane.get(itemTag) ?? 0) - 1);
            }
          }
        }
        // Exactly the streams left open are the state's lanes (C11: nothing closes them at the end).
        expect(new Map([...state.lanes.values()].map((s) => [`${s.kind} ${s.id}`, s.owner]))).toEqual(open);
      }),
      { numRuns: 300 },
    );
  });

  it("in strict mode, agrees with @ag-ui/client transformChunks event for event, and fails at the same chunk", () => {
    process.env.SUPPRESS_TRANSFORMATION_WARNINGS = "true";
    // Structural: the official client's Observable comes from its own rxjs copy.
    const collect = (source: { subscribe(observer: { next: (e: unknown) => void; error: (e: unknown) => void }): unknown }) => {
      const events: unknown[] = [];
      let failed = false;
      source.subscribe({ next: (e) => events.push(e), error: () => (failed = true) });
      return { events, failed };
    };
    fc.assert(
      fc.property(stream, (input) => {
        const official = collect(transformChunks()(from(input) as unknown as Parameters<ReturnType<typeof transformChunks>>[0])); // enum-typed `type`, own rxjs copy
        const ours = collect(from(input).pipe(normalizeChunks()));
        expect(ours).toStrictEqual(official);
      }),
      { numRuns: 300 },
    );
  });
});

describe("passesThrough (the operator's shortcut)", () => {
  const explicit: fc.Arbitrary<Event> = fc.oneof(
    tag.map((t) => TMS("a", t)),
    tag.map((t) => TMC("a", "x", t)),
    tag.map((t) => SD(t)),
    fc.constant(({ type: "THINKING_START" } as const)),
    fc.constant(({ type: "THINKING_TEXT_MESSAGE_CONTENT", delta: "hm" } as const)),
  );
  const mixed = fc.array(fc.oneof({ arbitrary: chunk, weight: 2 }, { arbitrary: closer, weight: 1 }, { arbitrary: explicit, weight: 2 }), { maxLength: 40 });

  it("is true only when normalizeStep would emit the event alone and change nothing", () => {
    fc.assert(
      fc.property(mixed, (input) => {
        let n = 0;
        const state = initialNormalizerState({ newId: () => `id-${++n}` });
        for (const event of input) {
          const shortcut = passesThrough(state, event);
          const before = snapshotState(state);
          const result = normalizeStep(state, event);
          if (shortcut) {
            expect(result).toStrictEqual(E.right({ state, events: [event] }));
            expect(snapshotState(state)).toEqual(before);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it("is false for chunks, THINKING_* and RUN_STARTED, and while a stream is open", () => {
    const state = initialNormalizerState();
    expect(passesThrough(state, SD())).toBe(true);
    expect(passesThrough(state, txc({ messageId: "m", delta: "x" }))).toBe(false);
    expect(passesThrough(state, ({ type: "THINKING_START" } as const))).toBe(false);
    expect(passesThrough(state, RS())).toBe(false);
    normalizeStep(state, txc({ messageId: "m", delta: "x" }));
    expect(passesThrough(state, SD())).toBe(false);
  });
});
