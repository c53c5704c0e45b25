/**
 * The size gate's two steps (docs/packaging.md#the-size-gate): bundle an entry the way a browser
 * application would (esbuild, minified, ESM, browser platform, every dependency inlined) and
 * weigh the result raw and gzipped; then hold the weight against its budget.
 */
import { build } from "esbuild";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import type { SizeBudget } from "./budgets";

/** Issue #27's target for the browser bundle of `Session` + `HttpTransport`: at most 100 kB (100,000 B) minified. */
export const BUNDLE_TARGET_BYTES = 100_000;

/** What one bundle weighs: the minified bytes and the same bytes gzipped (level 9). */
export interface BundleSize {
  readonly bytes: number;
  readonly gzipBytes: number;
}

/** A gate's answer: whether it holds, and the lines to print either way. */
export interface GateVerdict {
  readonly ok: boolean;
  readonly lines: readonly string[];
}

/**
 * Bundles `source` (an entry module's text, resolved from `resolveDir`) with esbuild
 * `--bundle --minify --format=esm --platform=browser` and weighs the output.
 *
 * @example
 * await measureBundle('export { Session, HttpTransport } from "./dist/esm/client.mjs";', process.cwd());
 */
export async function measureBundle(source: string, resolveDir: string): Promise<BundleSize> {
  const result = await build({
    stdin: { contents: source, resolveDir, loader: "js", sourcefile: "size-entry.mjs" },
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    write: false,
    logLevel: "silent",
  });
  const output = result.outputFiles[0];
  if (output === undefined) throw new Error("expected esbuild to write one bundle, but it wrote none");
  return { bytes: output.contents.byteLength, gzipBytes: gzipSync(output.contents, { level: 9 }).byteLength };
}

/**
 * Bundles `Session` + `HttpTransport` from the built ESM client entry under `root`
 * (`dist/esm/client.mjs`, so `npm run build` comes first) and weighs it: what the size gate and
 * the `bundle` bench suite both measure. Throws when the entry is not built.
 *
 * @example
 * const { bytes, gzipBytes } = await measureClientBundle(process.cwd());
 */
export async function measureClientBundle(root: string): Promise<BundleSize> {
  const entry = builtEntry(root, "client.mjs");
  return measureBundle(`export { Session, HttpTransport } from ${JSON.stringify(entry)};`, root);
}

/** One named part of the client, bundled alone the same way: what it weighs. */
export interface BundleFloor extends BundleSize {
  readonly name: string;
}

/**
 * What the parts under the Session weigh, bundled alone the same way as `measureClientBundle`
 * (from the built ESM entries under `root`): the pipeline that docs/seeds.md#seed-001 puts before
 * every update (the SSE decoder, chunk normalization, verification and the reducer: `decodeSse`,
 * `normalizeChunks`, `verifyEvents`, `applyEvents`), then that pipeline with `HttpTransport`.
 * Neither holds a Session; each is a floor under the Session's bundle for as long as the Session
 * runs that pipeline (docs/benchmarks.md#bundle-and-encode). Throws when the entries are not built.
 *
 * @example
 * const [pipeline, withTransport] = await measureBundleFloors(process.cwd());
 */
export async function measureBundleFloors(root: string): Promise<readonly BundleFloor[]> {
  const core = builtEntry(root, "index.mjs");
  const client = builtEntry(root, "client.mjs");
  const pipeline = `export { decodeSse, normalizeChunks, verifyEvents } from ${JSON.stringify(core)}; export { applyEvents } from ${JSON.stringify(client)};`;
  return [
    { name: "the seed-001 pipeline (decodeSse, normalizeChunks, verifyEvents, applyEvents)", ...(await measureBundle(pipeline, root)) },
    {
      name: "the same and HttpTransport",
      ...(await measureBundle(`${pipeline} export { HttpTransport } from ${JSON.stringify(client)};`, root)),
    },
  ];
}

/**
 * Whether the bundle meets issue #27's target (`BUNDLE_TARGET_BYTES`), as the cells of a
 * `target | measured | met` row: the gzipped figure is reported beside the minified one.
 *
 * @example
 * bundleTarget({ bytes: 99_000, gzipBytes: 30_000 }).met; // true
 */
export function bundleTarget(size: BundleSize): { readonly target: string; readonly measured: string; readonly met: boolean } {
  return {
    target: `Session + HttpTransport browser bundle ≤ ${formatBytes(BUNDLE_TARGET_BYTES)} minified`,
    measured: `${formatBytes(size.bytes)} (${formatBytes(size.gzipBytes)} gzipped)`,
    met: size.bytes <= BUNDLE_TARGET_BYTES,
  };
}

/**
 * Holds a measured bundle against its budget: over either figure fails; at or under passes, and a
 * bundle well under its budget says what the budget can be lowered to.
 *
 * @example
 * checkBundleSize({ bytes: 170_000, gzipBytes: 50_000 }, { bytes: 172_541, gzipBytes: 50_379 }).ok; // true
 */
export function checkBundleSize(size: BundleSize, budget: SizeBudget): GateVerdict {
  const over = [overBudget("minified", size.bytes, budget.bytes), overBudget("gzipped", size.gzipBytes, budget.gzipBytes)].filter(
    (line): line is string => line !== undefined,
  );
  const lines = [
    `Session + HttpTransport, browser bundle: ${formatBytes(size.bytes)} minified (budget ${formatBytes(budget.bytes)}), ${formatBytes(size.gzipBytes)} gzipped (budget ${formatBytes(budget.gzipBytes)})`,
    ...over,
  ];
  if (over.length > 0)
    return { ok: false, lines: [...lines, "size gate: FAILED (shrink the bundle, or raise the budget in budgets.json with the reason in the commit)"] };
  // Lowering the budget as the bundle shrinks is what keeps a later regrowth visible.
  const lowerable = size.bytes < budget.bytes || size.gzipBytes < budget.gzipBytes;
  return {
    ok: true,
    lines: [
      ...lines,
      lowerable ? `size gate: passed; lower the budget in budgets.json to bytes ${size.bytes}, gzipBytes ${size.gzipBytes}` : "size gate: passed",
    ],
  };
}

function overBudget(what: string, actual: number, budget: number): string | undefined {
  return actual > budget
    ? `expected at most ${formatBytes(budget)} ${what}, but the bundle is ${formatBytes(actual)} (+${formatBytes(actual - budget)})`
    : undefined;
}

/** The path of the built ESM entry `file` under `root`; throws, saying to build first, when it is missing. */
function builtEntry(root: string, file: string): string {
  const entry = join(root, "dist", "esm", file);
  if (!existsSync(entry)) throw new Error(`expected the built entry ${entry}, but it is missing: run npm run build first`);
  return entry;
}

/**
 * A byte count as the size gate prints it.
 *
 * @example
 * formatBytes(181326); // "181,326 B"
 */
export function formatBytes(n: number): string {
  return `${n.toLocaleString("en-US")} B`;
}
