import { isLeft, isRight } from "fp-ts/Either";
import * as fc from "fast-check";
import { escapeSegment, formatPointer, parsePointer } from "../../src/patch/pointer";

describe("parsePointer", () => {
  test.each([
    ["", []],
    ["/", [""]],
    ["/a", ["a"]],
    ["/a/b/0", ["a", "b", "0"]],
    ["/a~1b", ["a/b"]],
    ["/m~0n", ["m~n"]],
    ["/~01", ["~1"]], // RFC 6901 §4: "~1" is decoded before "~0", so "~01" is "~1", never "/"
    ["/~10", ["/0"]],
    ["//x", ["", "x"]],
    ["/ünï/😀", ["ünï", "😀"]],
  ])("%j → %j", (pointer, tokens) => {
    const parsed = parsePointer(pointer);
    expect(parsed).toEqual({ _tag: "Right", right: tokens });
  });

  test.each([
    ["a/b", /start with "\/"/],
    ["/a~2", /"~" not followed by "0" or "1"/],
    ["/a~", /"~" not followed by "0" or "1"/],
    ["/__proto__", /segment "__proto__" is not allowed/],
    ["/a/constructor/x", /segment "constructor" is not allowed/],
    ["/prototype", /segment "prototype" is not allowed/],
    ["/__proto~1_", null], // decodes to "__proto/_", harmless
  ])("%j: rejected with a reason matching %p (null: accepted)", (pointer, reason) => {
    const parsed = parsePointer(pointer);
    if (reason === null) expect(isRight(parsed)).toBe(true);
    else {
      expect(isLeft(parsed)).toBe(true);
      if (isLeft(parsed)) expect(parsed.left).toMatch(reason);
    }
  });

  test("escaped forbidden names are still forbidden once decoded", () => {
    // "~0" and "~1" cannot spell __proto__, but the check runs on the decoded token regardless.
    expect(isLeft(parsePointer("/a/__proto__"))).toBe(true);
  });
});

describe("escapeSegment / formatPointer", () => {
  test.each([
    ["a", "a"],
    ["a/b", "a~1b"],
    ["~", "~0"],
    ["~/", "~0~1"],
    ["", ""],
  ])("%j → %j", (segment, escaped) => expect(escapeSegment(segment)).toBe(escaped));

  test("formatPointer and parsePointer are inverses for allowed segments", () => {
    const segment = fc.string({ unit: "grapheme" }).filter((s) => !["__proto__", "constructor", "prototype"].includes(s));
    fc.assert(
      fc.property(fc.array(fc.oneof(segment, fc.constantFrom("~", "/", "~1", "~0", "a/~b"))), (tokens) => {
        expect(parsePointer(formatPointer(tokens))).toEqual({ _tag: "Right", right: tokens });
      }),
    );
  });
});
