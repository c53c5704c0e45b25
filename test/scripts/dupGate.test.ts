/**
 * The copy-paste gate (scripts/gates/duplication.ts, docs/packaging.md#the-copy-paste-gate): more
 * pairs than the budget fails, as many or fewer passes, and jscpd's real report is read.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { checkDuplication, findClonePairs, isDeclarationList, isListMatchingItself, parseJscpdReport, type ClonePair } from "../../scripts/gates/duplication";

const pair = (file: string): ClonePair => ({ first: { file, start: 1, end: 8 }, second: { file: "other.ts", start: 10, end: 17 }, lines: 8 });

describe("checkDuplication", () => {
  it("passes as many pairs as the budget allows, listing each", () => {
    const verdict = checkDuplication([pair("a.ts"), pair("b.ts")], { maxPairs: 2 });
    expect(verdict.ok).toBe(true);
    expect(verdict.lines).toEqual([
      "a.ts:1-8 ~ other.ts:10-17 (8 lines)",
      "b.ts:1-8 ~ other.ts:10-17 (8 lines)",
      "copy-paste gate: 2 pairs of repeated blocks in src/ (budget 2)",
      "copy-paste gate: passed",
    ]);
  });

  it("passes fewer pairs and says the budget can come down", () => {
    expect(checkDuplication([pair("a.ts")], { maxPairs: 5 }).lines.at(-1)).toBe("copy-paste gate: passed; lower duplication.maxPairs in budgets.json to 1");
  });

  it("fails one pair over the budget", () => {
    const verdict = checkDuplication([pair("a.ts"), pair("b.ts")], { maxPairs: 1 });
    expect(verdict.ok).toBe(false);
    expect(verdict.lines.at(-1)).toBe("copy-paste gate: FAILED: expected at most 1 pairs, but found 2; make one piece of code serve both places");
  });
});

describe("isListMatchingItself", () => {
  it("is true for a run that overlaps its own match in one file, and false for copies apart or in two files", () => {
    const at = (file: string, start: number, end: number) => ({ file, start, end });
    expect(isListMatchingItself({ first: at("events.ts", 72, 106), second: at("events.ts", 73, 107), lines: 35 })).toBe(true);
    expect(isListMatchingItself({ first: at("apply.ts", 99, 110), second: at("apply.ts", 120, 131), lines: 12 })).toBe(false);
    expect(isListMatchingItself({ first: at("a.ts", 1, 10), second: at("b.ts", 5, 14), lines: 10 })).toBe(false);
    expect(isListMatchingItself({ first: at("parts.ts", 36, 48), second: at("parts.ts", 48, 63), lines: 13 })).toBe(false);
  });
});

describe("isDeclarationList", () => {
  const files: Record<string, string[]> = {
    "a.ts": ["export interface A {", "  /** How many. */", "  readonly count?: number | undefined;", "  readonly label?: string | undefined;", "}"],
    "b.ts": ["export interface B {", "  // the cap", "  readonly max?: number | undefined;", "  readonly name?: string | undefined;", "}"],
    "c.ts": ["function c() {", "  const max = 1;", "  readonly name?: string | undefined;", "  return max;", "}"],
  };
  const lines = (file: string) => files[file];
  const at = (file: string, start: number, end: number) => ({ file, start, end });

  it("is true when both places hold only declarations and comments, false when either holds a statement", () => {
    expect(isDeclarationList({ first: at("a.ts", 1, 5), second: at("b.ts", 1, 5), lines: 5 }, lines)).toBe(true);
    expect(isDeclarationList({ first: at("a.ts", 1, 5), second: at("c.ts", 1, 5), lines: 5 }, lines)).toBe(false);
  });
});

describe("parseJscpdReport", () => {
  it("names what is missing from a report of another shape", () => {
    expect(() => parseJscpdReport({ clones: [] })).toThrow("expected a jscpd report with a duplicates array, but got nothing");
    expect(() =>
      parseJscpdReport({ duplicates: [{ firstFile: { name: "a.ts", start: 1, end: 2 }, secondFile: { name: "b.ts", start: 1 }, lines: 6 }] }),
    ).toThrow("expected duplicates[0].secondFile.end to be a whole number, but got nothing");
  });
});

describe("findClonePairs", () => {
  const root = mkdtempSync(join(tmpdir(), "agui-rx-dup-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("runs jscpd with the folder's .jscpd.json and reports a block repeated with other names", () => {
    mkdirSync(join(root, "src"));
    const block = (name: string) =>
      [
        `export function ${name}(items: readonly number[], limit: number): number[] {`,
        "  const kept: number[] = [];",
        "  for (const item of items) {",
        "    if (item > limit) continue;",
        "    if (kept.includes(item)) continue;",
        "    kept.push(item * 2 + 1);",
        "  }",
        "  kept.sort((a, b) => a - b);",
        "  return kept;",
        "}",
      ].join("\n");
    writeFileSync(join(root, "src", "first.ts"), `${block("first")}\n`);
    writeFileSync(join(root, "src", "second.ts"), `// another file\n${block("second")}\n`);
    writeFileSync(join(root, "src", "alone.ts"), "export const alone = 1;\n");
    writeFileSync(
      join(root, ".jscpd.json"),
      JSON.stringify({ path: ["src"], format: ["typescript"], minLines: 6, ignoreIdentifiers: true, reporters: ["console"] }),
    );
    const pairs = findClonePairs(root);
    expect(pairs).toHaveLength(1);
    expect([pairs[0].first.file, pairs[0].second.file].sort()).toEqual(["first.ts", "second.ts"]);
    expect(pairs[0].lines).toBeGreaterThanOrEqual(6);
  });
});
