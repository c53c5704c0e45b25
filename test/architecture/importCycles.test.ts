/** docs/architecture.md#conventions / STYLE §4: no import cycles in src/, `import type` included. */
import * as path from "node:path";
import { importCycles, importGraph, importSpecifiers, sourceFiles, type ImportGraph } from "./importGraph";

const ROOT = path.resolve(__dirname, "../..");

describe("the cycle finder", () => {
  const graph = (edges: Record<string, string[]>): ImportGraph => new Map(Object.entries(edges));

  it("reads import type, export … from, require() and import() types as imports, and leaves packages out", () => {
    const code = 'import type { A } from "./a";\nexport { b } from "./b";\nconst c = require("./c");\ntype D = import("./d").D;\nimport "rxjs";';
    expect(importSpecifiers("x.ts", code)).toEqual(["./a", "./b", "./c", "./d"]);
  });

  it("reports each strongly connected component once, and a file that imports itself", () => {
    const cycles = importCycles(graph({ a: ["b"], b: ["c"], c: ["a", "d"], d: [], e: ["e"], f: ["a"] }));
    expect(cycles).toEqual([["a", "b", "c"], ["e"]]);
  });

  it("finds nothing in a graph without cycles", () => {
    expect(importCycles(graph({ a: ["b", "c"], b: ["c"], c: [] }))).toEqual([]);
  });
});

test("src/ has no import cycles", () => {
  const files = sourceFiles(ROOT, "src");
  expect(files.length).toBeGreaterThan(150);
  expect(importCycles(importGraph(ROOT, files))).toEqual([]);
});
