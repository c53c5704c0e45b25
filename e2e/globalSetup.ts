/** Before the browser suite: the Angular page has its own package.json, installed here when it is missing or stale. */
import { ensureAngularInstalled } from "../examples/angular/installAngular";

/**
 * @example
 * // jest.e2e.config.ts
 * globalSetup: "<rootDir>/e2e/globalSetup.ts",
 */
export default function globalSetup(): void {
  ensureAngularInstalled((line) => process.stderr.write(`\n${line}\n`));
}
