/**
 * The browser bundle of `Session` + `HttpTransport` against issue #27's target (≤ 100 kB minified,
 * gzipped reported): the same measurement as the size gate (`scripts/gates/bundleSize.ts`,
 * docs/packaging.md#the-size-gate), of the built ESM entry, so `npm run build` comes first. Without
 * a build the target is printed as not met, with the reason. Beside it, what the parts under the
 * Session weigh bundled alone (`measureBundleFloors`): the pipeline docs/seeds.md#seed-001 puts
 * before every update, and that pipeline with `HttpTransport`.
 */
import { join } from "node:path";
import { bundleTarget, formatBytes, measureBundleFloors, measureClientBundle } from "../../scripts/gates/bundleSize";
import { printTable } from "../support/table";
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
  try {
    const floors = await measureBundleFloors(root);
    printTable("what the parts under the Session weigh alone (esbuild --bundle --minify --format=esm --platform=browser)", [
      ["part", "minified", "gzipped"],
      ...floors.map((floor) => [floor.name, formatBytes(floor.bytes), formatBytes(floor.gzipBytes)]),
    ]);
  } catch (error) {
    console.log(`the parts under the Session: not measured (${error instanceof Error ? error.message : String(error)})`);
  }
}
