// SSE framing: the spec's line ends, fields and comments, chunk boundaries anywhere, the size limit.
import { from, lastValueFrom, Observable, Subject, toArray } from "rxjs";
import { TestScheduler } from "rxjs/testing";
import { decodeSseFrames, type DecodeSseOptions, type SseFrame } from "../../src/wire/decodeSseFrames";
import { SseFrameReader } from "../../src/wire/SseFrameReader";
import { SseIdField, SseRetryField, type SseControl } from "../../src/wire/SseControl";
import { DecodeError } from "../../src/wire/DecodeError";
import { SSE_BODY, SSE_BODY_FRAMES } from "./sseBody";

const frames = (chunks: (string | Uint8Array)[], options?: DecodeSseOptions): Promise<SseFrame[]> =>
  lastValueFrom(from(chunks).pipe(decodeSseFrames(options), toArray()));

const utf8 = (text: string) => new TextEncoder().encode(text);

describe("framing rules", () => {
  const rows: [string, string, SseFrame[]][] = [
    ["LF", "data: a\n\ndata: b\n\n", [{ data: "a" }, { data: "b" }]],
    ["CRLF", "data: a\r\n\r\ndata: b\r\n\r\n", [{ data: "a" }, { data: "b" }]],
    ["CR", "data: a\r\rdata: b\r\r", [{ data: "a" }, { data: "b" }]],
    ["mixed line ends in one frame", "data: a\rdata: b\r\ndata: c\n\n", [{ data: "a\nb\nc" }]],
    ["multi-line data joined with LF", 'data: {\ndata: "k": 1\ndata: }\n\n', [{ data: '{\n"k": 1\n}' }]],
    ["only one leading space is stripped", "data:   x \n\n", [{ data: "  x " }]],
    ["no space after the colon", "data:x\n\n", [{ data: "x" }]],
    ["a colon inside the value stays", "data: a: b\n\n", [{ data: "a: b" }]],
    ["comments are skipped, a frame of only comments is not emitted", ": hi\n\n:\n\ndata: x\n: inside\n\n", [{ data: "x" }]],
    ["event and id fields are reported", "event: e\nid: 7\ndata: x\n\n", [{ event: "e", id: "7", data: "x" }]],
    ["id and event do not carry over to the next frame", "id: 1\nevent: e\ndata: a\n\ndata: b\n\n", [{ id: "1", event: "e", data: "a" }, { data: "b" }]],
    ["an id with NUL is ignored", "id: a\0b\ndata: x\n\n", [{ data: "x" }]],
    ["retry and unknown fields are tolerated", "retry: 10\nfoo: bar\nbare\ndata: x\n\n", [{ data: "x" }]],
    ["a frame with fields but no data is skipped", "event: ping\nid: 3\n\ndata: x\n\n", [{ data: "x" }]],
    ["an empty data line is a data line", "data:\n\n", [{ data: "" }]],
    ["a bare `data` is an empty data line (spec)", "data\ndata: x\n\n", [{ data: "\nx" }]],
    ["extra blank lines are harmless", "\n\n\ndata: x\n\n\n\n", [{ data: "x" }]],
    ["a last frame without its blank line is discarded at completion (SSE spec)", "data: a\n\ndata: b", [{ data: "a" }]],
    ["a last frame ending in one line end is discarded", "data: a\n", []],
    ["a last frame ending in CR alone is discarded; CR CR ends it", "data: a\rdata: b\r\r", [{ data: "a\nb" }]],
    ["a trailing comment or id without data loses nothing", "data: a\n\n: bye", [{ data: "a" }]],
    ["a byte-order mark at the start is skipped", "\uFEFFdata: x\n\n", [{ data: "x" }]],
    ["a byte-order mark later is data", "data: \uFEFFx\n\n", [{ data: "\uFEFFx" }]],
    ["CRLF inside JSON strings cannot occur, but U+2028 is not a line end", "data: a\u2028b\n\n", [{ data: "a\u2028b" }]],
    ["an empty body", "", []],
  ];
  test.each(rows)("%s", async (_name, body, expected) => {
    expect(await frames([body])).toEqual(expected);
    expect(await frames([utf8(body)])).toEqual(expected);
  });
});

