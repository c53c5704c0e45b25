import { TestScheduler } from "rxjs/testing";
import { catchError, from, map, of, Subject, take, type Observable } from "rxjs";
import { normalizeAndVerify } from "../../src/operators/normalizeAndVerify";
import { normalizeChunks } from "../../src/operators/normalizeChunks";
import { Diagnostic, ProtocolError, isDiagnostic, type InBandReport } from "../../src/operators/ProtocolError";
import type { Event } from "../../src/protocol/events";
import { RF, RMC, RME, RMS, RS, TMC, TME, TMS, counter, tlc, txc } from "./normalize/notation";

const scheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));

/** Diagnostics and errors as plain values, so marbles compare code, rule and the offending event exactly. */
const plain = (value: Event | InBandReport) =>
  isDiagnostic(value) ? { diagnostic: value.error.rule, code: value.error.code, event: value.error.event } : value;
const errorAsValue = (source: Observable<Event | InBandReport>) =>
  source.pipe(
    map(plain),
    catchError((error: unknown) =>
      of(error instanceof ProtocolError ? { error: error.rule, code: error.code, event: error.event } : { unexpected: String(error) }),
    ),
  );

// a opens m1 with "Hi", b continues it, c finishes the run, d would open a tool call without a name (C5).
const a = txc({ messageId: "m1", delta: "Hi" });
const b = txc({ delta: " there" });
const c = RF();
const d = tlc({ toolCallId: "t9", delta: "{" });
const values = { a, b, c, d };
const expanded = { x: TMS("m1"), y: TMC("m1", "Hi"), z: TMC("m1", " there"), w: TME("m1"), c };

describe("normalizeChunks (strict, the default)", () => {
  it("expands chunks in order, closes at the terminal, completes with the source", () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("-a---b---c---|", values);
      expectObservable(source.pipe(normalizeChunks())).toBe("-(xy)z---(wc)|", expanded);
      expectSubscriptions(source.subscriptions).toBe("^------------!");
    });
  });

  it("errors at the first rejected chunk with its ProtocolError and unsubscribes the source", () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("-a---d---c---|", values);
      expectObservable(errorAsValue(source.pipe(normalizeChunks()))).toBe("-(xy)(E|)", {
        ...expanded,
        E: { error: "C5", code: "chunk", event: d },
      });
      expectSubscriptions(source.subscriptions).toBe("^----!");
    });
  });

  it("passes an upstream error through", () => {
    scheduler().run(({ cold, expectObservable }) => {
      expectObservable(cold("-a---#", values, new Error("transport")).pipe(normalizeChunks())).toBe("-(xy)#", expanded, new Error("transport"));
    });
  });

  it("synthesizes no END when the source completes with a lane open (C11)", () => {
    scheduler().run(({ cold, expectObservable }) => {
      expectObservable(cold("-a---|", values).pipe(normalizeChunks())).toBe("-(xy)|", expanded);
    });
  });

  it("subscribes to the source only when subscribed to, and unsubscription reaches it", () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("-a---b---c---|", values);
      expectObservable(source.pipe(normalizeChunks()), "---^-----!").toBe("----(xy)z", expanded);
      expectSubscriptions(source.subscriptions).toBe("---^-----!");
    });
  });

  it("keeps state per subscription: two subscribers to one normalized cold stream do not share lanes", () => {
    scheduler().run(({ cold, expectObservable }) => {
      const normalized = cold("-a---b---|", values).pipe(normalizeChunks());
      expectObservable(normalized).toBe("-(xy)z---|", expanded);
      expectObservable(normalized, "--^").toBe("---(xy)z---|", expanded);
    });
  });

  it("with a synchronous source, nothing is emitted after the error", () => {
    const seen: unknown[] = [];
    let failure: unknown;
    from([a, d, c])
      .pipe(normalizeChunks())
      .subscribe({ next: (e) => seen.push(e), error: (e: unknown) => (failure = e) });
    expect(seen).toStrictEqual([TMS("m1"), TMC("m1", "Hi")]);
    expect(failure).toBeInstanceOf(ProtocolError);
    expect(failure).toMatchObject({ code: "chunk", rule: "C5", event: d });
  });

  it("stops a synchronous source at the error and at a downstream unsubscription", () => {
    let produced = 0;
    const endless = () =>
      from(
        (function* () {
          for (;;) {
            produced++;
            yield produced === 3 ? d : txc({ messageId: "m1", delta: "." });
          }
        })(),
      );
    let failure: unknown;
    endless()
      .pipe(normalizeChunks())
      .subscribe({ error: (e: unknown) => (failure = e) });
    expect(failure).toMatchObject({ rule: "C5" });
    expect(produced).toBe(3);

    produced = 0;
    const taken: (Event | InBandReport)[] = [];
    endless()
      .pipe(normalizeChunks({ mode: "report" }), take(3))
      .subscribe({ next: (e) => taken.push(e) });
    expect(taken).toStrictEqual([TMS("m1"), TMC("m1", "."), TMC("m1", ".")]);
    expect(produced).toBe(2);
  });
});

