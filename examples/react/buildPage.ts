/** Builds the React task-board page with Vite's own JSX transform (no @vitejs/plugin-react). */
import { join } from "node:path";

/** Where the built page goes by default. */
export const REACT_DIST = join(__dirname, "dist");

/**
 * Runs `vite build` on `examples/react` into `outDir` and resolves when done. The page imports
 * the library straight from `../../src`, so the build is also a check that the client code
 * bundles for browsers (no Node built-ins reached from `agui-rx/client` or `agui-rx/react`).
 *
 * @example
 * await buildReactPage();
 */
export async function buildReactPage(outDir: string = REACT_DIST): Promise<string> {
  // vite is ESM; Node ≥ 20.19 loads it through require(), which ts-node's CommonJS output uses.
  const { build } = await import("vite");
  await build({
    root: __dirname,
    configFile: false,
    logLevel: "warn",
    // Vite 8 transforms TS/JSX with oxc: the automatic runtime imports react/jsx-runtime itself.
    oxc: { jsx: { runtime: "automatic" } },
    build: { outDir, emptyOutDir: true, sourcemap: true, minify: false },
  });
  return outDir;
}
