/** Builds the React task-board page for production with Vite's own JSX transform (no @vitejs/plugin-react). */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";

/** Where the built page goes (`build.outDir` in vite.config.mjs). */
export const REACT_DIST = join(__dirname, "dist");

/**
 * Runs `vite build` with examples/react/vite.config.mjs and resolves with the folder to serve.
 * Vite runs in a child process because it is an ES module and callers (ts-node, jest) load
 * CommonJS. The page imports the library straight from `../../src`, so the build is also a check
 * that the client code bundles for browsers. The child's NODE_ENV is `production` whatever the
 * caller's is: Vite reads it to pick the JSX transform (jest sets `test`, which gave `jsxDEV`
 * calls and React's development build).
 *
 * @example
 * const root = await buildReactPage();
 */
export async function buildReactPage(): Promise<string> {
  const vite = join(__dirname, "..", "..", "node_modules", "vite", "bin", "vite.js");
  await promisify(execFile)(process.execPath, [vite, "build", "--config", join(__dirname, "vite.config.mjs")], {
    cwd: __dirname,
    env: { ...process.env, NODE_ENV: "production" },
    maxBuffer: 16 * 1024 * 1024,
  });
  return REACT_DIST;
}
