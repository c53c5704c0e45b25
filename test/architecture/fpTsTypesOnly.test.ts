/**
 * fp-ts is a type dependency of src/ only (docs/packaging.md#the-size-gate): its CommonJS modules
 * inlined into the client cost about 27 kB minified, so `Either` values come from
 * `src/protocol/either.ts`, which builds them in fp-ts's own shape. Any import of fp-ts in src/ that
 * is not `import type` fails here, naming the file.
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";
import { sourceFiles } from "./importGraph";

const ROOT = path.resolve(__dirname, "../..");

/** The fp-ts modules `code` imports as values (`import type` and type-only specifiers left out). */
function fpTsValueImports(file: string, code: string): string[] {
  const source = ts.createSourceFile(file, code, ts.ScriptTarget.ES2022, true, file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: string[] = [];
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) && !ts.isExportDeclaration(statement)) continue;
    const specifier = statement.moduleSpecifier;
    if (specifier === undefined || !ts.isStringLiteral(specifier) || !/^fp-ts(\/|$)/.test(specifier.text)) continue;
    const typeOnly = ts.isImportDeclaration(statement)
      ? statement.importClause?.isTypeOnly === true ||
        (statement.importClause?.name === undefined &&
          statement.importClause?.namedBindings !== undefined &&
          ts.isNamedImports(statement.importClause.namedBindings) &&
          statement.importClause.namedBindings.elements.every((element) => element.isTypeOnly))
      : statement.isTypeOnly;
    if (!typeOnly) found.push(specifier.text);
  }
  return found;
}

test("the checker tells a value import of fp-ts from a type-only one", () => {
  expect(fpTsValueImports("a.ts", 'import { isLeft } from "fp-ts/Either";')).toEqual(["fp-ts/Either"]);
  expect(fpTsValueImports("a.ts", 'import * as E from "fp-ts/Either";')).toEqual(["fp-ts/Either"]);
  expect(fpTsValueImports("a.ts", 'export { right } from "fp-ts/Either";')).toEqual(["fp-ts/Either"]);
  expect(fpTsValueImports("a.ts", 'import type { Either } from "fp-ts/Either";')).toEqual([]);
  expect(fpTsValueImports("a.ts", 'import { type Either, type Left } from "fp-ts/Either";')).toEqual([]);
  expect(fpTsValueImports("a.ts", 'import { isLeft } from "../protocol/either";')).toEqual([]);
});

test("no file in src/ imports fp-ts as a value", () => {
  const offenders = sourceFiles(ROOT, "src").flatMap((file) =>
    fpTsValueImports(file, readFileSync(path.join(ROOT, file), "utf8")).map((specifier) => `${file} imports ${specifier} as a value`),
  );
  expect(offenders).toEqual([]);
});
