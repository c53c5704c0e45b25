// Vite config of the React task-board page. Vite 8 transforms TS/JSX with oxc; the automatic
// runtime imports react/jsx-runtime itself, so no @vitejs/plugin-react is needed.
import { fileURLToPath } from "node:url";

export default {
  root: fileURLToPath(new URL(".", import.meta.url)),
  logLevel: "warn",
  oxc: { jsx: { runtime: "automatic" } },
  build: { outDir: "dist", emptyOutDir: true, sourcemap: true, minify: false },
};