describe("chunk boundaries", () => {
  const bytes = utf8(SSE_BODY);

  test("the body contains what the test claims: multi-byte UTF-8, CRLF, CR, comments, fields", () => {
    for (const piece of ["°", "한", "😀", "\r\n", "\r\r", ":keepalive", "id:", "event:", "retry:"]) expect(SSE_BODY).toContain(piece);
    expect(bytes.length).toBeGreaterThan(SSE_BODY.length); // there are multi-byte characters
  });

  test("in one piece", async () => {
    expect(await frames([SSE_BODY])).toEqual(SSE_BODY_FRAMES);
    expect(await frames([bytes])).toEqual(SSE_BODY_FRAMES);
  });

  test("split into two byte chunks at every position", async () => {
    for (let at = 0; at <= bytes.length; at++) {
      expect([at, await frames([bytes.subarray(0, at), bytes.subarray(at)])]).toEqual([at, SSE_BODY_FRAMES]);
    }
  });

  test("split into two string chunks at every position (surrogate pairs included)", async () => {
    for (let at = 0; at <= SSE_BODY.length; at++) {
      expect([at, await frames([SSE_BODY.slice(0, at), SSE_BODY.slice(at)])]).toEqual([at, SSE_BODY_FRAMES]);
    }
  });

  test("split into three byte chunks at every pair of positions near the CRLFs and multi-byte characters", async () => {
    const awkward: number[] = [];
    for (let i = 0; i < bytes.length; i++) if (bytes[i] === 0x0d || bytes[i] >= 0x80) awkward.push(i, i + 1);
    for (const a of awkward) {
      for (const b of awkward) {
        if (b <= a) continue;
        const chunks = [bytes.subarray(0, a), bytes.subarray(a, b), bytes.subarray(b)];
        expect([a, b, await frames(chunks)]).toEqual([a, b, SSE_BODY_FRAMES]);
      }
    }
  });

  test("in 1-byte chunks", async () => {
    const chunks = Array.from(bytes, (_, i) => bytes.subarray(i, i + 1));
    expect(await frames(chunks)).toEqual(SSE_BODY_FRAMES);
  });

  test("in 1-character string chunks", async () => {
    expect(await frames(SSE_BODY.split(""))).toEqual(SSE_BODY_FRAMES);
  });

  test("a CR at the end of one chunk and an LF at the start of the next are one line end", async () => {
    expect(await frames(["data: a\r", "\ndata: b\n\n"])).toEqual([{ data: "a\nb" }]);
    expect(await frames([utf8("data: a\r"), utf8("\ndata: b\n\n")])).toEqual([{ data: "a\nb" }]);
    // An empty chunk in between does not break the pair.
    expect(await frames(["data: a\r", "", "\ndata: b\n\n"])).toEqual([{ data: "a\nb" }]);
    // A CR then a CR is two line ends: the frame ends.
    expect(await frames(["data: a\r", "\rdata: b\n\n"])).toEqual([{ data: "a" }, { data: "b" }]);
  });

  test("text and byte chunks may be mixed; a code point left unfinished by bytes becomes U+FFFD", async () => {
    expect(await frames(["data: a", utf8("°b\n"), "\n"])).toEqual([{ data: "a°b" }]);
    const euro = utf8("€");
    expect(await frames([utf8("data: x"), euro.subarray(0, 2), "y\n\n"])).toEqual([{ data: "x\uFFFDy" }]);
  });

  test("invalid UTF-8 becomes U+FFFD, also where the bytes stop inside a code point", async () => {
    expect(await frames([new Uint8Array([0x64, 0x61, 0x74, 0x61, 0x3a, 0xff, 0x0a, 0x0a])])).toEqual([{ data: "\uFFFD" }]);
    expect(await frames([utf8("data: a"), new Uint8Array([0xe2, 0x82]), "\n\n"])).toEqual([{ data: "a\uFFFD" }]);
  });

  test("a large frame in many small chunks is joined in linear time", async () => {
    const piece = "x".repeat(4096);
    const chunks = ["data: ", ...Array.from({ length: 2048 }, () => piece), "\n\n"];
    const [frame] = await frames(chunks, { maxFrameBytes: 64 << 20 });
    expect(frame.data.length).toBe(4096 * 2048);
  });
});

