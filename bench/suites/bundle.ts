/**
 * The browser bundle of `Session` + `HttpTransport` against issue #27's target (≤ 100 kB minified,
 * gzipped reported): the same measurement as the size gate (`scripts/gates/bundleSize.ts`,
 * docs/packaging.md#the-size-gate), of the built ESM entry, so `npm run build` comes first. Without
 * a build the target is printed as not met, with the reason.
 */
import { join } from "node:path";
import { bundleTarget, measureClientBundle } from "../../scripts/gates/bundleSize";
import { printTargets, recordTarget } from "../support/targets";

const root = join(__dirname, "..", "..");

export default async function run(): Promise<void> {
  try {
    const target = bundleTarget(await measureClientBundle(root));
    recordTarget("bundle", target.target, target.measured, target.met);
  } catch (error) {
    recordTarget("bundle", "Session + HttpTransport browser bundle ≤ 100,000 B minified", error instanceof Error ? error.message : String(error), false);
  }
  printTargets("bundle targets", "bundle");
}
