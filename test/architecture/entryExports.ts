/**
 * The export names of the package's entries, read from the sources with the TypeScript checker:
 * every name an entry exports, a type-only one written `type Name`, sorted by name (code points). What `agui-rx/...`
 * resolves to is package.json's "exports"; `ENTRIES` (the docs' snippet map) names the source of each.
 */
import * as path from "node:path";
import * as ts from "typescript";

/** How the architecture tests compile the entry files: as the package's users resolve them (NodeNext), strict. */
export const ENTRY_PROGRAM_OPTIONS: ts.CompilerOptions = {
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2022,
  jsx: ts.JsxEmit.ReactJSX,
  strict: true,
  skipLibCheck: true,
  noEmit: true,
  types: ["node"],
};

/** Sorted export names of each entry file (relative to `root`), `type X` for a type-only export. */
export function entryExports(root: string, entries: Readonly<Record<string, string>>): Record<string, string[]> {
  const files = Object.values(entries).map((file) => path.join(root, file));
  const program = ts.createProgram(files, ENTRY_PROGRAM_OPTIONS);
  const checker = program.getTypeChecker();
  const out: Record<string, string[]> = {};
  for (const [name, file] of Object.entries(entries)) {
    const source = program.getSourceFile(path.join(root, file));
    const module = source === undefined ? undefined : checker.getSymbolAtLocation(source);
    if (module === undefined) throw new Error(`expected ${file} (${name}) to be a module the compiler can read`);
    out[name] = checker
      .getExportsOfModule(module)
      .map((symbol) => {
        const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
        return target.flags & ts.SymbolFlags.Value ? symbol.getName() : `type ${symbol.getName()}`;
      })
      .sort((a, b) => compare(bare(a), bare(b)));
  }
  return out;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function bare(name: string): string {
  return name.startsWith("type ") ? name.slice(5) : name;
}
