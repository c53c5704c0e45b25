import type { Config } from "jest";

/** Unit, interop and type-level tests; the browser end-to-end suite runs apart (`npm run test:e2e`). */
const config: Config = {
  testEnvironment: "node",
  roots: ["<rootDir>/test", "<rootDir>/examples"],
  testMatch: ["**/*.test.ts", "**/*.test.tsx"],
  testPathIgnorePatterns: ["/node_modules/", "/e2e/"],
  transform: {
    "^.+\\.tsx?$": ["ts-jest", { tsconfig: "tsconfig.json", diagnostics: { warnOnly: false } }],
  },
  moduleFileExtensions: ["ts", "tsx", "js", "mjs", "cjs", "json"],
};

export default config;