describe('normalizeChunks({ mode: "report" })', () => {
  it("emits a Diagnostic in place of the rejected chunk and goes on with the lanes unchanged", () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("-a---d---b---c---|", values);
      expectObservable(source.pipe(normalizeChunks({ mode: "report" }), map(plain))).toBe("-(xy)D---z---(wc)|", {
        ...expanded,
        D: { diagnostic: "C5", code: "chunk", event: d },
      });
      expectSubscriptions(source.subscriptions).toBe("^----------------!");
    });
  });

  it("passes incoming Diagnostics through untouched, in position", () => {
    const upstream = new Diagnostic(new ProtocolError("run-lifecycle", "R1", a, "expected RUN_STARTED"));
    scheduler().run(({ cold, expectObservable }) => {
      const source = cold<Event | Diagnostic>("-a---u---c---|", { a, c, u: upstream });
      expectObservable(source.pipe(normalizeChunks({ mode: "report" }))).toBe("-(xy)u---(wc)|", { ...expanded, u: upstream });
    });
  });

  it("emits Diagnostic instances carrying a ProtocolError", () => {
    const out: (Event | InBandReport)[] = [];
    from([d])
      .pipe(normalizeChunks({ mode: "report" }))
      .subscribe((v) => out.push(v));
    expect(out).toHaveLength(1);
    expect(isDiagnostic(out[0])).toBe(true);
    expect(out[0] instanceof Diagnostic && out[0].error).toBeInstanceOf(ProtocolError);
  });

  it("unsubscription reaches the source", () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("-a---d---b---|", values);
      expectObservable(source.pipe(normalizeChunks({ mode: "report" })), "^--!").toBe("-(xy)", expanded);
      expectSubscriptions(source.subscriptions).toBe("^--!");
    });
  });
});

describe("normalizeChunks: THINKING_* through the operator", () => {
  it("maps to REASONING_* with ids from the injected source, closing the parent's chunk lane first", () => {
    const out: Event[] = [];
    from<Event[]>([
      txc({ messageId: "p1", delta: "A" }),
      { type: "THINKING_START", title: "t" },
      { type: "THINKING_TEXT_MESSAGE_START", metadata: { k: 1 } },
      { type: "THINKING_TEXT_MESSAGE_CONTENT", delta: "hm" },
      { type: "THINKING_TEXT_MESSAGE_END" },
      { type: "THINKING_END" },
    ])
      .pipe(normalizeChunks({ newId: counter("n") }))
      .subscribe((e) => out.push(e));
    expect(out).toStrictEqual([
      TMS("p1"),
      TMC("p1", "A"),
      TME("p1"),
      { type: "REASONING_START", messageId: "n1" },
      RMS("n2", undefined, { k: 1 }),
      RMC("n2", "hm"),
      RME("n2"),
      { type: "REASONING_END", messageId: "n1" },
    ]);
    expect(out.some((e) => e.type.startsWith("THINKING_"))).toBe(false);
  });

  it("mints ids with crypto.randomUUID by default", () => {
    const out: Event[] = [];
    of<Event>({ type: "THINKING_START" })
      .pipe(normalizeChunks())
      .subscribe((e) => out.push(e));
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({
      type: "REASONING_START",
      messageId: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
    });
  });

  it("does not carry thinking ids from one subscription to the next", () => {
    const newId = counter("n");
    const normalized = from<Event[]>([{ type: "THINKING_START" }]).pipe(normalizeChunks({ newId }));
    normalized.subscribe();
    const out: Event[] = [];
    from<Event[]>([{ type: "THINKING_END" }])
      .pipe(normalizeChunks({ newId }))
      .subscribe((e) => out.push(e));
    // A leaked span would end "n1"; a fresh subscription has no span open and mints "n2".
    expect(out).toStrictEqual([{ type: "REASONING_END", messageId: "n2" }]);
  });
});

describe("normalizeChunks: overloads (checked by tsc in test/types/typecheck.test.ts)", () => {
  it("types strict output as events and report output as events or diagnostics", () => {
    const source = of<Event>(a);
    const strict: Observable<Event> = source.pipe(normalizeChunks());
    const explicit: Observable<Event> = source.pipe(normalizeChunks({ mode: "strict" }));
    const reported: Observable<Event | InBandReport> = source.pipe(normalizeChunks({ mode: "report" }));
    // @ts-expect-error report mode may emit a Diagnostic, so its output is not Observable<Event>
    const wrong: Observable<Event> = source.pipe(normalizeChunks({ mode: "report" }));
    expect([strict, explicit, reported, wrong].every((o) => typeof o.subscribe === "function")).toBe(true);
  });
});

describe("normalizeChunks: a throw inside the per-event step errors the output (C7)", () => {
  it.each(["strict", "report"] as const)(
    "%s: a newId that throws while THINKING_* is mapped reaches the subscriber's error, not the producer's next()",
    (mode) => {
      const failure = new Error("no ids today");
      const source = new Subject<Event>();
      const out: unknown[] = [];
      const normalize =
        mode === "report"
          ? normalizeChunks({
              mode,
              newId: () => {
                throw failure;
              },
            })
          : normalizeChunks({
              newId: () => {
                throw failure;
              },
            });
      normalize(source).subscribe({ next: (e) => out.push(e), error: (error: unknown) => out.push({ error }) });
      source.next(txc({ messageId: "m1", delta: "A" }));
      expect(() => source.next({ type: "THINKING_START" })).not.toThrow();
      expect(out).toEqual([TMS("m1"), TMC("m1", "A"), { error: failure }]);
      expect(source.observed).toBe(false); // the output errored and let go of the source
      source.next(txc({ delta: "B" }));
      expect(out).toHaveLength(3);
    },
  );

  it("the fused client stage (normalizeAndVerify) does the same", () => {
    const failure = new Error("no ids today");
    const source = new Subject<Event>();
    const out: unknown[] = [];
    normalizeAndVerify({
      newId: () => {
        throw failure;
      },
    })(source).subscribe({ next: (e) => out.push(e), error: (error: unknown) => out.push({ error }) });
    source.next(RS());
    expect(() => source.next({ type: "THINKING_START" })).not.toThrow();
    expect(out).toEqual([RS(), { error: failure }]);
    expect(source.observed).toBe(false);
  });
});
