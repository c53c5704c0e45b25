/**
 * `npm run size`: bundles `Session` + `HttpTransport` from the built ESM entry (`dist/esm/client.mjs`,
 * so run `npm run build` first) for the browser, prints its weight and issue #27's target line
 * (≤ 100 kB minified, met yes/no), and exits 1 when it is over the budget in budgets.json
 * (docs/packaging.md#the-size-gate). The target is printed, not enforced: the budget is the gate.
 */
import { join } from "node:path";
import { readBudgets } from "./budgets";
import { bundleTarget, checkBundleSize, measureClientBundle } from "./bundleSize";

const root = join(__dirname, "..", "..");

async function main(): Promise<number> {
  let size;
  try {
    size = await measureClientBundle(root);
  } catch (error) {
    console.error(`size gate: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
  const verdict = checkBundleSize(size, readBudgets().bundle);
  for (const line of verdict.lines) console.log(line);
  const target = bundleTarget(size);
  console.log(`target | measured | met: ${target.target} | ${target.measured} | ${target.met ? "yes" : "NO"}`);
  return verdict.ok ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
