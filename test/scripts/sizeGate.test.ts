/**
 * The size gate (scripts/gates/bundleSize.ts, docs/packaging.md#the-size-gate): a bundle over its
 * budget fails, at or under passes, and the weighing is esbuild's real minified output and its gzip.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { buildSync } from "esbuild";
import { parseBudgets, readBudgets } from "../../scripts/gates/budgets";
import { BUNDLE_TARGET_BYTES, bundleTarget, checkBundleSize, measureBundle, measureBundleFloors, measureClientBundle } from "../../scripts/gates/bundleSize";

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

describe("bundleTarget (issue #27: at most 100 kB minified)", () => {
  it("is met at exactly 100,000 B and reports the gzipped figure beside the minified one", () => {
    expect(BUNDLE_TARGET_BYTES).toBe(100_000);
    expect(bundleTarget({ bytes: 100_000, gzipBytes: 31_000 })).toEqual({
      target: "Session + HttpTransport browser bundle ≤ 100,000 B minified",
      measured: "100,000 B (31,000 B gzipped)",
      met: true,
    });
  });

  it("is not met one byte over, whatever the gzipped figure", () => {
    expect(bundleTarget({ bytes: 100_001, gzipBytes: 10 }).met).toBe(false);
  });
});

describe("without a build", () => {
  it.each([
    ["measureClientBundle", measureClientBundle, /dist\/esm\/client\.mjs, but it is missing: run npm run build first/],
    ["measureBundleFloors", measureBundleFloors, /dist\/esm\/index\.mjs, but it is missing: run npm run build first/],
  ])("%s says to build first, naming the missing entry", async (_, measure: (root: string) => Promise<unknown>, message) => {
    const empty = mkdtempSync(join(tmpdir(), "agui-rx-nodist-"));
    try {
      await expect(measure(empty)).rejects.toThrow(message);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe("measureBundleFloors", () => {
  it("weighs the pipeline's four exports alone, then with HttpTransport, from the built core and client entries", async () => {
    const root = mkdtempSync(join(tmpdir(), "agui-rx-floors-"));
    try {
      mkdirSync(join(root, "dist", "esm"), { recursive: true });
      const stage = (name: string) => `export const ${name} = () => "${name} at work";`;
      writeFileSync(
        join(root, "dist", "esm", "index.mjs"),
        [stage("decodeSse"), stage("normalizeChunks"), stage("verifyEvents"), stage("unusedCore")].join("\n"),
      );
      writeFileSync(join(root, "dist", "esm", "client.mjs"), [stage("applyEvents"), stage("HttpTransport"), stage("Session")].join("\n"));
      const [pipeline, withTransport] = await measureBundleFloors(root);
      const pipelineOnly = await measureBundle(
        `export { decodeSse, normalizeChunks, verifyEvents } from ${JSON.stringify(join(root, "dist", "esm", "index.mjs"))}; export { applyEvents } from ${JSON.stringify(join(root, "dist", "esm", "client.mjs"))};`,
        root,
      );
      expect(pipeline).toEqual({ name: expect.stringMatching(/^the seed-001 pipeline/) as string, ...pipelineOnly });
      expect(withTransport.name).toBe("the same and HttpTransport");
      expect(withTransport.bytes).toBeGreaterThan(pipeline.bytes);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
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
