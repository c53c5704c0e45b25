/** Builds the Angular task-board page (production configuration) with the Angular CLI installed in examples/angular. */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";

/** Where `ng build` puts the browser files. */
export const ANGULAR_DIST = join(__dirname, "dist", "browser");

/**
 * Runs `ng build` in examples/angular (its own package.json; `ensureAngularInstalled()` in
 * installAngular.ts installs it) and resolves with the folder to serve. angular.json's default
 * configuration is `production`: optimized, no development mode, hashed file names.
 *
 * @example
 * const root = await buildAngularPage();
 */
export async function buildAngularPage(): Promise<string> {
  const ng = join(__dirname, "node_modules", ".bin", "ng");
  if (!existsSync(ng)) {
    throw new Error(`expected the Angular CLI at ${ng}; run \`npm ci --prefix examples/angular\` first (npm run test:e2e and npm run web -- --angular do it themselves)`);
  }
  await promisify(execFile)(ng, ["build"], { cwd: __dirname, env: { ...process.env, NG_CLI_ANALYTICS: "false", CI: "true" }, maxBuffer: 16 * 1024 * 1024 });
  return ANGULAR_DIST;
}
