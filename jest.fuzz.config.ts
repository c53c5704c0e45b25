import type { Config } from "jest";
import base from "./jest.config";

/**
 * `npm run fuzz`: only the `*.fuzz.test.ts` suites, with a random seed and many more cases than
 * `npm test` runs (see test/support/fuzz.ts). Set `FUZZ_SEED` to replay a failure.
 */
const config: Config = {
  ...base,
  testMatch: ["**/*.fuzz.test.ts"],
  testTimeout: 600_000,
};

export default config;
