/**
 * `npm run size`: bundles `Session` + `HttpTransport` from the built ESM entry (`dist/esm/client.mjs`,
 * so run `npm run build` first) for the browser, prints its weight and exits 1 when it is over the
 * budget in budgets.json (docs/packaging.md#the-size-gate).
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { readBudgets } from "./budgets";
import { checkBundleSize, measureBundle } from "./bundleSize";

const root = join(__dirname, "..", "..");
const entry = join(root, "dist", "esm", "client.mjs");

async function main(): Promise<number> {
  if (!existsSync(entry)) {
    console.error(`size gate: expected the built entry ${entry}, but it is missing: run npm run build first`);
    return 1;
  }
  const size = await measureBundle(`export { Session, HttpTransport } from ${JSON.stringify(entry)};`, root);
  const verdict = checkBundleSize(size, readBudgets().bundle);
  for (const line of verdict.lines) console.log(line);
  return verdict.ok ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
