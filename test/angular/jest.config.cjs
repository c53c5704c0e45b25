// agui-rx/angular under real Angular 17 (test/angular/package.json, installed by installPacked.ts
// from the packed tarball): jsdom, zone.js and the JIT compiler, as Angular's TestBed needs them.
// Run with `npm run test:angular` (the root jest, this folder's node_modules).
const path = require("node:path");

/** @type {import("jest").Config} */
module.exports = {
  rootDir: __dirname,
  testEnvironment: "jsdom",
  testMatch: ["<rootDir>/**/*.spec.ts"],
  testPathIgnorePatterns: ["/node_modules/"],
  globalSetup: "<rootDir>/globalSetup.ts",
  setupFilesAfterEnv: ["<rootDir>/setup.ts"],
  transform: {
    // Type-checked apart, by this folder's own TypeScript (`tsc -p test/angular`, the suite's global setup).
    "^.+\\.ts$": ["ts-jest", { tsconfig: path.join(__dirname, "tsconfig.json"), diagnostics: false }],
    // Angular ships ES modules only: rewritten to CommonJS for jest's runtime.
    "\\.m?js$": path.join(__dirname, "../support/esmToCommonJs.cjs"),
  },
  transformIgnorePatterns: ["/node_modules/(?!(@angular|agui-rx)/)"],
  moduleFileExtensions: ["ts", "js", "mjs", "cjs", "json"],
  testTimeout: 30_000,
};
