/**
 * The import graph of the sources, read with the TypeScript parser (no type-check): every
 * `import`, `import type`, `export … from`, `import()` and `require()` with a relative specifier,
 * resolved to a file. Type-only imports count: docs/architecture.md#conventions allows no cycle, `import type` included.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";

/** File → the files it imports, both relative to the graph's root. */
export type ImportGraph = ReadonlyMap<string, readonly string[]>;

/** Every `.ts` / `.tsx` file below `dir` (declaration files left out), relative to `root`. */
export function sourceFiles(root: string, dir: string): string[] {
  const out: string[] = [];
  const walk = (at: string): void => {
    for (const name of readdirSync(at).sort()) {
      const full = path.join(at, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (/\.tsx?$/.test(name) && !name.endsWith(".d.ts")) out.push(path.relative(root, full));
    }
  };
  walk(path.join(root, dir));
  return out;
}

/** The relative specifiers `code` imports, in source order. */
export function importSpecifiers(file: string, code: string): string[] {
  const source = ts.createSourceFile(file, code, ts.ScriptTarget.ES2022, true, file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier !== undefined && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node) && node.arguments.length === 1 && ts.isStringLiteral(node.arguments[0])) {
      const callee = node.expression;
      if (callee.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(callee) && callee.text === "require")) found.push(node.arguments[0].text);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      found.push(node.argument.literal.text); // `import("./x").T` in a type position
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found.filter((specifier) => specifier.startsWith("."));
}

/** Resolves a relative specifier of `from` the way the compiler does for our sources: `x.ts`, `x.tsx`, `x/index.ts`. */
export function resolveImport(root: string, from: string, specifier: string): string {
  const base = path.resolve(root, path.dirname(from), specifier);
  for (const candidate of [`${base}.ts`, `${base}.tsx`, path.join(base, "index.ts"), path.join(base, "index.tsx"), base]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return path.relative(root, candidate);
  }
  throw new Error(`${from}: expected "${specifier}" to name a source file, but none exists at ${path.relative(root, base)}(.ts|.tsx|/index.ts)`);
}

/** The import graph of `files` (relative to `root`); imports that leave the set are kept as edges too. */
export function importGraph(root: string, files: readonly string[]): ImportGraph {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const code = readFileSync(path.join(root, file), "utf8");
    graph.set(file, [...new Set(importSpecifiers(file, code).map((specifier) => resolveImport(root, file, specifier)))]);
  }
  return graph;
}

/**
 * The import cycles of `graph`: its strongly connected components of more than one file, and the
 * files that import themselves, each as its files in sorted order (Tarjan's algorithm, iterative,
 * so depth does not matter).
 */
export function importCycles(graph: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  let next = 0;
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: { node: string; edge: number }[] = [{ node: start, edge: 0 }];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const edges = graph.get(frame.node) ?? [];
      if (frame.edge < edges.length) {
        const to = edges[frame.edge++];
        if (!graph.has(to)) continue;
        if (!index.has(to)) {
          index.set(to, next);
          low.set(to, next++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, edge: 0 });
        } else if (onStack.has(to)) low.set(frame.node, Math.min(low.get(frame.node) ?? 0, index.get(to) ?? 0));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent !== undefined) low.set(parent.node, Math.min(low.get(parent.node) ?? 0, low.get(frame.node) ?? 0));
      if (low.get(frame.node) !== index.get(frame.node)) continue;
      const component: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop();
        if (member === undefined) break;
        onStack.delete(member);
        component.push(member);
      } while (member !== frame.node);
      if (component.length > 1 || edges.includes(frame.node)) cycles.push(component.sort());
    }
  }
  return cycles;
}
