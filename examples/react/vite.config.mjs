// Vite config of the React task-board page. Vite 8 transforms TS/JSX with oxc; the automatic
// runtime imports react/jsx-runtime itself, so no @vitejs/plugin-react is needed.
//
// Always a production build: `mode: "production"` and a NODE_ENV of "production" for the bundle,
// whatever the calling process has (jest sets NODE_ENV=test, which would otherwise select
// React's development build, 1.2 MB and slower). Minified; the source map is a separate file the
// browser fetches only with its developer tools open.
import { fileURLToPath } from "node:url";

export default {
  root: fileURLToPath(new URL(".", import.meta.url)),
  mode: "production",
  logLevel: "warn",
  define: { "process.env.NODE_ENV": JSON.stringify("production") },
  oxc: { jsx: { runtime: "automatic" } },
  build: { outDir: "dist", emptyOutDir: true, sourcemap: true, minify: true, reportCompressedSize: false },
};
