/**
 * A new project as `tsc --init` makes it today: the README's and docs' snippets, the issue's
 * everyday option calls and the published declarations type-check against the built package
 * (its exports map), under the configuration each TypeScript's own `tsc --init` writes, in a
 * package with `"type": "module"` and `"types": ["node"]` (what the README says a project needs).
 * Compilers: TypeScript 5.9 (ts-jest's), 7 (`typescript-7`) and 5.2, the oldest we claim
 * (test/types/floor, its own install). docs/packaging.md#typescript has the matrix.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import * as ts from "typescript";
import { ROOT, ensureBuilt, pkg } from "../dist/ensureBuilt";
import { extractSnippets } from "../docs/snippets";

const FLOOR = path.join(__dirname, "floor");
const COMPILERS = {
  "5.9": require.resolve("typescript/bin/tsc"),
  "7": path.join(ROOT, "node_modules", "typescript-7", "bin", "tsc"),
  "5.2": path.join(FLOOR, "node_modules", "typescript", "bin", "tsc"),
} as const;
type Version = keyof typeof COMPILERS;

/** Every public entry, by the name a user imports. */
const ENTRY_NAMES = Object.keys(pkg.exports)
  .filter((key) => key !== "./package.json")
  .map((key) => (key === "." ? "agui-rx" : `agui-rx/${key.slice(2)}`));

/** The Markdown files whose ```ts blocks a user pastes. */
const DOCS = ["README.md", ...readdirSync(path.join(ROOT, "docs")).map((name) => `docs/${name}`)].filter((file) => file.endsWith(".md"));

/**
 * Which blocks are whole modules a user pastes: every block of the README and of docs/recipes.md
 * (test/docs runs those too), and elsewhere in docs/ every block with an `import` line. A block
 * without one is an excerpt (a signature list, a step inside an earlier example). Three blocks
 * import but show one part of an application whose other parts (its `Board`, its framework app)
 * are the reader's; they are named here by their first line.
 */
const EXCERPTS: readonly string[] = [
  'import { InjectionToken, inject } from "@angular/core";', // docs/angular.md: the app's providers, beside its own component and state
  'import { toNodeHandler } from "agui-rx/node";', // docs/http.md: mounting in http, Express and Fastify apps the reader has
  'import { HttpTransport } from "agui-rx/client";', // docs/ui.md: a view over the task board's own state spec
];
const isModule = (file: string, code: string): boolean =>
  file === "README.md" || file === "docs/recipes.md" || (/^import /m.test(code) && !EXCERPTS.includes(code.split("\n")[0] ?? ""));

/** The issue's everyday calls, each an optional value that may be `undefined` (docs/packaging.md#optional-properties-and-undefined). */
const FIRST_DAY = `
import { HttpTransport, Session } from "agui-rx/client";
import { createHandler, interrupt, memoryStore, success, type Agent } from "agui-rx/server";
import { serve } from "agui-rx/node";
import { aiAgent } from "agui-rx/ai";
import { MockLanguageModelV4 } from "ai/test";

declare const token: string | undefined;
declare const maybe: string | undefined;
const env = process.env.MAX_ROUNDTRIPS;
const durable = process.env.DURABLE === "1";
const transport = new HttpTransport("http://127.0.0.1:8787/agent", { headers: token ? { Authorization: \`Bearer \${token}\` } : undefined });
const session = new Session(transport, { threadId: "t1", maxToolRoundtrips: env ? Number(env) : undefined });
const model = new MockLanguageModelV4();
const ai: Agent = aiAgent({ model, system: process.env.SYSTEM_PROMPT });
const asks = interrupt({ reason: "confirmation", message: maybe });
const agent: Agent = { async run() { return success(); } };
const handler = createHandler(agent, { store: durable ? memoryStore() : undefined });
const served = await serve(handler, { port: env ? Number(env) : undefined });
export { session, ai, asks, served };
`;

let app: string;
/** The tsconfig.json each version's `tsc --init` wrote, as parsed options (for the report and the pins). */
const initOptions = new Map<Version, Record<string, unknown>>();