describe("frame-size limit", () => {
  test("a frame of exactly the limit passes; one character more fails with frame-too-large", async () => {
    // "data: " + 4 characters = 10 characters
    expect(await frames(["data: abcd\n\n"], { maxFrameBytes: 10 })).toEqual([{ data: "abcd" }]);
    await expect(frames(["data: abcde\n\n"], { maxFrameBytes: 10 })).rejects.toMatchObject({
      name: "DecodeError",
      code: "frame-too-large",
    });
  });

  test("the limit is per frame, not per stream", async () => {
    const body = "data: abcd\n\n".repeat(100);
    expect(await frames([body], { maxFrameBytes: 10 })).toHaveLength(100);
  });

  test("all lines of a frame count, data or not", async () => {
    await expect(frames(["data: a\n: long comment\n\n"], { maxFrameBytes: 12 })).rejects.toBeInstanceOf(DecodeError);
  });

  test("the error says what the limit is and how to change it", async () => {
    const error = await frames(["data: " + "x".repeat(100)], { maxFrameBytes: 50 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DecodeError);
    expect((error as DecodeError).message).toMatch(/frame too large.*50.*maxFrameBytes/);
  });

  test("the error comes when the limit is passed, before the frame ends or the stream completes", () => {
    const chunks = new Subject<string>();
    const seen: unknown[] = [];
    chunks.pipe(decodeSseFrames({ maxFrameBytes: 100 })).subscribe({ next: (f) => seen.push(f), error: (e) => seen.push(e) });
    chunks.next("data: " + "x".repeat(90));
    expect(seen).toEqual([]);
    chunks.next("x".repeat(10));
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ code: "frame-too-large" });
    expect(chunks.observed).toBe(false); // it unsubscribed from the source
  });

  test("a synchronous source sees the unsubscription at its next chunk", () => {
    let pulled = 0;
    const source = new Observable<string>((subscriber) => {
      for (let i = 0; i < 1000 && !subscriber.closed; i++) {
        pulled++;
        subscriber.next("data: " + "x".repeat(100));
      }
      subscriber.complete();
    });
    let error: unknown;
    // eslint-disable-next-line @typescript-eslint/no-unsafe-return -- the error is kept as it came, to be asserted
    source.pipe(decodeSseFrames({ maxFrameBytes: 1000 })).subscribe({ error: (e) => (error = e) });
    expect(error).toBeInstanceOf(DecodeError);
    expect(pulled).toBeLessThanOrEqual(11);
  });

  test("maxFrameBytes must be positive", () => {
    expect(() => decodeSseFrames({ maxFrameBytes: 0 })).toThrow(RangeError);
    expect(() => decodeSseFrames({ maxFrameBytes: Number.NaN })).toThrow(/positive/);
  });
});

describe("as an operator", () => {
  const scheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));

  test("frames come out when their blank line arrives; an unterminated last one is discarded at completion", () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("-a-b-c|", { a: "data: 1\n", b: "\ndata: 2", c: "\n\ndata: 3" });
      expectObservable(source.pipe(decodeSseFrames())).toBe("---x-y|", { x: { data: "1" }, y: { data: "2" } });
      expectSubscriptions(source.subscriptions).toBe("^-----!");
    });
  });

  test("a source error passes through; unsubscribing reaches the source", () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const failing = cold("-a-#", { a: "data: 1\n\n" }, new Error("network"));
      expectObservable(failing.pipe(decodeSseFrames())).toBe("-x-#", { x: { data: "1" } }, new Error("network"));
      const endless = cold("-a-a-a-a-", { a: "data: 1\n\n" });
      expectObservable(endless.pipe(decodeSseFrames()), "^---!").toBe("-x-x", { x: { data: "1" } });
      expectSubscriptions(endless.subscriptions).toBe("^---!");
    });
  });

  test("cold: each subscription decodes on its own", async () => {
    const shared = from(["data: a", "\n\n"]).pipe(decodeSseFrames());
    expect(await lastValueFrom(shared.pipe(toArray()))).toEqual([{ data: "a" }]);
    expect(await lastValueFrom(shared.pipe(toArray()))).toEqual([{ data: "a" }]);
  });
});

