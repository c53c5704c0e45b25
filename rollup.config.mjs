// Builds every public entry as ESM (.mjs), CJS (.cjs) and one bundled .d.ts each.
// Entries share code through chunks, so `agui-rx/server` and `agui-rx` hand out the same classes.
import esbuild from "rollup-plugin-esbuild";
import { dts } from "rollup-plugin-dts";
import { builtinModules } from "node:module";
import pkg from "./package.json" with { type: "json" };
import inspectorPage from "./scripts/inspector/buildInspectorPage.cjs";

const entries = {
  index: "src/index.ts",
  server: "src/server/index.ts",
  client: "src/client/index.ts",
  // `agui-rx/client/telemetry`: the Session's spans, a file of its own so that the Session's bundle holds only its hooks (docs/observability.md#client).
  "client-telemetry": "src/client/telemetry/index.ts",
  node: "src/node/index.ts",
  react: "src/react/index.ts",
  inspector: "src/inspector/index.ts",
  angular: "src/angular/index.ts",
  ai: "src/ai/index.ts",
  redis: "src/redis/index.ts",
  testing: "src/testing/index.ts",
  // `agui-rx/testing/ai`: a file of its own, so that `agui-rx/testing` never loads `ai`.
  "testing-ai": "src/testing/ai/index.ts",
};

const externalPackages = [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.peerDependencies ?? {}), ...builtinModules];
const external = (id) => id.startsWith("node:") || externalPackages.some((name) => id === name || id.startsWith(`${name}/`));

// fp-ts has no exports map: Node's ESM loader cannot resolve `fp-ts/Either` (a directory), so
// both builds name the CommonJS file, which Node imports from ESM as well.
const paths = (id) => {
  const match = /^fp-ts\/(?:lib\/)?(\w+)$/.exec(id);
  return match ? `fp-ts/lib/${match[1]}.js` : id;
};

export default [
  {
    input: entries,
    external,
    plugins: [esbuild({ target: "es2022", tsconfig: "tsconfig.build.json" })],
    output: [
      { dir: "dist/esm", format: "es", paths, entryFileNames: "[name].mjs", chunkFileNames: "chunks/[name]-[hash].mjs" },
      { dir: "dist/cjs", format: "cjs", paths, entryFileNames: "[name].cjs", chunkFileNames: "chunks/[name]-[hash].cjs" },
    ],
  },
  {
    // The `agui-rx` bin (package.json "bin"): one self-contained CommonJS file with its own copy of the operators,
    // and beside it the page `agui-rx inspect` serves (dist/cli/inspector/inspector.js, React bundled in).
    input: { "agui-rx": "src/cli/main.ts" },
    external,
    plugins: [
      esbuild({ target: "es2022", tsconfig: "tsconfig.build.json" }),
      { name: "inspector-page", writeBundle: () => inspectorPage.buildInspectorPage("dist/cli/inspector").then(() => undefined) },
    ],
    output: { dir: "dist/cli", format: "cjs", paths, entryFileNames: "[name].cjs", banner: "#!/usr/bin/env node" },
  },
  {
    input: entries,
    external,
    plugins: [dts({ tsconfig: "tsconfig.build.json", compilerOptions: { stripInternal: true } })],
    output: { dir: "dist/types", format: "es", entryFileNames: "[name].d.ts", chunkFileNames: "chunks/[name]-[hash].d.ts" },
  },
];
