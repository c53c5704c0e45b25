/**
 * Properties of the chunk normalizer over random streams of chunks mixed with the events that
 * close lanes: the output holds no chunk, every START/END pair is balanced per id except the
 * streams still open at the end, each lane holds at most one stream, and tags stay with their
 * opener. A differential property checks strict-mode output against @ag-ui/client's transformChunks.
 */
import fc from "fast-check";
import { transformChunks } from "@ag-ui/client";
import { from } from "rxjs";
import { normalizeChunks } from "../../src/operators/normalizeChunks";
import type { Event } from "../../src/protocol/events";
import * as E from "fp-ts/Either";
import { initialNormalizerState, normalizeStep, passesThrough } from "../../src/operators/normalize/normalizeStep";
import { Diagnostic, isInBandReport, type InBandReport } from "../../src/operators/ProtocolError";
import { normalizeAndVerify } from "../../src/operators/normalizeAndVerify";
import {
  AS,
  CUS,
  MS,
  RAW,
  RE,
  REND,
  RF,
  RME,
  RMS,
  RS,
  RST,
  SAE,
  SAF,
  SD,
  SS,
  STS,
  TMC,
  TMS,
  isRejection,
  rxc,
  runSteps,
  snapshotState,
  tlc,
  txc,
  withoutBrackets,
} from "./normalize/notation";

const tag = fc.constantFrom<string | undefined>(undefined, undefined, "s1", "s2", "");
const id = fc.constantFrom<string | undefined>(undefined, "a", "b", "");
const delta = fc.constantFrom<string | undefined>(undefined, "x", "");
const metadata = fc.constantFrom<Record<string, unknown> | undefined>(undefined, undefined, { k: 1 });
const sub = fc.constantFrom("s1", "s2", "");

const optional = <T extends object>(fields: T): Partial<T> => Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Partial<T>; // drops absent members only

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
        // The listed R22 difference: ours brackets the reasoning messages it synthesizes; 1.0.0 does not.
        expect({ ...ours, events: withoutBrackets(ours.events) }).toStrictEqual(official);
      }),
      { numRuns: 300 },
    );
  });
});

describe("the normalizer's output is itself valid (docs/rules.md#chunks), reasoning blocks included (R22)", () => {
  // Ids are scoped by owner so that no tagged event names another owner's id (an ownership fault of the
  // input, R38); untagged events may name any owner's id, which the verifier then attributes to that owner.
  const base = fc.constantFrom("a", "b");
  const scoped = (owner: string | undefined, name: string) => `${owner ?? "P"}-${name}`;
  const idFor = (t: string | undefined, names: fc.Arbitrary<string> = base) =>
    t === undefined ? fc.tuple(fc.constantFrom<string | undefined>(undefined, "s1", ""), names).map(([o, b]) => scoped(o, b)) : names.map((b) => scoped(t, b));
  // Explicit reasoning messages get names of their own: one message is never spelled both ways (AG-UI 1.1 streaming).
  const explicitNames = fc.constantFrom("x", "y");
  const owner = fc.constantFrom<string | undefined>(undefined, undefined, "s1", "");
  const reasoningChunk = owner.chain((t) =>
    fc.record({ messageId: fc.option(idFor(t), { nil: undefined }), delta, metadata }).map((f) => rxc(optional({ ...f, subagentRunId: t }))),
  );
  const textChunk = owner.chain((t) => fc.record({ messageId: idFor(t), delta }).map((f) => txc(optional({ ...f, subagentRunId: t }))));
  const explicitReasoning: fc.Arbitrary<Event> = owner.chain((t) =>
    fc.oneof(
      idFor(t).map((i) => RST(i, t)),
      idFor(t).map((i) => REND(i, t)),
      idFor(t, explicitNames).map((i) => RMS(i, t)),
      idFor(t, explicitNames).map((i) => RME(i, t)),
      idFor(t).map((i) => MS([{ id: i, role: "reasoning", content: "", ...(t === undefined ? {} : { subagentRunId: t }) }])),
    ),
  );
  const thinking = fc.constantFrom<Event>(
    { type: "THINKING_START" },
    { type: "THINKING_TEXT_MESSAGE_START" },
    { type: "THINKING_TEXT_MESSAGE_END" },
    { type: "THINKING_END" },
  );
  const laneCloser = fc.oneof(
    fc.constant(MS()),
    owner.map((t) => STS("w", t)),
    owner.map((t) => CUS(t)),
    fc.constantFrom("s1", "").map((s) => SAF(s)),
  );
  const run = fc
    .array(
      fc.oneof(
        { arbitrary: reasoningChunk, weight: 5 },
        { arbitrary: textChunk, weight: 1 },
        { arbitrary: explicitReasoning, weight: 2 },
        { arbitrary: thinking, weight: 1 },
        { arbitrary: laneCloser, weight: 1 },
      ),
      { maxLength: 20 },
    )
    .chain((events) => fc.constantFrom<Event>(RF(), RE()).map((end) => [RS(), ...events, end]));
  const runs = fc.array(run, { minLength: 1, maxLength: 3 }).map((list) => list.flat()); // blocks and owners are per run

  it("when no event of the input is refused, nothing of the output is: the blocks it opens around chunk messages included", () => {
    let valid = 0;
    let bracketed = 0;
    fc.assert(
      fc.property(runs, (input) => {
        const given = new Set<unknown>(input);
        const minted = (event: unknown) =>
          typeof event === "object" && event !== null && "messageId" in event && typeof event.messageId === "string" && event.messageId.startsWith("id-"); // from a THINKING_* event
        let n = 0;
        const output: (Event | InBandReport)[] = [];
        from(input)
          .pipe(normalizeAndVerify({ newId: () => `id-${++n}` }))
          .subscribe((item) => output.push(item));
        const diagnostics = output.filter((item): item is Diagnostic => item instanceof Diagnostic);
        // The input was not valid: one of its own events was refused, or an ownership fault surfaced on an
        // expansion (a synthesized opener conflicts only where the chunk's own START would, R38).
        if (diagnostics.some((d) => given.has(d.error.event) || minted(d.error.event) || d.error.code === "ownership")) return;
        valid += 1;
        if (output.some((item) => !given.has(item) && !isInBandReport(item) && item.type === "REASONING_START")) bracketed += 1;
        expect(diagnostics.map((d) => `${d.error.rule}: ${d.error.message}`)).toEqual([]);
      }),
      { numRuns: 1000 },
    );
    // Not vacuous: enough valid inputs, many of them with blocks the normalizer opened.
    expect(valid).toBeGreaterThan(80);
    expect(bracketed).toBeGreaterThan(40);
  });
});

describe("passesThrough (the operator's shortcut)", () => {
  const explicit: fc.Arbitrary<Event> = fc.oneof(
    tag.map((t) => TMS("a", t)),
    tag.map((t) => TMC("a", "x", t)),
    tag.map((t) => SD(t)),
    fc.constant({ type: "THINKING_START" } as const),
    fc.constant({ type: "THINKING_TEXT_MESSAGE_CONTENT", delta: "hm" } as const),
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
    expect(passesThrough(state, { type: "THINKING_START" } as const)).toBe(false);
    expect(passesThrough(state, RS())).toBe(false);
    normalizeStep(state, txc({ messageId: "m", delta: "x" }));
    expect(passesThrough(state, SD())).toBe(false);
  });
});
