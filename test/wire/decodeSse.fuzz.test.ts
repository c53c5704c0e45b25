/**
 * Fuzz: random bytes into `decodeSse` (issue #14 D). Whatever arrives, the operator never throws,
 * always terminates (completes, or errors with a DecodeError of a known code: never a RangeError),
 * and every event it emits is a decoded, fixed-point value. Fixed seed under `npm test`, random
 * under `npm run fuzz`.
 */
import * as fc from "fast-check";
import { isRight } from "fp-ts/Either";
import { from } from "rxjs";
import { ALL_EVENTS } from "../protocol/samples";
import { decodeEvent } from "../../src/wire/decodeEvent";
import { DecodeError, type DecodeErrorCode } from "../../src/wire/DecodeError";
import { DecodeWarning } from "../../src/wire/DecodeWarning";
import { decodeSse } from "../../src/wire/decodeSse";
import { encodeSse } from "../../src/wire/encodeSse";
import { fuzzParameters } from "../support/fuzz";

const FATAL: ReadonlySet<DecodeErrorCode> = new Set(["unknown-type", "invalid-event", "not-an-event", "json", "frame-too-large", "too-deep", "truncated"]);

/** Runs the operator synchronously over `chunks`: what came out and how it ended. */
function run(chunks: readonly Uint8Array[], maxFrameBytes = 4096) {
  const items: unknown[] = [];
  let end: "complete" | { error: unknown } | undefined;
  from(chunks)
    .pipe(decodeSse({ warnings: true, maxFrameBytes, maxDepth: 16 }))
    .subscribe({ next: (item) => items.push(item), complete: () => (end = "complete"), error: (error: unknown) => (end = { error }) });
  return { items, end };
}

function expectWellBehaved(chunks: readonly Uint8Array[]): void {
  const { items, end } = run(chunks);
  expect(end).toBeDefined(); // a synchronous source always comes to an end
  if (end !== "complete") {
    const error = end?.error;
    expect(error).toBeInstanceOf(DecodeError);
    expect(FATAL.has((error as DecodeError).code)).toBe(true);
    expect((error as DecodeError).message).not.toMatch(/RangeError|call stack/);
  }
  for (const item of items) {
    if (item instanceof DecodeWarning) continue;
    const again = decodeEvent(item);
    expect(isRight(again) && again.right).toBe(item); // already decoded: the very same object
  }
}

const utf8 = new TextEncoder();
/** Bytes that look like SSE: pieces of real frames, field names, line ends and noise. */
const sseish = fc
  .array(
    fc.oneof(
      fc.constantFrom(...ALL_EVENTS.map((event) => encodeSse(event))),
      fc.constantFrom("data: ", "data:", "id: 1\n", "event: x\n", ": c\n", "retry: 5\n", "\n", "\r\n", "\r", "\n\n", "{", "}", "[", '"', "\uFEFF"),
      fc.string({ maxLength: 12 }),
      fc.jsonValue({ maxDepth: 4 }).map((value) => `data: ${JSON.stringify(value)}\n\n`),
    ),
    { maxLength: 30 },
  )
  .map((pieces) => utf8.encode(pieces.join("")));

/** Cuts bytes into chunks at the given positions. */
function cut(bytes: Uint8Array, positions: readonly number[]): Uint8Array[] {
  const at = [...new Set(positions.map((p) => p % (bytes.length + 1)))].sort((a, b) => a - b);
  return [0, ...at].map((start, i, all) => bytes.subarray(start, all[i + 1] ?? bytes.length));
}

test("fuzz: random bytes, split anywhere, never throw and always end with events or a named DecodeError", () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 400 }), fc.array(fc.nat(), { maxLength: 6 }), (bytes, positions) => {
      expectWellBehaved(cut(bytes, positions));
    }),
    fuzzParameters(300),
  );
});

test("fuzz: SSE-shaped bytes (real frames, fields, line ends, random JSON), split anywhere", () => {
  fc.assert(
    fc.property(sseish, fc.array(fc.nat(), { maxLength: 6 }), (bytes, positions) => {
      expectWellBehaved(cut(bytes, positions));
    }),
    fuzzParameters(400),
  );
});