const tsc = (version: Version, project: string): string => {
  try {
    execFileSync(process.execPath, [COMPILERS[version], "-p", project, "--pretty", "false"], { cwd: app, encoding: "utf8" });
    return "";
  } catch (error) {
    return String((error as { stdout?: string }).stdout ?? error); // test-only: execFileSync's error carries stdout
  }
};

beforeAll(() => {
  ensureBuilt();
  if (!existsSync(COMPILERS["5.2"])) execFileSync("npm", ["ci", "--prefix", FLOOR, "--no-audit", "--no-fund"], { cwd: ROOT, stdio: "ignore" });
  app = mkdtempSync(path.join(tmpdir(), "agui-rx-tsc-init-"));
  // The package as installed: its package.json and dist; its peers and their types from our own install.
  const installed = path.join(app, "node_modules", "agui-rx");
  mkdirSync(installed, { recursive: true });
  writeFileSync(path.join(installed, "package.json"), readFileSync(path.join(ROOT, "package.json")));
  symlinkSync(path.join(ROOT, "dist"), path.join(installed, "dist"));
  for (const name of readdirSync(path.join(ROOT, "node_modules"))) {
    if (!name.startsWith(".") && name !== "agui-rx") symlinkSync(path.join(ROOT, "node_modules", name), path.join(app, "node_modules", name));
  }
  writeFileSync(path.join(app, "package.json"), JSON.stringify({ name: "first-day", private: true, type: "module" }));
  // The snippets, one module each, named after where they are written.
  mkdirSync(path.join(app, "snippets"));
  for (const file of DOCS)
    for (const snippet of extractSnippets(file).filter((block) => isModule(file, block.code)))
      writeFileSync(path.join(app, "snippets", `${file.replace(/[^\w]/g, "_")}_L${snippet.line}.${snippet.lang}`), snippet.code);
  writeFileSync(path.join(app, "firstDay.ts"), FIRST_DAY);
  writeFileSync(path.join(app, "entries.ts"), ENTRY_NAMES.map((name, i) => `export * as e${i} from "${name}";`).join("\n"));
  writeFileSync(
    path.join(app, "entries.cts"),
    // `import x = require()`: under verbatimModuleSyntax a CommonJS file may not use ESM syntax.
    ENTRY_NAMES.map((name, i) => `import e${i} = require("${name}");`).join("\n") + `\nexport = [${ENTRY_NAMES.map((_n, i) => `e${i}`).join(", ")}];`,
  );

  for (const version of ["5.9", "7"] as const) {
    const dir = path.join(app, `init-${version}`);
    mkdirSync(dir);
    execFileSync(process.execPath, [COMPILERS[version], "--init"], { cwd: dir, stdio: "ignore" });
    const read = ts.readConfigFile(path.join(dir, "tsconfig.json"), (name) => ts.sys.readFile(name));
    initOptions.set(version, (read.config as { compilerOptions: Record<string, unknown> }).compilerOptions);
  }
  // 5.2's own `tsc --init` writes a CommonJS es2016 project (checked below); a project on 5.2 that
  // follows the README uses 5.9's settings minus the one 5.2 does not know.
  const { noUncheckedSideEffectImports: _unknownTo52, ...modern } = initOptions.get("5.9") ?? {};
  mkdirSync(path.join(app, "init-5.2"));
  writeFileSync(path.join(app, "init-5.2", "tsconfig.json"), JSON.stringify({ compilerOptions: modern }));
}, 600_000);
afterAll(() => rmSync(app, { recursive: true, force: true }));

/** Writes a project extending `version`'s init config with `overrides`, over `files`; returns tsc's output. */
const check = (version: Version, name: string, files: readonly string[], overrides: Record<string, unknown> = {}): string => {
  const project = path.join(app, `tsconfig.${version}.${name}.json`);
  const compilerOptions = { types: ["node"], noEmit: true, declaration: false, declarationMap: false, sourceMap: false, ...overrides };
  writeFileSync(project, JSON.stringify({ extends: `./init-${version}/tsconfig.json`, compilerOptions, files }));
  return tsc(version, project);
};

