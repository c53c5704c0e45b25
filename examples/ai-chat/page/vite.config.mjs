// Vite config of the AI chat page, as examples/react's: oxc's automatic JSX runtime (no plugin),
// always a production build whatever NODE_ENV the caller has, minified, a separate source map.
import { fileURLToPath } from "node:url";

export default {
  root: fileURLToPath(new URL(".", import.meta.url)),
  mode: "production",
  logLevel: "warn",
  define: { "process.env.NODE_ENV": JSON.stringify("production") },
  oxc: { jsx: { runtime: "automatic" } },
  build: { outDir: "dist", emptyOutDir: true, sourcemap: true, minify: true, reportCompressedSize: false },
};
