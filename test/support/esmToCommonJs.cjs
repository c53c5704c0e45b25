// A jest transformer for ESM-only packages in node_modules (the Vercel AI SDK `ai` 7.x and its
// `@ai-sdk/*` dependencies ship only `import` builds): jest's CommonJS runtime cannot load ES
// modules on Node 20, so esbuild rewrites each file to CommonJS once (jest caches the result).
// Node itself needs no such step: Node ≥ 20.19 can require() an ES module, and the built
// `agui-rx/ai` is checked against the real package in test/dist/exports.test.ts.
const { transformSync } = require("esbuild");

module.exports = {
  process(source, filename) {
    const { code, map } = transformSync(source, {
      loader: "js",
      format: "cjs",
      target: "node20",
      sourcemap: "external",
      sourcefile: filename,
    });
    return { code, map };
  },
};
