/**
 * `npm run bench`: runs every suite in `bench/suites/` in name order, one after another, in this
 * process. A suite is a module whose default export is `() => Promise<void>` that measures with
 * `bench/support/measure.ts` and prints its own table (ratios against a baseline measured in the
 * same run, so the figures compare across machines).
 * `npm run bench -- state` runs only the suites whose file name contains "state".
 * Suites record their targets with `bench/support/targets.ts`; the run ends with all of them in one table.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { printTargets } from "./support/targets";

/** The shape every suite exports. */
export type Suite = () => Promise<void>;

async function main(): Promise<void> {
  const filters = process.argv.slice(2);
  const dir = path.join(__dirname, "suites");
  const files = fs
    .readdirSync(dir)
    .filter((file) => /\.ts$/.test(file) && !file.endsWith(".d.ts"))
    .filter((file) => filters.length === 0 || filters.some((f) => file.includes(f)))
    .sort();
  console.log(`node ${process.version}, ${process.platform}/${process.arch}${typeof (globalThis as { gc?: unknown }).gc === "function" ? ", gc exposed" : ""}`);
  for (const file of files) {
    // require, not import(): ts-node's hook (-r ts-node/register) compiles required .ts files only.
    // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-require-imports -- ts-node's hook compiles required .ts files only; the shape is checked below
    const loaded: { default?: unknown } = require(path.join(dir, file));
    if (typeof loaded.default !== "function") {
      console.log(`\nbench/suites/${file}: no default export function; skipped`);
      continue;
    }
    console.log(`\n=== ${file.replace(/\.ts$/, "")} ===`);
    await (loaded.default as Suite)();
  }
  // Every target the suites recorded (bench/support/targets.ts), together at the end of the run.
  printTargets("=== targets of this run ===");
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
