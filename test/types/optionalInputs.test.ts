/**
 * Every optional property of an input type accepts `undefined` under `exactOptionalPropertyTypes`
 * (which `tsc --init` turns on): `new HttpTransport(url, { headers: token ? h : undefined })` must
 * compile. Read from the published declarations (dist/types, after `npm run build`):
 *
 * 1. A generated file: for every exported interface or type alias of every entry (but the outputs
 *    of outputTypes.ts) and each of its optional properties, `const c: Pick<Name, "p"> = { p: undefined }`,
 *    type-checked with `exactOptionalPropertyTypes: true`. This covers the io-ts faces too (their
 *    properties come from mapped types, not from `?:` lines).
 * 2. Every `p?: T` line of the declarations inside no output type (inline option objects of a
 *    function, a nested object of an options type, types the bundle does not export by name):
 *    `undefined` must be assignable to its `T`.
 *
 * docs/packaging.md#optional-properties-and-undefined states the rule.
 */
import * as path from "node:path";
import * as ts from "typescript";
import { ROOT, ensureBuilt, pkg } from "../dist/ensureBuilt";
import { OUTPUT_TYPES } from "./outputTypes";

const TYPES = path.join(ROOT, "dist", "types");
const OPTIONS: ts.CompilerOptions = {
  strict: true,
  exactOptionalPropertyTypes: true,
  noEmit: true,
  skipLibCheck: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  types: ["node"],
};

/** Each entry's declaration file, by the name a user imports (`agui-rx/server` → dist/types/server.d.ts). */
const entries = Object.entries(pkg.exports).flatMap(([key, target]) =>
  typeof target === "string" || target.types === undefined
    ? []
    : [{ name: key === "." ? "agui-rx" : `agui-rx/${key.slice(2)}`, file: path.join(ROOT, target.types) }],
);

/** One optional property of an input type: where it is (for the report) and how the probe names it. */
interface Finding {
  readonly where: string;
  readonly probe?: string;
}

/** The optional properties of the exported input types, each as a probe line (part 1). */
function exportedOptionals(program: ts.Program): Finding[] {
  const checker = program.getTypeChecker();
  const findings: Finding[] = [];
  const seen = new Set<ts.Symbol>();
  for (const entry of entries) {
    const source = program.getSourceFile(entry.file);
    const module = source === undefined ? undefined : checker.getSymbolAtLocation(source);
    if (module === undefined) throw new Error(`expected ${entry.file} to be a module (run npm run build)`);
    for (const exported of checker.getExportsOfModule(module)) {
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      if (!(symbol.flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.TypeAlias)) || symbol.flags & ts.SymbolFlags.Class) continue;
      if (seen.has(symbol) || exported.name in OUTPUT_TYPES) continue;
      seen.add(symbol);
      const declared = checker.getDeclaredTypeOfSymbol(symbol);
      if (declared.isUnion()) continue; // each member is checked by its own name (part 1) or by its lines (part 2)
      const parameters = symbol.declarations?.find((d) => ts.isInterfaceDeclaration(d) || ts.isTypeAliasDeclaration(d)) as ts.InterfaceDeclaration | undefined;
      const args = parameters?.typeParameters?.length ? `<${parameters.typeParameters.map(() => "any").join(", ")}>` : "";
      const named = `import(${JSON.stringify(entry.name)}).${exported.name}${args}`;
      for (const property of checker.getPropertiesOfType(declared)) {
        // An optional method (`stop?(): …`) is code a user writes when implementing the interface, not a setting.
        if (!(property.flags & ts.SymbolFlags.Optional) || property.flags & ts.SymbolFlags.Method) continue;
        const key = JSON.stringify(property.name);
        findings.push({ where: `${entry.name}: ${exported.name}.${property.name}`, probe: `Pick<${named}, ${key}> = { ${key}: undefined }` });
      }
    }
  }
  return findings;
}

