import type { Config } from "jest";

/** Packages that ship only ES modules and so must be transformed before jest can require them. */
const ESM_ONLY_PACKAGES = ["ai", "@ai-sdk", "@workflow", "@standard-schema", "eventsource-parser", "@vercel/oidc", "zod", "marked"];

/** Unit, interop and type-level tests; the browser end-to-end suite runs apart (`npm run test:e2e`). */
const config: Config = {
  testEnvironment: "node",
  roots: ["<rootDir>/test", "<rootDir>/examples"],
  testMatch: ["**/*.test.ts", "**/*.test.tsx"],
  // Load suites run with `npm run test:load`; test/redis/live needs a real redis-server and runs with `npm run test:redis`.
  testPathIgnorePatterns: ["/node_modules/", "/e2e/", "\\.load\\.test\\.ts$", "/test/redis/live/", "/test/redis/cluster/"],
  transform: {
    "^.+\\.tsx?$": ["ts-jest", { tsconfig: "tsconfig.json", diagnostics: { warnOnly: false } }],
    // The ESM-only packages of the Vercel AI SDK (test/ai), rewritten to CommonJS for jest's runtime.
    "/node_modules/.+\\.m?js$": "<rootDir>/test/support/esmToCommonJs.cjs",
  },
  transformIgnorePatterns: [`/node_modules/(?!(${ESM_ONLY_PACKAGES.join("|")})/)`],
  moduleFileExtensions: ["ts", "tsx", "js", "mjs", "cjs", "json"],
  // Property tests of thousands of runs take 1–3 s alone and several times that when jest's
  // workers share two busy cores (CI's machine); jest's 5 s default failed them there. A test that
  // hangs still fails, in 30 s.
  testTimeout: 30_000,
};

export default config;
