/** Builds the Angular task-board page (production configuration) with the Angular CLI installed in examples/angular, and checks it took the library from the packed tarball. */
import { execFile } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";

/** Where `ng build` puts the browser files. */
export const ANGULAR_DIST = join(__dirname, "dist", "browser");

/**
 * Runs `ng build --configuration production` in examples/angular (its own package.json;
 * `ensureAngularInstalled()` in installAngular.ts packs the library and installs it there) and
 * resolves with the folder to serve: optimized, no development mode, hashed file names. Fails when
 * the bundle holds a file of the library's `src/` or none of the installed package
 * ({@link bundledLibrary}).
 *
 * @example
 * const root = await buildAngularPage();
 */
export async function buildAngularPage(): Promise<string> {
  const ng = join(__dirname, "node_modules", ".bin", "ng");
  if (!existsSync(ng)) {
    throw new Error(
      `expected the Angular CLI at ${ng}; run \`npm ci --prefix examples/angular\` first (npm run test:e2e and npm run web -- --angular do it themselves)`,
    );
  }
  await promisify(execFile)(ng, ["build", "--configuration", "production"], {
    cwd: __dirname,
    env: { ...process.env, NG_CLI_ANALYTICS: "false", CI: "true" },
    maxBuffer: 16 * 1024 * 1024,
  });
  const library = bundledLibrary(ANGULAR_DIST);
  if (library.fromSources.length > 0 || library.fromPackage.length === 0) {
    throw new Error(
      `expected the Angular page to bundle agui-rx from node_modules/agui-rx (the packed tarball) and nothing of ../../src, but it bundles ${library.fromPackage.length} file(s) of the package and these of src: ${library.fromSources.join(", ")}`,
    );
  }
  return ANGULAR_DIST;
}

/**
 * Which of the library's files the built page holds, read from its scripts' source maps (the
 * production configuration writes them hidden): those of the installed package, and those of the
 * repository's `src/` (which would mean an import by path).
 *
 * @example
 * bundledLibrary(ANGULAR_DIST).fromPackage; // ["node_modules/agui-rx/dist/esm/angular.mjs", …]
 */
export function bundledLibrary(dist: string): { readonly fromPackage: readonly string[]; readonly fromSources: readonly string[] } {
  const sources: string[] = [];
  for (const file of readdirSync(dist).filter((name) => name.endsWith(".js.map"))) {
    const map: unknown = JSON.parse(readFileSync(join(dist, file), "utf8"));
    const listed = typeof map === "object" && map !== null && "sources" in map && Array.isArray(map.sources) ? map.sources : [];
    for (const source of listed) if (typeof source === "string") sources.push(source);
  }
  return {
    fromPackage: sources.filter((source) => source.includes("node_modules/agui-rx/")),
    // Source paths are relative to examples/angular: the repository's src/ is ../../src/.
    fromSources: sources.filter((source) => /^(\.\.\/){2}src\//.test(source)),
  };
}