/** The name of the type, function or member a `?:` line sits in, outermost named one. */
function ownerOf(node: ts.Node): string {
  for (let at: ts.Node | undefined = node.parent; at !== undefined; at = at.parent) {
    if ((ts.isInterfaceDeclaration(at) || ts.isTypeAliasDeclaration(at) || ts.isClassDeclaration(at) || ts.isFunctionDeclaration(at)) && at.name)
      return at.name.text;
    if (ts.isVariableDeclaration(at) && ts.isIdentifier(at.name)) return at.name.text;
  }
  return "";
}

/** Every `p?: T` line of the declarations outside the outputs whose `T` refuses `undefined` (part 2). */
function refusingLines(program: ts.Program): string[] {
  const checker = program.getTypeChecker();
  const undefinedType = checker.getUndefinedType();
  const refused = new Set<string>();
  for (const source of program.getSourceFiles()) {
    if (!source.fileName.startsWith(TYPES)) continue;
    const visit = (node: ts.Node): void => {
      if (ts.isPropertySignature(node) && node.questionToken && node.type && !(ownerOf(node) in OUTPUT_TYPES)) {
        if (!checker.isTypeAssignableTo(undefinedType, checker.getTypeFromTypeNode(node.type))) {
          const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
          refused.add(`${ownerOf(node)}: ${node.getText(source).replace(/\s+/g, " ")} (${path.relative(ROOT, source.fileName)}:${line + 1})`);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return [...refused];
}

/** Type-checks the probe (one `const` per finding) beside dist; returns the findings whose line errs. */
function refusedProbes(findings: readonly Finding[]): string[] {
  const probes = findings.filter((finding) => finding.probe !== undefined);
  const file = path.join(ROOT, "dist", "optionalInputs.probe.ts");
  const text = probes.map((finding, index) => `export const c${index}: ${finding.probe ?? ""};`).join("\n");
  const host = ts.createCompilerHost(OPTIONS);
  const readFile = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  host.readFile = (name) => (path.resolve(name) === file ? text : readFile(name));
  host.fileExists = (name) => path.resolve(name) === file || fileExists(name);
  // The probe resolves `agui-rx/…` through the package's own exports map (a self-reference).
  const program = ts.createProgram([file], OPTIONS, host);
  const source = program.getSourceFile(file);
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const line =
      source !== undefined && diagnostic.file === source && diagnostic.start !== undefined ? source.getLineAndCharacterOfPosition(diagnostic.start).line : -1;
    return `${probes[line]?.where ?? diagnostic.file?.fileName ?? "probe"}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, " ").slice(0, 200)}`;
  });
}

let program: ts.Program;
beforeAll(() => {
  ensureBuilt();
  program = ts.createProgram(
    entries.map((entry) => entry.file),
    OPTIONS,
  );
}, 300_000);

test("every optional property of every exported input type takes undefined (a generated probe under exactOptionalPropertyTypes)", () => {
  const findings = exportedOptionals(program);
  // The issue counted 291 optional properties in the .d.ts: the probe reaches the exported ones.
  expect(findings.length).toBeGreaterThan(150);
  expect(refusedProbes(findings)).toEqual([]);
}, 120_000);

test("every `p?: T` line outside the output types takes undefined (inline and unexported option objects)", () => {
  expect(refusingLines(program)).toEqual([]);
}, 120_000);

test("the probe is not vacuous: an option written `foo?: string` is refused", () => {
  const refused = refusedProbes([
    { where: "a plain optional", probe: `Pick<{ foo?: string }, "foo"> = { foo: undefined }` },
    { where: "a HandlerOptions property", probe: `Pick<import("agui-rx/server").HandlerOptions, "store"> = { store: undefined }` },
  ]);
  expect(refused).toEqual([
    expect.stringMatching(
      /^a plain optional: Type '\{ foo: undefined; \}' is not assignable to type 'Pick<\{ foo\?: string; \}, "foo">' with 'exactOptionalPropertyTypes: true'/,
    ),
  ]);
}, 120_000);
