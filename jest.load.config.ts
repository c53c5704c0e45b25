import type { Config } from "jest";
import base from "./jest.config";

/**
 * `npm run test:load`: the load and fault suite (`test/load/**\/*.load.test.ts`), kept out of
 * `npm test`. Run in band under `node --expose-gc`: the suites measure one server process at a
 * time on a small machine, and they collect garbage before reading heap figures. All traffic goes
 * to 127.0.0.1 and every scenario is bounded in count and time.
 */
const config: Config = {
  ...base,
  roots: ["<rootDir>/test/load"],
  testMatch: ["**/*.load.test.ts"],
  testPathIgnorePatterns: ["/node_modules/"],
  testTimeout: 180_000,
  maxWorkers: 1,
};

export default config;