test("SseFrameReader, the pure step, works without RxJS", () => {
  const out: SseFrame[] = [];
  const reader = new SseFrameReader(
    1024,
    (frame) => out.push(frame),
    () => false,
  );
  expect(reader.feed("data: a\r")).toBeUndefined();
  reader.feed("\n\r\ndata: b");
  expect(out).toEqual([{ data: "a" }]);
  // the body ends before b's blank line: b is discarded and handed back, for the caller to report
  expect(reader.finish()).toEqual({ data: "b" });
  expect(out).toEqual([{ data: "a" }]);
  expect(reader.finish()).toBeUndefined();
});

describe("stream controls (id: and retry:, for Last-Event-ID)", () => {
  const controlled = (chunks: (string | Uint8Array)[]) => lastValueFrom(from(chunks).pipe(decodeSseFrames({ controls: true }), toArray()));
  const shown = (items: (SseFrame | SseControl)[]) =>
    items.map((item) => (item instanceof SseIdField ? `id=${item.id}` : item instanceof SseRetryField ? `retry=${item.ms}` : `data=${item.data}`));

  const rows: [string, string, string[]][] = [
    ["an id before its frame", "id: c1\ndata: a\n\n", ["id=c1", "data=a"]],
    ["an id on a block without data is still reported (the spec sets the last event ID at dispatch)", "id: c2\n\ndata: b\n\n", ["id=c2", "data=b"]],
    ["a block without an id reports none: the last one stands", "id: c1\ndata: a\n\ndata: b\n\n", ["id=c1", "data=a", "data=b"]],
    ["an empty id clears it", "id: c1\ndata: a\n\nid:\n\n", ["id=c1", "data=a", "id="]],
    ["an id with NUL is ignored", "id: a\0b\ndata: x\n\n", ["data=x"]],
    ["an id without its blank line never counts", "data: a\n\nid: c9\n", ["data=a"]],
    ["the last id line of a block wins", "id: c1\nid: c2\ndata: a\n\n", ["id=c2", "data=a"]],
    ["data before the id, CRLF line ends", "data: a\r\nid: c3\r\n\r\n", ["id=c3", "data=a"]],
    ["retry with digits is reported where it stands", "retry: 1500\ndata: a\n\n", ["retry=1500", "data=a"]],
    ["retry with anything but digits is ignored", "retry: 1.5\nretry: -1\nretry: \ndata: a\n\n", ["data=a"]],
    ["retry on a block of its own", "retry: 20\n\n", ["retry=20"]],
  ];
  test.each(rows)("%s", async (_name, body, expected) => {
    expect(shown(await controlled([body]))).toEqual(expected);
    // split at every position, as bytes: the same reports
    for (let cut = 1; cut < body.length; cut++) {
      const bytes = new TextEncoder().encode(body);
      expect(shown(await controlled([bytes.slice(0, cut), bytes.slice(cut)]))).toEqual(expected);
    }
  });

  test("a frame still carries its own id, with or without controls", async () => {
    expect(await frames(["id: c1\ndata: a\n\n"])).toEqual([{ id: "c1", data: "a" }]);
    expect(await controlled(["id: c1\ndata: a\n\n"])).toEqual([new SseIdField("c1"), { id: "c1", data: "a" }]);
  });

  test("the fast path for id + data frames keeps the frame-size limit", async () => {
    const body = `id: c1\ndata: ${"x".repeat(100)}\n\n`;
    await expect(lastValueFrom(from([body]).pipe(decodeSseFrames({ maxFrameBytes: 50, controls: true }), toArray()))).rejects.toMatchObject({
      code: "frame-too-large",
    });
    expect(shown(await lastValueFrom(from([body]).pipe(decodeSseFrames({ maxFrameBytes: 200, controls: true }), toArray())))).toEqual([
      "id=c1",
      `data=${"x".repeat(100)}`,
    ]);
  });

  test("reset starts over for a new body: nothing of the old one's unfinished block survives", () => {
    const out: string[] = [];
    const reader = new SseFrameReader(
      1024,
      (frame) => out.push(`data=${frame.data}`),
      () => false,
      { onId: (id) => out.push(`id=${id}`), onRetry: (ms) => out.push(`retry=${ms}`) },
    );
    reader.feed("id: c1\ndata: a\n\nid: c2\ndata: half");
    reader.reset();
    reader.feed("\uFEFFdata: b\n\n");
    expect(out).toEqual(["id=c1", "data=a", "data=b"]);
  });
});
