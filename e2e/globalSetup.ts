/** Before the browser suite: the library packed (`npm pack` into .pack/agui-rx.tgz) and installed in the Angular page's own node_modules, with `npm ci` there when it is missing or stale. */
import { ensureAngularInstalled } from "../examples/angular/installAngular";

/**
 * @example
 * // jest.e2e.config.ts
 * globalSetup: "<rootDir>/e2e/globalSetup.ts",
 */
export default function globalSetup(): void {
  ensureAngularInstalled((line) => process.stderr.write(`\n${line}\n`));
}
