// Bundles the `agui-rx inspect` page (src/cli/inspectPage/main.ts, React and the library included)
// into one browser script, `<outdir>/inspector.js`, which the CLI's server hands out. Called by
// rollup.config.mjs after the CLI's own bundle (so `npm run build` writes dist/cli/inspector/) and by
// the tests that serve the page straight from the sources. CommonJS so that both can load it.
const { build } = require("esbuild");
const { join } = require("node:path");

const ROOT = join(__dirname, "..", "..");

/**
 * Writes `<outdir>/inspector.js`, minified, for current browsers, React in its production build.
 *
 * @param {string} outdir the folder to write into (made when missing)
 * @returns {Promise<string>} the written file's path
 * @example
 * await buildInspectorPage("dist/cli/inspector");
 */
async function buildInspectorPage(outdir) {
  const outfile = join(outdir, "inspector.js");
  await build({
    entryPoints: [join(ROOT, "src", "cli", "inspectPage", "main.ts")],
    outfile,
    bundle: true,
    format: "iife",
    platform: "browser",
    target: "es2022",
    minify: true,
    legalComments: "none",
    define: { "process.env.NODE_ENV": '"production"' },
    tsconfig: join(ROOT, "tsconfig.build.json"),
    logLevel: "warning",
  });
  return outfile;
}

module.exports = { buildInspectorPage };
