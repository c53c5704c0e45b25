/** Builds the React task-board page for production with Vite's own JSX transform (no @vitejs/plugin-react). */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";

/** Where the built page goes (`build.outDir` in vite.config.mjs). */
export const REACT_DIST = join(__dirname, "dist");

/**
 * Runs `vite build` with examples/react/vite.config.mjs and resolves with the folder to serve.
 * The page imports the library straight from `../../src`, so the build is also a check that the
 * client code bundles for browsers.
 *
 * @example
 * const root = await buildReactPage();
 */
export async function buildReactPage(): Promise<string> {
  await buildWithVite(__dirname);
  return REACT_DIST;
}

/**
 * Runs `vite build` with the `vite.config.mjs` in `folder` (any example page: the task board's
 * here, the AI chat's in examples/ai-chat/page). Vite runs in a child process because it is an ES
 * module and callers (ts-node, jest) load CommonJS. The child's NODE_ENV is `production` whatever
 * the caller's is: Vite reads it to pick the JSX transform (jest sets `test`, which gave `jsxDEV`
 * calls and React's development build).
 *
 * @example
 * await buildWithVite(join(__dirname, "page")); // writes page/dist
 */
export async function buildWithVite(folder: string): Promise<void> {
  const vite = join(__dirname, "..", "..", "node_modules", "vite", "bin", "vite.js");
  await promisify(execFile)(process.execPath, [vite, "build", "--config", join(folder, "vite.config.mjs")], {
    cwd: folder,
    env: { ...process.env, NODE_ENV: "production" },
    maxBuffer: 16 * 1024 * 1024,
  });
}
