/**
 * The nesting limit at decode (issue #14 C2, client part): deeper JSON is a `too-deep` decode error
 * naming the path and the limit, before anything recursive (io-ts, error excerpts) sees it; never an
 * opaque RangeError. Configurable where decoding is configured.
 */
import * as fc from "fast-check";
import { isLeft } from "fp-ts/Either";
import { from, lastValueFrom, toArray } from "rxjs";
import { DEFAULT_MAX_JSON_DEPTH } from "../../src/protocol/jsonDepth";
import { decodeEvent } from "../../src/wire/decodeEvent";
import { DecodeError } from "../../src/wire/DecodeError";
import { decodeSse } from "../../src/wire/decodeSse";
import { fuzzParameters } from "../support/fuzz";

/** `depth` nested arrays as JSON text: depth 1 is `[]`. */
const nestedText = (depth: number) => "[".repeat(depth) + "]".repeat(depth);
const frame = (json: string) => `data: ${json}\n\n`;

function sseError(body: string, options: { maxDepth?: number } = {}): Promise<DecodeError> {
  return lastValueFrom(from([body]).pipe(decodeSse(options), toArray())).then(
    (events) => Promise.reject(new Error(`expected an error, got ${JSON.stringify(events).slice(0, 200)}`)),
    (error: DecodeError) => error,
  );
}

describe("decodeSse", () => {
  test("a 100,000-deep array in a wrongly typed field: too-deep, naming the path and the limit (it used to be an opaque RangeError)", async () => {
    const error = await sseError(frame(`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":${nestedText(100_000)}}`));
    expect(error).toBeInstanceOf(DecodeError);
    expect([error.code, error.eventType]).toEqual(["too-deep", "TEXT_MESSAGE_CONTENT"]);
    expect(error.path).toBe(`/delta${"/0".repeat(DEFAULT_MAX_JSON_DEPTH - 1)}`);
    expect(error.message).toContain("deeper than 512 levels");
    expect(error.message).toContain("/delta/0/0");
    expect(error.message).not.toMatch(/RangeError|call stack/);
    expect(error.message.length).toBeLessThan(400);
  });

  test("the same in a free-form member (a state snapshot) and in an object nest", async () => {
    const deepObject = '{"a":'.repeat(600) + "1" + "}".repeat(600);
    const error = await sseError(frame(`{"type":"STATE_SNAPSHOT","snapshot":${deepObject}}`));
    expect([error.code, error.path.slice(0, 12)]).toEqual(["too-deep", "/snapshot/a/"]);
  });

  test("the limit is configurable: maxDepth 3 refuses depth 4 and accepts depth 3 (the event object counts as a level)", async () => {
    const at = (depth: number) => frame(`{"type":"STATE_SNAPSHOT","snapshot":${nestedText(depth - 1)}}`);
    expect(await lastValueFrom(from([at(3)]).pipe(decodeSse({ maxDepth: 3 }), toArray()))).toEqual([{ type: "STATE_SNAPSHOT", snapshot: [[]] }]);
    const error = await sseError(at(4), { maxDepth: 3 });
    expect([error.code, error.path]).toEqual(["too-deep", "/snapshot/0/0"]);
    expect(error.message).toContain("deeper than 3 levels");
  });

  test("a maxDepth that is not at least 1 is refused when the operator is made", () => {
    expect(() => decodeSse({ maxDepth: 0 })).toThrow(RangeError);
  });

  test("property: whatever the frame's length, JSON nested deeper than the limit is refused, and within it accepted", async () => {
    const limit = 8;
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 16 }), fc.string({ maxLength: 40 }), async (depth, padding) => {
        // depth counts the event object itself; `padding` varies the frame length around 2 × limit
        const json = `{"type":"CUSTOM","name":${JSON.stringify(padding)},"value":${depth > 1 ? nestedText(depth - 1) : "1"}}`;
        const result = await lastValueFrom(from([frame(json)]).pipe(decodeSse({ maxDepth: limit }), toArray())).then(
          () => "accepted",
          (error: DecodeError) => error.code,
        );
        expect(result).toBe(depth > limit ? "too-deep" : "accepted");
      }),
      fuzzParameters(200),
    );
  });
});

describe("decodeEvent", () => {
  test("applies the default limit to objects too, and takes maxDepth", () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const result = decodeEvent({ type: "CUSTOM", name: "n", value: deep });
    expect(isLeft(result) && [result.left.code, result.left.path.split("/").length - 1]).toEqual(["too-deep", DEFAULT_MAX_JSON_DEPTH]);
    const shallow = decodeEvent({ type: "CUSTOM", name: "n", value: [[1]] }, { maxDepth: 2 });
    expect(isLeft(shallow) && shallow.left.code).toBe("too-deep");
    expect(isLeft(decodeEvent({ type: "CUSTOM", name: "n", value: [1] }, { maxDepth: 2 }))).toBe(false);
  });
});
