/** `encodeChunk`: a read's text as bytes cut from a shared slab; chunks never overlap, survive later chunks, and a detached slab is replaced. */
import { encodeChunk } from "../../src/server/http/encodeChunk";
import { utf8Size } from "../../src/server/http/TextFrame";

const decode = (chunk: Uint8Array) => new TextDecoder().decode(chunk);

describe("encodeChunk", () => {
  it("keeps every chunk's bytes while later chunks are cut, across a slab's end", () => {
    const texts = Array.from({ length: 200 }, (_, i) => `data: {"n":${i},"s":"${"é".repeat(i * 3)}"}\n\n`);
    const chunks = texts.map((text) => encodeChunk(text, utf8Size(text)));
    expect(chunks.map(decode)).toEqual(texts);
    expect(new Set(chunks.map((chunk) => chunk.buffer)).size).toBeGreaterThan(1); // more than a slab (8 KiB) in all: a second slab
  });

  it("gives a chunk larger than a slab a buffer of its own", () => {
    const text = "x".repeat(9_000);
    const chunk = encodeChunk(text, text.length);
    expect(chunk.byteLength).toBe(9_000);
    expect(chunk.byteOffset).toBe(0);
    expect(chunk.buffer.byteLength).toBe(9_000);
  });

  it("starts a fresh slab when a reader transferred (detached) the last one", () => {
    const first = encodeChunk("data: 1\n\n", 9);
    structuredClone(first.buffer, { transfer: [first.buffer] });
    expect(first.byteLength).toBe(0);
    expect(decode(encodeChunk("data: 2\n\n", 9))).toBe("data: 2\n\n");
  });

  it("throws rather than hand out wrong bytes when the size given is not the text's", () => {
    expect(() => encodeChunk("é", 1)).toThrow("expected 1 bytes of UTF-8 for a chunk of 1 characters, but encoded 0");
  });
});
