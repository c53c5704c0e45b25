/** Before the Angular suite: the packed library installed in test/angular, and the suite type-checked by that folder's TypeScript (the one Angular 17 supports). */
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { ensureAngularInstalled } from "../../examples/angular/installAngular";

/**
 * @example
 * // test/angular/jest.config.cjs
 * globalSetup: "<rootDir>/globalSetup.ts",
 */
export default function globalSetup(): void {
  ensureAngularInstalled((line) => process.stderr.write(`\n${line}\n`), __dirname, "tsc");
  const tsc = join(__dirname, "node_modules", ".bin", "tsc");
  try {
    execFileSync(tsc, ["-p", __dirname], { encoding: "utf8", stdio: "pipe" });
  } catch (error) {
    const output = error instanceof Error && "stdout" in error ? String(error.stdout) : String(error);
    throw new Error(
      `expected test/angular to type-check with its own TypeScript (${execFileSync(tsc, ["-v"], { encoding: "utf8" }).trim()}), but it did not:\n${output}`,
      { cause: error },
    );
  }
}
