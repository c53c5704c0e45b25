// decodeSse: bytes to events. Round trips of every type, errors, marbles for order, error,
// completion and unsubscription.
import * as fc from "fast-check";
import { from, lastValueFrom, of, toArray } from "rxjs";
import { TestScheduler } from "rxjs/testing";
import type { Event, EventType } from "../../src/protocol/events";
import { decodeSse } from "../../src/wire/decodeSse";
import { SseIdField, SseRetryField } from "../../src/wire/SseControl";
import { DecodeError } from "../../src/wire/DecodeError";
import { encodeSse } from "../../src/wire/encodeSse";
import { ALL_EVENTS } from "../protocol/samples";
import { SSE_BODY, SSE_BODY_EVENTS } from "./sseBody";

const decodeAll = (chunks: (string | Uint8Array)[]): Promise<Event[]> => lastValueFrom(from(chunks).pipe(decodeSse(), toArray()));
const failure = (chunks: (string | Uint8Array)[]): Promise<DecodeError> =>
  decodeAll(chunks).then(
    (events) => Promise.reject(new Error(`expected an error, got ${JSON.stringify(events)}`)),
    (error: DecodeError) => error,
  );

describe("every event type round-trips: build → encodeSse → decodeSse → the same value", () => {
  const byType = new Map<EventType, Event[]>();
  for (const event of ALL_EVENTS) byType.set(event.type, [...(byType.get(event.type) ?? []), event]);

  test("all 36 types are covered", () => expect(byType.size).toBe(36));

  test.each([...byType.keys()])("%s", async (type) => {
    const samples = byType.get(type) ?? [];
    expect(await decodeAll(samples.map(encodeSse))).toEqual(samples);
  });

  test("all samples in one body, as UTF-8 bytes cut into 7-byte chunks", async () => {
    const bytes = new TextEncoder().encode(ALL_EVENTS.map(encodeSse).join(""));
    const chunks: Uint8Array[] = [];
    for (let i = 0; i < bytes.length; i += 7) chunks.push(bytes.subarray(i, i + 7));
    expect(await decodeAll(chunks)).toEqual(ALL_EVENTS);
  });
});

describe("chunk boundaries", () => {
  const bytes = new TextEncoder().encode(SSE_BODY);

  test("the framing fixture split into two at every byte position decodes to the same events", async () => {
    for (let at = 0; at <= bytes.length; at++) {
      expect([at, await decodeAll([bytes.subarray(0, at), bytes.subarray(at)])]).toEqual([at, SSE_BODY_EVENTS]);
    }
  });

  test("and in 1-byte chunks", async () => {
    expect(await decodeAll(Array.from(bytes, (_, i) => bytes.subarray(i, i + 1)))).toEqual(SSE_BODY_EVENTS);
  });
});

test("property: any events with any text, cut into bytes at any positions, decode to themselves", async () => {
  const text = fc.string({ unit: "binary", maxLength: 40 }); // any code points, astral and control characters included
  const event = fc.oneof(
    fc.constantFrom(...ALL_EVENTS),
    fc.record({ messageId: text, delta: text }).map(({ messageId, delta }): Event => ({ type: "TEXT_MESSAGE_CONTENT", messageId, delta })),
    fc.record({ name: text, value: fc.jsonValue() }).map(({ name, value }): Event => ({ type: "CUSTOM", name, value })),
  );
  await fc.assert(
    fc.asyncProperty(fc.array(event, { maxLength: 12 }), fc.array(fc.nat(), { maxLength: 8 }), async (events, cuts) => {
      const bytes = new TextEncoder().encode(events.map(encodeSse).join(""));
      const positions = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
      const chunks = [0, ...positions].map((start, i, all) => bytes.subarray(start, all[i + 1] ?? bytes.length));
      // JSON turns -0 into 0; compare with what JSON itself gives back.
      expect(await decodeAll(chunks)).toEqual(JSON.parse(JSON.stringify(events)));
    }),
    { numRuns: 300 },
  );
});

