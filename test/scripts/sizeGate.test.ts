/**
 * The size gate (scripts/gates/bundleSize.ts, docs/packaging.md#the-size-gate): a bundle over its
 * budget fails, at or under passes, and the weighing is esbuild's real minified output and its gzip.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { buildSync } from "esbuild";
import { parseBudgets, readBudgets } from "../../scripts/gates/budgets";
import { checkBundleSize, measureBundle } from "../../scripts/gates/bundleSize";

const budget = { bytes: 1_000, gzipBytes: 400 };

describe("checkBundleSize", () => {
  it("passes a bundle exactly at its budget, and says nothing about lowering it", () => {
    const verdict = checkBundleSize({ bytes: 1_000, gzipBytes: 400 }, budget);
    expect(verdict.ok).toBe(true);
    expect(verdict.lines).toEqual([
      "Session + HttpTransport, browser bundle: 1,000 B minified (budget 1,000 B), 400 B gzipped (budget 400 B)",
      "size gate: passed",
    ]);
  });

  it("passes a bundle under its budget and names the figures the budget can be lowered to", () => {
    const verdict = checkBundleSize({ bytes: 900, gzipBytes: 390 }, budget);
    expect(verdict.ok).toBe(true);
    expect(verdict.lines.at(-1)).toBe("size gate: passed; lower the budget in budgets.json to bytes 900, gzipBytes 390");
  });

  it("fails a bundle one byte over in minified size, saying by how much", () => {
    const verdict = checkBundleSize({ bytes: 1_001, gzipBytes: 400 }, budget);
    expect(verdict.ok).toBe(false);
    expect(verdict.lines).toContain("expected at most 1,000 B minified, but the bundle is 1,001 B (+1 B)");
  });

  it("fails a bundle over in gzipped size alone", () => {
    const verdict = checkBundleSize({ bytes: 900, gzipBytes: 450 }, budget);
    expect(verdict.ok).toBe(false);
    expect(verdict.lines).toContain("expected at most 400 B gzipped, but the bundle is 450 B (+50 B)");
    expect(verdict.lines.at(-1)).toMatch(/^size gate: FAILED/);
  });
});

describe("measureBundle", () => {
  const dir = mkdtempSync(join(tmpdir(), "agui-rx-size-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("weighs the minified browser bundle of an entry with its imports inlined, and its gzip", async () => {
    writeFileSync(join(dir, "dep.mjs"), "export const greet = (name) => `hello, ${name}`;\nexport const unused = () => 'never bundled';\n");
    const source = 'export { greet } from "./dep.mjs";';
    const size = await measureBundle(source, dir);
    const reference = buildSync({
      stdin: { contents: source, resolveDir: dir, loader: "js" },
      bundle: true,
      minify: true,
      format: "esm",
      platform: "browser",
      write: false,
    });
    const text = reference.outputFiles[0].contents;
    expect(size).toEqual({ bytes: text.byteLength, gzipBytes: gzipSync(text, { level: 9 }).byteLength });
    expect(new TextDecoder().decode(text)).toContain("hello, ");
    expect(new TextDecoder().decode(text)).not.toContain("never bundled");
  });

  it("rejects an entry that imports what does not exist", async () => {
    await expect(measureBundle('export { nothing } from "./missing.mjs";', dir)).rejects.toThrow(/missing\.mjs/);
  });
});

describe("budgets.json", () => {
  it("holds whole-number budgets for the bundle and the copy-paste pairs", () => {
    const budgets = readBudgets();
    expect(budgets.bundle.bytes).toBeGreaterThan(budgets.bundle.gzipBytes);
    expect(Number.isSafeInteger(budgets.duplication.maxPairs)).toBe(true);
  });

  it("names the field that is missing or not a whole number", () => {
    expect(() => parseBudgets({ bundle: { bytes: 1 }, duplication: { maxPairs: 5 } }, "budgets.json")).toThrow(
      "budgets.json: expected bundle.gzipBytes to be a whole number of at least 0, but got nothing",
    );
    expect(() => parseBudgets({ bundle: { bytes: 1, gzipBytes: 1 }, duplication: { maxPairs: "5" } }, "budgets.json")).toThrow(
      'budgets.json: expected duplication.maxPairs to be a whole number of at least 0, but got "5"',
    );
  });
});
