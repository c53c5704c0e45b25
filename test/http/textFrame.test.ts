import { TextFrame, encodedUtf8Size, frameSize, utf8Size } from "../../src/server/http/TextFrame";
import { FrameQueue } from "../../src/server/http/FrameQueue";
import { textFrame } from "../../src/server/http/encodeFrame";
import { ev } from "../../src/protocol/build";

const utf8 = new TextEncoder();

describe("TextFrame: a frame held as text, its size counted without encoding it", () => {
  it.each([
    ["ASCII", "data: hello\n\n"],
    ["two-, three- and four-byte characters", "é € 😀 日本"],
    ["a lone surrogate (encoded as U+FFFD, 3 bytes)", "a\ud800b"],
    ["a text longer than the counting buffer, a surrogate pair across its 64 KiB edge", "x".repeat(65_535) + "😀" + "ü".repeat(70_000)],
  ])("utf8Size and its portable form count %s exactly as TextEncoder encodes it", (_, text) => {
    expect(utf8Size(text)).toBe(utf8.encode(text).byteLength);
    expect(encodedUtf8Size(text)).toBe(utf8.encode(text).byteLength);
  });

  it("encodes its bytes once, on first use, matching its size", () => {
    const frame = new TextFrame("data: ü\n\n");
    expect(frameSize(frame)).toBe(10);
    expect(frame.bytes).toBe(frame.bytes);
    expect(frame.bytes.byteLength).toBe(frame.size);
  });

  it("a read of several text frames is one chunk of their text, byte for byte, and the queue's bytes fall by its size", () => {
    const queue = new FrameQueue(undefined);
    const frames = [textFrame(ev.textMessageStart("m1")), textFrame(ev.textMessageContent("m1", "héllo 😀"), "c2"), new TextFrame(": note\n\n")];
    for (const frame of frames) queue.push(frame);
    const expected = frames.map((frame) => frame.text).join("");
    expect(queue.bytes).toBe(utf8.encode(expected).byteLength);
    const chunk = queue.takeChunk();
    expect(new TextDecoder().decode(chunk)).toBe(expected);
    expect(queue.bytes).toBe(0);
    expect(queue.length).toBe(0);
  });

  it("a read mixing text frames and plain byte frames copies each frame's bytes in order", () => {
    const queue = new FrameQueue(undefined);
    queue.push({ bytes: utf8.encode(": heartbeat\n\n") });
    queue.push(textFrame(ev.textMessageEnd("m1")));
    expect(new TextDecoder().decode(queue.takeChunk())).toBe(': heartbeat\n\ndata: {"type":"TEXT_MESSAGE_END","messageId":"m1"}\n\n');
  });
});