describe("errors", () => {
  test("data that is not JSON: code json, the message says so and quotes the payload's start", async () => {
    const error = await failure(['data: {"type": nope, and a long tail ' + "x".repeat(200) + "\n\n"]);
    expect(error).toBeInstanceOf(DecodeError);
    expect(error.code).toBe("json");
    expect(error.message).toContain("not JSON");
    expect(error.message).toContain('{\\"type\\": nope, and a long tail');
    expect(error.message.length).toBeLessThan(250);
  });

  test("an empty data line is not JSON", async () => {
    expect((await failure(["data:\n\n"])).code).toBe("json");
  });

  test("an unknown type: the message contains the type verbatim", async () => {
    const error = await failure(['data: {"type":"TELEPATHY_START"}\n\n']);
    expect([error.code, error.eventType]).toEqual(["unknown-type", "TELEPATHY_START"]);
    expect(error.message).toContain("TELEPATHY_START");
  });

  test("an invalid event: decodeEvent's error, with type and path", async () => {
    const error = await failure(['data: {"type":"TEXT_MESSAGE_CONTENT","messageId":"m"}\n\n']);
    expect([error.code, error.eventType, error.path]).toEqual(["invalid-event", "TEXT_MESSAGE_CONTENT", "/delta"]);
  });

  test("JSON that is not an event object", async () => {
    expect((await failure(["data: [1,2]\n\n"])).code).toBe("not-an-event");
    expect((await failure(["data: null\n\n"])).code).toBe("not-an-event");
  });

  test("a frame over the limit", async () => {
    const error = await lastValueFrom(from(["data: " + "x".repeat(100)]).pipe(decodeSse({ maxFrameBytes: 50 }))).catch((e: DecodeError) => e);
    expect(error).toMatchObject({ name: "DecodeError", code: "frame-too-large" });
  });

  test("event: and id: fields do not matter; every data frame is an event", async () => {
    expect(await decodeAll(['event: weird\nid: 1\ndata: {"type":"STEP_STARTED","stepName":"s"}\n\n'])).toEqual([{ type: "STEP_STARTED", stepName: "s" }]);
  });
});

describe("marbles", () => {
  const scheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
  const chunks = {
    a: 'data: {"type":"STEP_STARTED","stepName":"s"}\n',
    b: '\ndata: {"type":"STEP_FINISHED",',
    c: '"stepName":"s"}\n\n',
    d: 'data: {"type":"RUN_ERROR","message":"m"}',
    x: "data: {oops}\n\n",
  };
  const events = {
    S: { type: "STEP_STARTED", stepName: "s" },
    F: { type: "STEP_FINISHED", stepName: "s" },
    E: { type: "RUN_ERROR", message: "m" },
  };

  test("events come out in order, as their frames end; a body cut before the last frame's blank line errors truncated", () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("-a-b-c-d|", chunks);
      expectObservable(source.pipe(decodeSse())).toBe("---S-F--#", events, expect.objectContaining({ name: "DecodeError", code: "truncated" }));
      expectSubscriptions(source.subscriptions).toBe("^-------!");
    });
  });

  test("a bad frame errors the stream after the events before it, and unsubscribes the source", () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("-a-b-c-x-a-b-c|", chunks);
      expectObservable(source.pipe(decodeSse())).toBe("---S-F-#", events, expect.objectContaining({ name: "DecodeError", code: "json" }));
      expectSubscriptions(source.subscriptions).toBe("^------!");
    });
  });

  test("a source error passes through unchanged", () => {
    scheduler().run(({ cold, expectObservable }) => {
      const source = cold("-a-b-#", chunks, new TypeError("socket closed"));
      expectObservable(source.pipe(decodeSse())).toBe("---S-#", events, new TypeError("socket closed"));
    });
  });

  test("unsubscribing reaches the source", () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("-a-b-c-a-b-c-", chunks);
      expectObservable(source.pipe(decodeSse()), "^----!").toBe("---S-", events);
      expectSubscriptions(source.subscriptions).toBe("^----!");
    });
  });

  test("cold: two subscribers each get every event, with their own decoder state", () => {
    scheduler().run(({ cold, expectObservable }) => {
      const source = cold("-a-b-c|", chunks);
      const decoded = source.pipe(decodeSse());
      expectObservable(decoded).toBe("---S-F|", events);
      expectObservable(decoded, "--^").toBe("-----S-F|", events);
    });
  });
});

test("controls: true puts each id: right before the event its block carries, and retry: where it stands", async () => {
  const body =
    'retry: 250\nid: c1\ndata: {"type":"RUN_STARTED","threadId":"t","runId":"r"}\n\nid: c2\n\n: ping\n\nid: c3\ndata: {"type":"RUN_FINISHED","threadId":"t","runId":"r"}\n\n';
  const items = await lastValueFrom(of(body).pipe(decodeSse({ controls: true }), toArray()));
  expect(items).toEqual([
    new SseRetryField(250),
    new SseIdField("c1"),
    { type: "RUN_STARTED", threadId: "t", runId: "r" },
    new SseIdField("c2"),
    new SseIdField("c3"),
    { type: "RUN_FINISHED", threadId: "t", runId: "r" },
  ]);
  // without the option, the same body decodes to its events only
  expect(await lastValueFrom(of(body).pipe(decodeSse(), toArray()))).toEqual([items[2], items[5]]);
});
