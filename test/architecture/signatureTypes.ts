/**
 * The types an entry's public signatures name, read with the TypeScript checker from the entries'
 * sources: for every exported declaration, each type it refers to by name (parameters, results,
 * members, heritage, type arguments) that is declared in this package's `src/`. A user who holds a
 * value of such a type needs to name it, so each one must be importable from the same entry. The
 * first entry of `entries` is the root: its declarations, re-exported elsewhere, are checked as its.
 */
import * as path from "node:path";
import * as ts from "typescript";
import { ENTRY_PROGRAM_OPTIONS } from "./entryExports";

/** One type a public signature names that its entry does not export. */
export interface UnexportedType {
  readonly entry: string;
  /** The exported declaration whose signature names it. */
  readonly exported: string;
  /** The type's name and where it is declared (relative to the root). */
  readonly named: string;
}

/** A constructor whose doc comment starts with this is made by the library only: its parameters are no part of the public signature. */
const NOT_FOR_APPLICATIONS = /^\/\*\*\s*Not for applications\b/;

/**
 * Every name an entry exports, resolved to its declaration, and the types its public signatures
 * name that the entry does not export (in declaration order).
 */
export function unexportedSignatureTypes(
  root: string,
  entries: Readonly<Record<string, string>>,
): { readonly program: ts.Program; readonly unexported: UnexportedType[] } {
  const program = ts.createProgram(
    Object.values(entries).map((file) => path.join(root, file)),
    ENTRY_PROGRAM_OPTIONS,
  );
  const checker = program.getTypeChecker();
  const src = path.join(root, "src") + path.sep;
  const resolved = (symbol: ts.Symbol): ts.Symbol => (symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol);
  const exportsOf = (entry: string, file: string): ts.Symbol[] => {
    const source = program.getSourceFile(path.join(root, file));
    const module = source === undefined ? undefined : checker.getSymbolAtLocation(source);
    if (module === undefined) throw new Error(`expected ${file} (${entry}) to be a module the compiler can read`);
    return checker.getExportsOfModule(module).map(resolved);
  };
  // The root entry's declarations are checked once, as the root's: another entry that names one of
  // them (a Message, an Event) is not asked to export every type that one names in turn.
  const [rootEntry, rootFile] = Object.entries(entries)[0] ?? [];
  const rootOwn = new Set(rootEntry === undefined || rootFile === undefined ? [] : exportsOf(rootEntry, rootFile));
  const unexported: UnexportedType[] = [];
  for (const [entry, file] of Object.entries(entries)) {
    const exported = exportsOf(entry, file);
    const offered = new Set(exported);
    const reported = new Set<string>();
    for (const symbol of exported) {
      if (entry !== rootEntry && rootOwn.has(symbol)) continue;
      const declarations = symbol.declarations ?? [];
      for (const declaration of declarations) {
        if (!declaration.getSourceFile().fileName.startsWith(src)) continue;
        // An overloaded function's implementation signature is not part of its type: its overloads are.
        if (ts.isFunctionDeclaration(declaration) && declaration.body !== undefined && declarations.length > 1) continue;
        for (const reference of namedTypes(declaration)) {
          const target = checker.getSymbolAtLocation(ts.isTypeReferenceNode(reference) ? reference.typeName : reference.expression);
          if (target === undefined) continue;
          const type = resolved(target);
          if (type.flags & ts.SymbolFlags.TypeParameter || offered.has(type)) continue;
          const at = type.declarations?.[0]?.getSourceFile().fileName;
          if (at === undefined || !at.startsWith(src)) continue;
          const named = `${type.getName()} (${path.relative(root, at)})`;
          const key = `${symbol.getName()} ${named}`;
          if (reported.has(key)) continue;
          reported.add(key);
          unexported.push({ entry, exported: symbol.getName(), named });
        }
      }
    }
  }
  return { program, unexported };
}

/** The type references of a declaration's public signature: what a user of it sees in the published types. */
function namedTypes(declaration: ts.Node): (ts.TypeReferenceNode | ts.ExpressionWithTypeArguments)[] {
  const found: (ts.TypeReferenceNode | ts.ExpressionWithTypeArguments)[] = [];
  const visit = (node: ts.Node): void => {
    if (isHidden(node)) return;
    // `typeof codec` names a value, not a type the user writes.
    if (ts.isTypeQueryNode(node)) return;
    if (ts.isTypeReferenceNode(node) || (ts.isExpressionWithTypeArguments(node) && ts.isHeritageClause(node.parent))) found.push(node);
    // A function's or method's body and a variable's initializer are implementation, not signature.
    if (ts.isBlock(node)) return;
    if ((ts.isVariableDeclaration(node) || ts.isPropertyDeclaration(node) || ts.isParameter(node)) && node.initializer !== undefined) {
      for (const child of [node.name, node.type]) if (child !== undefined) visit(child);
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(declaration);
  return found;
}

/** Private and protected members, `#private` ones, `@internal` ones and library-made constructors are not in the public signature. */
function isHidden(node: ts.Node): boolean {
  if (ts.isPropertyDeclaration(node) || ts.isMethodDeclaration(node) || ts.isGetAccessor(node) || ts.isSetAccessor(node) || ts.isParameter(node)) {
    const modifiers = ts.getCombinedModifierFlags(node);
    if (modifiers & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) return true;
    if (node.name !== undefined && ts.isPrivateIdentifier(node.name)) return true;
  }
  if (ts.isConstructorDeclaration(node) && NOT_FOR_APPLICATIONS.test(node.getFullText().trimStart())) return true;
  // An overloaded constructor's or method's implementation signature is not part of its type: its overloads are.
  if ((ts.isConstructorDeclaration(node) || ts.isMethodDeclaration(node)) && node.body !== undefined && hasOverloads(node)) return true;
  return ts.getJSDocTags(node).some((tag) => tag.tagName.text === "internal") || /^\/\*\*\s*@internal\b/.test(node.getFullText().trimStart());
}

function hasOverloads(node: ts.ConstructorDeclaration | ts.MethodDeclaration): boolean {
  const name = node.name?.getText();
  const siblings: readonly ts.Node[] = ts.isClassLike(node.parent) ? node.parent.members : [];
  return siblings.some(
    (member) =>
      member !== node &&
      (ts.isConstructorDeclaration(member) || ts.isMethodDeclaration(member)) &&
      member.kind === node.kind &&
      member.name?.getText() === name &&
      member.body === undefined,
  );
}
