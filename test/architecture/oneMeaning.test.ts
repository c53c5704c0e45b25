/**
 * One meaning per exported name (docs/architecture.md § Public surface): a name two entries
 * export is the same declaration in both (`StateSpec` in `agui-rx`, `agui-rx/server` and
 * `agui-rx/client`), never two different things (as `RunSource` once was an agent-or-function in
 * `agui-rx/server` and a session-like interface in `agui-rx/react`).
 */
import * as path from "node:path";
import * as ts from "typescript";
import { ENTRIES } from "../docs/snippets";
import { unexportedSignatureTypes } from "./signatureTypes";

const ROOT = path.resolve(__dirname, "../..");
const { program } = unexportedSignatureTypes(ROOT, ENTRIES);
const checker = program.getTypeChecker();

/** Each exported name → the entries that export it, by the declaration each resolves to (`file:line`). */
function meanings(): Map<string, Map<string, string[]>> {
  const out = new Map<string, Map<string, string[]>>();
  for (const [entry, file] of Object.entries(ENTRIES)) {
    const source = program.getSourceFile(path.join(ROOT, file));
    const module = source === undefined ? undefined : checker.getSymbolAtLocation(source);
    if (module === undefined) throw new Error(`expected ${file} (${entry}) to be a module the compiler can read`);
    for (const symbol of checker.getExportsOfModule(module)) {
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      const declaration = target.declarations?.[0];
      const where =
        declaration === undefined
          ? "?"
          : `${path.relative(ROOT, declaration.getSourceFile().fileName)}:${declaration.getSourceFile().getLineAndCharacterOfPosition(declaration.getStart()).line + 1}`;
      const byDeclaration = out.get(symbol.getName()) ?? new Map<string, string[]>();
      byDeclaration.set(where, [...(byDeclaration.get(where) ?? []), entry]);
      out.set(symbol.getName(), byDeclaration);
    }
  }
  return out;
}

const all = meanings();

test("no name is exported with two meanings across the entries", () => {
  const twice = [...all].filter(([, byDeclaration]) => byDeclaration.size > 1).map(([name, byDeclaration]) => ({ name, ...Object.fromEntries(byDeclaration) }));
  expect(twice).toEqual([]);
});

test("the check is real: names shared by entries are seen as one declaration", () => {
  // StateSpec is offered by three entries, FetchHandler by the server and node entries: one declaration each.
  expect([...(all.get("StateSpec")?.values() ?? [])]).toEqual([["agui-rx", "agui-rx/server", "agui-rx/client"]]);
  expect([...(all.get("FetchHandler")?.values() ?? [])]).toEqual([["agui-rx/server", "agui-rx/node"]]);
  expect(all.get("SessionLike")?.size).toBe(1);
});
