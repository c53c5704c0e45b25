/** The shared SSE frame readers (test/support/sseFrames.ts): frames split at any byte, counted without decoding, and a fetch cut after N frames. */
import { createServer, type Server } from "node:http";
import { FrameCounter, SseFrameSplitter, cuttingFetch } from "./sseFrames";

const BODY = 'id: 1\ndata: {"a":"é"}\n\ndata: {"b":2}\n\ndata: {"c":3}\n\n';
const bytes = new TextEncoder().encode(BODY);

describe("SseFrameSplitter", () => {
  it("hands out the same whole frames wherever the chunks split the bytes, even inside a UTF-8 character", () => {
    for (let cut = 0; cut <= bytes.length; cut++) {
      const splitter = new SseFrameSplitter();
      const frames = [...splitter.push(bytes.subarray(0, cut)), ...splitter.push(bytes.subarray(cut))];
      expect({ cut, frames }).toEqual({ cut, frames: ['id: 1\ndata: {"a":"é"}\n\n', 'data: {"b":2}\n\n', 'data: {"c":3}\n\n'] });
      expect(splitter.rest()).toBe("");
    }
  });

  it("keeps an unfinished frame as the rest", () => {
    const splitter = new SseFrameSplitter();
    expect(splitter.push(new TextEncoder().encode('data: {"a":1}\n\ndata: {"b"'))).toEqual(['data: {"a":1}\n\n']);
    expect(splitter.rest()).toBe('data: {"b"');
  });
});

describe("FrameCounter", () => {
  it("counts frame ends across chunks, and stops right after the limit-th", () => {
    const counter = new FrameCounter();
    expect(counter.add(bytes.subarray(0, 24))).toBe(24);
    const secondEnd = new TextEncoder().encode(BODY.slice(0, BODY.indexOf('data: {"c"'))).length; // bytes, not characters: "é" is two
    expect(counter.add(bytes.subarray(24), 2)).toBe(secondEnd - 24);
    expect(counter.seen).toBe(2);
  });
});

describe("cuttingFetch", () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    server = createServer((_, res) => {
      res.writeHead(200, { "Content-Type": "text/event-stream" });
      res.end(BODY);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    if (address === null || typeof address === "string") throw new Error(`expected a TCP address, but got ${String(address)}`);
    url = `http://127.0.0.1:${address.port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const read = async (response: Response): Promise<{ text: string; error?: string }> => {
    let text = "";
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return { text };
        text += decoder.decode(value, { stream: true });
      }
    } catch (error) {
      return { text, error: String(error) };
    }
  };

  it("delivers the first frames of a run's answer, nothing after them, then fails the body; a /connect passes", async () => {
    const cutting = cuttingFetch(2);
    expect(await read(await cutting.fetch(`${url}/agent`))).toEqual({
      text: BODY.slice(0, BODY.indexOf('data: {"c"')),
      error: "TypeError: terminated (cut after 2 frames)",
    });
    expect(cutting.cutAt()).toBeGreaterThan(0);
    expect(await read(await cutting.fetch(`${url}/agent/connect`))).toEqual({ text: BODY });
  });

  it("cuts only the path and the number of times it is told", async () => {
    const cutting = cuttingFetch(1, { path: "/agent/connect", times: 1 });
    expect(await read(await cutting.fetch(`${url}/agent`))).toEqual({ text: BODY });
    expect((await read(await cutting.fetch(`${url}/agent/connect`))).error).toBe("TypeError: terminated (cut after 1 frames)");
    expect(await read(await cutting.fetch(`${url}/agent/connect`))).toEqual({ text: BODY });
  });
});
