/**
 * Runs a Markdown code block as the program it is. The block is an ES module that may use
 * top-level await: its imports stay at the top, everything else becomes the body of one async
 * function, which is transpiled to CommonJS and called with a console that records what it prints.
 * `agui-rx`, `agui-rx/server`, … resolve to the entries' sources, as in `typeErrors`.
 */
import * as path from "node:path";
import { format } from "node:util";
import * as ts from "typescript";
import { ENTRIES, ROOT, type Snippet } from "./snippets";

/** What the block printed with console.log / info / warn / error, one string per call, and the lines joined. */
export interface SnippetRun {
  readonly lines: readonly string[];
  readonly output: string;
}

/**
 * Runs `snippet` to the end of its body (awaiting its top-level awaits); rejects with what it threw.
 *
 * @example
 * const { output } = await runSnippet(snippet);
 * expect(output).toBe(snippet.output);
 */
export async function runSnippet(snippet: Snippet): Promise<SnippetRun> {
  const source = ts.createSourceFile(
    `snippet.${snippet.lang}`,
    snippet.code,
    ts.ScriptTarget.ES2022,
    true,
    snippet.lang === "tsx" ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const imports = source.statements.filter(ts.isImportDeclaration).map((statement) => statement.getFullText(source));
  const body = source.statements.filter((statement) => !ts.isImportDeclaration(statement)).map((statement) => statement.getFullText(source));
  const wrapped = `${imports.join("")}\nexport async function __snippet(console: Pick<Console, "log" | "info" | "warn" | "error">): Promise<void> {${body.join("")}\n}\n`;
  const { outputText } = ts.transpileModule(wrapped, {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true, jsx: ts.JsxEmit.ReactJSX },
  });
  const moduleExports: { __snippet?: (console: Pick<Console, "log" | "info" | "warn" | "error">) => Promise<void> } = {};
  const load = (name: string): unknown => {
    const entry = ENTRIES[name];
    // Jest's require: TypeScript sources go through ts-jest like every test's imports.
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- runs a documented snippet as CommonJS, the way a reader's require would
    return require(entry === undefined ? name : path.join(ROOT, entry));
  };
  // The transpiled block is our own docs' code, evaluated as a CommonJS module body.
  // eslint-disable-next-line @typescript-eslint/no-implied-eval, @typescript-eslint/no-unsafe-call -- the snippet, compiled to CommonJS, runs in its own function scope
  new Function("exports", "require", "module", outputText)(moduleExports, load, { exports: moduleExports });
  const run = moduleExports.__snippet;
  if (run === undefined) throw new Error("expected the wrapped snippet to export __snippet");
  const lines: string[] = [];
  const record = (...args: unknown[]): void => {
    lines.push(format(...args));
  };
  await run({ log: record, info: record, warn: record, error: record });
  return { lines, output: lines.join("\n") };
}