test("tsc --init of 5.9 and of 7 write the strict settings the checks below run under", () => {
  for (const version of ["5.9", "7"] as const)
    expect([version, initOptions.get(version)]).toEqual([
      version,
      expect.objectContaining({
        module: "nodenext",
        target: "esnext",
        types: [],
        strict: true,
        exactOptionalPropertyTypes: true,
        noUncheckedIndexedAccess: true,
        verbatimModuleSyntax: true,
        isolatedModules: true,
        skipLibCheck: true,
      }),
    ]);
});

/**
 * What each compiler checks. The pasteable blocks and the issue's calls, under every version; with
 * them, in the same program, the published .d.ts with skipLibCheck off under 7
 * (test/dist/packaging.test.ts checks them under 5.9). The resolution modes under 7 (seconds each). One program per version where it can:
 * a 5.x program loads @types/node and React's types again each time (30 s and more on CI's two cores).
 */
const PLAN: Readonly<Record<Version, { readonly declarations: boolean; readonly resolutions: boolean }>> = {
  "7": { declarations: true, resolutions: true },
  "5.9": { declarations: false, resolutions: false },
  // Not the declarations: under TypeScript 5.2 a CommonJS-typed .d.ts may not import an
  // ES-module-only package, so ai.d.ts (`ai`) and angular.d.ts (`@angular/core`) report TS1479 with
  // skipLibCheck off (docs/packaging.md#typescript); tsc --init's skipLibCheck: true hides it.
  "5.2": { declarations: false, resolutions: false },
};

/**
 * The errors of tsc's output that are ours: in the snippets or in agui-rx's declarations (reached
 * through the symlinked dist, so tsc prints their real path), not in other packages' `.d.ts`.
 */
const ownErrors = (output: string): string[] => {
  const ownDist = `${path.relative(app, path.join(ROOT, "dist"))}/`;
  return output
    .split("\n")
    .filter((line) => /^\S+\(\d+,\d+\): error/.test(line))
    .filter((line) => line.startsWith(ownDist) || line.startsWith("node_modules/agui-rx/") || !(line.startsWith("../") || line.startsWith("node_modules/")));
};

describe.each(Object.keys(PLAN) as Version[])("TypeScript %s", (version) => {
  const what = PLAN[version].declarations ? ", and the published .d.ts of every entry (skipLibCheck off)," : "";
  test(`every pasteable \`\`\`ts block of the README and docs/, the issue's everyday calls (undefined for optional properties)${what} compile`, () => {
    const snippets = readdirSync(path.join(app, "snippets")).map((name) => `snippets/${name}`);
    expect(snippets.length).toBeGreaterThan(20);
    const files = ["firstDay.ts", ...snippets, ...(PLAN[version].declarations ? ["entries.ts"] : [])];
    const output = check(version, "snippets", files, PLAN[version].declarations ? { skipLibCheck: false } : {});
    expect(ownErrors(output)).toEqual([]);
    if (!PLAN[version].declarations) expect(output).toBe("");
  }, 300_000);

  if (PLAN[version].resolutions)
    test.each([
      ["nodenext, a CommonJS file (exports: require)", "entries.cts", { module: "nodenext", moduleResolution: "nodenext" }],
      ["node16, an ES module", "entries.ts", { module: "node16", moduleResolution: "node16" }],
      ["bundler", "entries.ts", { module: "esnext", moduleResolution: "bundler" }],
    ])(
      "resolves every entry's types under %s",
      (_label, file, options) => {
        expect(check(version, `resolution.${options.moduleResolution}.${path.extname(file)}`, [file], options)).toBe("");
      },
      300_000,
    );
});

test("TypeScript 7 has no node10 resolution, so typesVersions serves only TypeScript 5.x projects still on it", () => {
  expect(check("7", "node10", ["entries.cts"], { module: "commonjs", moduleResolution: "node10" })).toMatch(/node10/);
}, 300_000);
