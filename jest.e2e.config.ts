import type { Config } from "jest";

/**
 * Browser end-to-end suite (`npm run test:e2e`): drives the React and Angular task-board pages in
 * Debian's headless `chromium` through `playwright-core`, against the real task-board server.
 * Apart from the unit suite because it builds both pages and starts a browser. Its global setup
 * installs examples/angular's own packages (`npm ci --prefix examples/angular`) when they are
 * missing or older than that folder's lock file, so a fresh clone needs only `npm ci` first.
 */
const config: Config = {
  testEnvironment: "node",
  roots: ["<rootDir>/e2e"],
  testMatch: ["**/*.e2e.test.ts"],
  globalSetup: "<rootDir>/e2e/globalSetup.ts",
  transform: {
    "^.+\\.tsx?$": ["ts-jest", { tsconfig: "tsconfig.json", diagnostics: false }],
  },
  moduleFileExtensions: ["ts", "tsx", "js", "mjs", "cjs", "json"],
  // Building the Angular app and starting chromium take seconds, not milliseconds.
  testTimeout: 120_000,
  maxWorkers: 1,
};

export default config;
