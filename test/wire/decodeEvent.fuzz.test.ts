/**
 * Fuzz: random JSON into `decodeEvent` (issue #14 D). It never throws; a Right is a fixed point
 * (decoding it again changes nothing and strips nothing: no stripped property survives, 1.1); a
 * Left has a known code; every warning names a path that is gone from the result.
 */
import * as fc from "fast-check";
import { isLeft, isRight } from "fp-ts/Either";
import { EVENT_TYPES } from "../../src/protocol/events";
import { decodeEvent } from "../../src/wire/decodeEvent";
import type { DecodeWarning } from "../../src/wire/DecodeWarning";
import { ALL_EVENTS } from "../protocol/samples";
import { fuzzParameters } from "../support/fuzz";

/** The value at a JSON Pointer, or `undefined` when there is none. */
function at(value: unknown, pointer: string): unknown {
  if (pointer === "") return value;
  let node = value;
  for (const raw of pointer.slice(1).split("/")) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (typeof node !== "object" || node === null || !Object.prototype.hasOwnProperty.call(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

function check(json: unknown): void {
  const warnings: DecodeWarning[] = [];
  let result: ReturnType<typeof decodeEvent> | undefined;
  expect(() => (result = decodeEvent(json, { onWarning: (w) => warnings.push(w), maxDepth: 64 }))).not.toThrow();
  if (result === undefined) return;
  if (isLeft(result)) {
    expect(["unknown-type", "invalid-event", "not-an-event", "too-deep", "dropped"]).toContain(result.left.code);
    expect(result.left.message).not.toMatch(/RangeError|call stack/);
    return;
  }
  const event = result.right;
  const again: DecodeWarning[] = [];
  const second = decodeEvent(event, { onWarning: (w) => again.push(w) });
  expect(isRight(second) && second.right).toBe(event); // a fixed point: `is` accepts it as it is
  expect(again).toEqual([]);
  for (const warning of warnings) {
    expect(warning.eventType).toBe(event.type);
    // what was removed from an object is gone (a removed list element's index may now hold the next one)
    if (warning.code === "unknown-property") expect(at(event, warning.path)).toBeUndefined();
  }
}

const anyJson = fc.jsonValue({ maxDepth: 5 });
/** A real event with random members added and random members replaced by random JSON. */
const mutatedEvent = fc
  .record({
    event: fc.constantFrom(...ALL_EVENTS),
    extra: fc.dictionary(fc.string({ maxLength: 8 }), anyJson, { maxKeys: 3 }),
    replace: fc.array(fc.tuple(fc.nat(), anyJson), { maxLength: 2 }),
  })
  .map(({ event, extra, replace }) => {
    const copy: Record<string, unknown> = { ...extra, ...JSON.parse(JSON.stringify(event)) };
    const keys = Object.keys(copy).filter((key) => key !== "type");
    for (const [index, value] of replace) if (keys.length > 0) copy[keys[index % keys.length]] = value;
    return copy;
  });
const typedGarbage = fc
  .record({ type: fc.constantFrom(...EVENT_TYPES), rest: fc.dictionary(fc.string({ maxLength: 10 }), anyJson, { maxKeys: 6 }) })
  .map(({ type, rest }) => ({ ...rest, type }));

test("fuzz: arbitrary JSON", () => {
  fc.assert(fc.property(anyJson, check), fuzzParameters(400));
});

test("fuzz: real events with members added and replaced by random JSON", () => {
  fc.assert(fc.property(mutatedEvent, check), fuzzParameters(600));
});

test("fuzz: a known type with random members", () => {
  fc.assert(fc.property(typedGarbage, check), fuzzParameters(400));
});
