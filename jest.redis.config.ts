import type { Config } from "jest";
import base from "./jest.config";

/**
 * `npm run test:redis`: the suites that need a real `redis-server` (test/redis/live), apart from
 * `npm test` so that `npm test` works after `npm ci` alone. The global setup uses `REDIS_URL` when
 * set, else starts `redis-server` itself on a free loopback port (and fails loudly without it).
 */
const config: Config = {
  ...base,
  roots: ["<rootDir>/test/redis/live"],
  testPathIgnorePatterns: ["/node_modules/"],
  globalSetup: "<rootDir>/test/redis/support/globalSetup.ts",
  globalTeardown: "<rootDir>/test/redis/support/globalTeardown.ts",
  // Real servers, real connections, and tests that start and kill servers of their own.
  testTimeout: 60_000,
};

export default config;
