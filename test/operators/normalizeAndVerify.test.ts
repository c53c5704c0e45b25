/**
 * normalizeAndVerify is the Session's fused form of normalizeChunks + verifyEvents (report mode):
 * it must emit exactly what the two public operators emit, item for item, on any stream.
 */
import fc from "fast-check";
import { from, Observable, Subject, take, type OperatorFunction } from "rxjs";
import { normalizeAndVerify } from "../../src/operators/normalizeAndVerify";
import { normalizeChunks } from "../../src/operators/normalizeChunks";
import { verifyEvents } from "../../src/operators/verifyEvents";
import { Diagnostic, ProtocolError, type InBandReport } from "../../src/operators/ProtocolError";
import type { Event } from "../../src/protocol/events";
import { ev } from "../../src/protocol/build";
import { applyMutation, eventsOf, mutated } from "./verify/generate";
import { RF, RS, SD, TMC, TME, TMS, counter, rxc, tlc, txc } from "./normalize/notation";

type Item = Event | InBandReport;

/** Everything a pipeline emits for `input`, with its end: diagnostics as their rule. */
function run(input: readonly Item[], operator: OperatorFunction<Item, Item>): unknown[] {
  const out: unknown[] = [];
  from(input)
    .pipe(operator)
    .subscribe({
      next: (item) => out.push(item instanceof Diagnostic ? { diagnostic: item.error.rule, code: item.error.code, message: item.error.message } : item),
      error: (error: unknown) => out.push({ error }),
      complete: () => out.push("complete"),
    });
  return out;
}

const composed = (): OperatorFunction<Item, Item> => (source) =>
  source.pipe(normalizeChunks({ mode: "report", newId: counter() }), verifyEvents({ mode: "report" }));
const fused = (): OperatorFunction<Item, Item> => normalizeAndVerify({ newId: counter() });

const tag = fc.constantFrom<string | undefined>(undefined, "s1");
const id = fc.constantFrom<string | undefined>(undefined, "a", "b");
const item: fc.Arbitrary<Item> = fc.oneof(
  fc.record({ messageId: id, subagentRunId: tag, delta: fc.constantFrom<string | undefined>(undefined, "x") }).map((f) => txc(strip(f))),
  fc.record({ toolCallId: id, toolCallName: fc.constantFrom<string | undefined>(undefined, "f") }).map((f) => tlc(strip(f))),
  fc.record({ messageId: id }).map((f) => rxc(strip(f))),
  fc.constantFrom<Item>(
    RS(),
    RF(),
    SD(),
    TMS("a"),
    TMC("a", "y"),
    TME("a"),
    ev.runError("boom"),
    { type: "THINKING_START" },
    new Diagnostic(new ProtocolError("chunk", "C5", ev.runStarted("t", "r"), "from upstream")),
  ),
);

function strip<T extends object>(fields: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  // the builders' optional members must be absent rather than undefined
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as { [K in keyof T]: Exclude<T[K], undefined> };
}

describe("normalizeAndVerify", () => {
  it("emits exactly what normalizeChunks + verifyEvents (report) emit, on chunked streams", () => {
    fc.assert(
      fc.property(fc.array(item, { maxLength: 40 }), (input) => {
        expect(run(input, fused())).toStrictEqual(run(input, composed()));
      }),
      { numRuns: 300 },
    );
  });

  it("emits exactly the same on verifier streams, valid and with an event deleted or duplicated", () => {
    fc.assert(
      fc.property(mutated, ({ stream, mutation }) => {
        for (const input of [eventsOf(stream), applyMutation(eventsOf(stream), mutation)]) {
          expect(run(input, fused())).toStrictEqual(run(input, composed()));
        }
      }),
      { numRuns: 100 },
    );
  });

  it("passes errors through, and stops a synchronous source as soon as the output is closed, as the pair does", () => {
    const boom = new Error("boom");
    const failing = new Observable<Item>((subscriber) => subscriber.error(boom));
    expect(run([], () => failing.pipe(normalizeAndVerify()))).toStrictEqual([{ error: boom }]);
    const pulledThrough = (operator: OperatorFunction<Item, Item>): number => {
      let pulled = 0;
      const source = new Observable<Item>((subscriber) => {
        for (const event of [RS(), TMS("a"), TMC("a", "1"), TMC("a", "2"), TME("a"), RF()]) {
          if (subscriber.closed) return;
          pulled++;
          subscriber.next(event);
        }
        subscriber.complete();
      });
      source.pipe(operator, take(2)).subscribe();
      return pulled;
    };
    expect(pulledThrough(fused())).toBe(2);
    expect(pulledThrough(composed())).toBe(2);
    const subject = new Subject<Item>();
    const live = subject.pipe(normalizeAndVerify()).subscribe();
    live.unsubscribe();
    expect(subject.observed).toBe(false);
  });
});
