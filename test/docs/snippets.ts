/**
 * Code blocks of the Markdown docs, compiled and run as a user would paste them: every ```ts and
 * ```tsx block is one module that imports the package by its public names (`agui-rx`,
 * `agui-rx/server`, …), which resolve to the entries' sources in src/.
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";

export const ROOT = path.resolve(__dirname, "../..");

/** One fenced block: its language, its code, and the Markdown line its code starts on (1-based). */
export interface Snippet {
  readonly lang: "ts" | "tsx";
  readonly code: string;
  readonly line: number;
  /** The ```text block right after it, if any: the output the doc promises. */
  readonly output?: string;
}

/** The package's public entries, by the name a user imports them with. */
export const ENTRIES: Readonly<Record<string, string>> = {
  "agui-rx": "src/index.ts",
  "agui-rx/server": "src/server/index.ts",
  "agui-rx/client": "src/client/index.ts",
  "agui-rx/client/telemetry": "src/client/telemetry/index.ts",
  "agui-rx/node": "src/node/index.ts",
  "agui-rx/react": "src/react/index.ts",
  "agui-rx/inspector": "src/inspector/index.ts",
  "agui-rx/angular": "src/angular/index.ts",
  "agui-rx/ai": "src/ai/index.ts",
  "agui-rx/redis": "src/redis/index.ts",
  "agui-rx/testing": "src/testing/index.ts",
  "agui-rx/testing/ai": "src/testing/ai/index.ts",
};

/** Every ```ts / ```tsx block of a Markdown file, with the ```text block that follows it (blank lines and prose between are allowed). */
export function extractSnippets(file: string): Snippet[] {
  const lines = readFileSync(path.join(ROOT, file), "utf8").split("\n");
  const blocks: { lang: string; code: string; line: number }[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\w*)\s*$/.exec(lines[i] ?? "");
    if (open === null) continue;
    const start = i + 1;
    let end = start;
    while (end < lines.length && lines[end] !== "```") end++;
    if (end === lines.length) throw new Error(`${file}:${i + 1}: expected a closing fence for the block that opens here`);
    blocks.push({ lang: open[1] ?? "", code: lines.slice(start, end).join("\n"), line: start + 1 });
    i = end;
  }
  const snippets: Snippet[] = [];
  blocks.forEach((block, index) => {
    if (block.lang !== "ts" && block.lang !== "tsx") return;
    const next = blocks[index + 1];
    snippets.push({ lang: block.lang, code: block.code, line: block.line, ...(next?.lang === "text" ? { output: next.code } : {}) });
  });
  return snippets;
}

/** How a snippet is compiled: as an ES module (top-level await allowed) or as CommonJS (no top-level await). */
export type ModuleKind = "esm" | "cjs";

const BASE: ts.CompilerOptions = {
  strict: true,
  noEmit: true,
  target: ts.ScriptTarget.ES2022,
  lib: ["lib.es2022.d.ts", "lib.dom.d.ts", "lib.dom.iterable.d.ts", "lib.esnext.disposable.d.ts"],
  types: ["node"],
  jsx: ts.JsxEmit.ReactJSX,
  esModuleInterop: true,
  skipLibCheck: true,
  experimentalDecorators: true, // what an Angular project's tsconfig sets
  baseUrl: ROOT,
  paths: Object.fromEntries(Object.entries(ENTRIES).map(([name, file]) => [name, [file]])),
};

const KINDS: Record<ModuleKind, ts.CompilerOptions> = {
  esm: { module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler },
  // node16 reads the nearest package.json: the repository's says "type": "commonjs", so each snippet is a CommonJS file
  cjs: { module: ts.ModuleKind.Node16, moduleResolution: ts.ModuleResolutionKind.Node16 },
};

/**
 * Type-checks the snippets, each as its own module in a directory at the repository root (so
 * `rxjs`, `react`, … resolve from node_modules). Returns one line per error, naming the Markdown
 * file and line; `[]` when all compile.
 */
export function typeErrors(file: string, snippets: readonly Snippet[], kind: ModuleKind): string[] {
  const dir = path.join(ROOT, ".snippets", file.replace(/[^\w]/g, "_"));
  const sources = new Map(snippets.map((snippet, index) => [path.join(dir, `snippet${index}.${snippet.lang}`), snippet]));
  const options = { ...BASE, ...KINDS[kind] };
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  host.readFile = (name) => sources.get(path.resolve(name))?.code ?? readFile(name);
  host.fileExists = (name) => sources.has(path.resolve(name)) || fileExists(name);
  const program = ts.createProgram([...sources.keys()], options, host);
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const text = ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n");
    const snippet = diagnostic.file === undefined ? undefined : sources.get(path.resolve(diagnostic.file.fileName));
    if (diagnostic.file === undefined || diagnostic.start === undefined) return `${file}: ${text}`;
    const { line } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
    const where = snippet === undefined ? diagnostic.file.fileName : `${file}:${snippet.line + line}`;
    return `${where}: TS${diagnostic.code}: ${text}`;
  });
}
