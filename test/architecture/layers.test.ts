/**
 * The floors of src/ (docs/architecture.md#layer-order), read from the layer table: no import
 * points from a lower rank to a higher one, no folders import one another in a circle, and
 * client/ and server/ never import each other. The checker is shown to fail on synthetic graphs first.
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { importGraph, sourceFiles, type ImportGraph } from "./importGraph";
import { folderCycles, folderGraph, folderOf, layerViolations, readLayerOrder, readLayerRanks, type LayerRanks } from "./layerRules";

const ROOT = path.resolve(__dirname, "../..");
const ARCHITECTURE = readFileSync(path.join(ROOT, "docs", "architecture.md"), "utf8");
const APART = [["client", "server"]] as const;

describe("the layer checker, on synthetic graphs", () => {
  const ranks: LayerRanks = new Map([
    ["protocol", 0],
    ["thread", 1],
    ["client", 2],
    ["server", 2],
    ["react", 3],
  ]);
  const graph = (edges: Record<string, string[]>): ImportGraph => new Map(Object.entries(edges));
  const lawful = graph({
    "src/protocol/events.ts": [],
    "src/thread/fold.ts": ["src/protocol/events.ts"],
    "src/client/Session.ts": ["src/thread/fold.ts", "src/client/apply.ts"],
    "src/client/apply.ts": ["src/protocol/events.ts"],
    "src/server/run.ts": ["src/thread/fold.ts"],
    "src/react/useRun.ts": ["src/client/Session.ts"],
  });
  const withEdge = (from: string, to: string): ImportGraph => new Map([...lawful].map(([file, imports]) => [file, file === from ? [...imports, to] : imports]));

  it("passes a graph that keeps the order, imports within a folder included", () => {
    expect(layerViolations(folderGraph(lawful), ranks, APART)).toEqual([]);
    expect(folderCycles(folderGraph(lawful))).toEqual([]);
  });

  it("fails an import that points up, naming the file and both ranks", () => {
    expect(layerViolations(folderGraph(withEdge("src/thread/fold.ts", "src/react/useRun.ts")), ranks, APART)).toEqual([
      "src/thread/fold.ts -> src/react/useRun.ts: thread (rank 1) imports react (rank 3); expected imports of the same or a lower rank, but this one points up",
    ]);
  });

  it("fails an import between client and server, though they share a rank, in either direction", () => {
    expect(layerViolations(folderGraph(withEdge("src/client/apply.ts", "src/server/run.ts")), ranks, APART)).toEqual([
      "src/client/apply.ts -> src/server/run.ts: expected client and server never to import each other, but client imports server",
    ]);
    expect(layerViolations(folderGraph(withEdge("src/server/run.ts", "src/client/apply.ts")), ranks, APART)).toEqual([
      "src/server/run.ts -> src/client/apply.ts: expected server and client never to import each other, but server imports client",
    ]);
  });

  it("fails a folder the table does not rank", () => {
    expect(layerViolations(folderGraph(withEdge("src/react/useRun.ts", "src/angular/inject.ts")), ranks, APART)).toEqual([
      "src/angular: expected a rank in docs/architecture.md's layer table, but it has no row",
    ]);
  });

  it("finds a cycle between folders of one rank, which the rank rule alone allows", () => {
    const cyclic = withEdge("src/client/apply.ts", "src/server/run.ts");
    const both = new Map([...cyclic].map(([file, imports]) => [file, file === "src/server/run.ts" ? [...imports, "src/client/Session.ts"] : imports]));
    expect(folderCycles(folderGraph(both))).toEqual([["client", "server"]]);
    expect(folderCycles(folderGraph(withEdge("src/server/run.ts", "src/client/apply.ts")))).toEqual([]);
  });

  it("reads ranks and the order line from the layer section, and says what is missing", () => {
    const section =
      "## Layers and where they live\n\n**protocol < thread**\n\n| rank | folder |\n|---|---|\n| 0 | `src/protocol/` | x |\n| 1 | `src/thread/` | y |\n| 0 | `src/index.ts` | z |\n\n## Public surface\n\n| 9 | `src/late/` | not in the section |\n";
    expect([...readLayerRanks(section)]).toEqual([
      ["protocol", 0],
      ["thread", 1],
      ["index.ts", 0],
    ]);
    expect(readLayerOrder(section)).toEqual([["protocol"], ["thread"]]);
    expect(() => readLayerRanks("## Layers and where they live\n\nno table\n")).toThrow("expected the layer table to have rows");
    expect(() => readLayerRanks("# Architecture\n")).toThrow('expected docs/architecture.md to have a "## Layers and where they live" section');
    expect(() => readLayerRanks(`${section.slice(0, section.indexOf("\n\n## Public"))}\n| 2 | \`src/thread/\` | twice |\n`)).toThrow("src/thread has two");
  });

  it("names the folder of a file, the root entry being its own", () => {
    expect([folderOf("src/thread/reducers/applyEvent.ts"), folderOf("src/index.ts")]).toEqual(["thread", "index.ts"]);
    expect(() => folderOf("test/x.ts")).toThrow("expected a file below src/, but got test/x.ts");
  });
});

describe("src/, against docs/architecture.md#layer-order", () => {
  const ranks = readLayerRanks(ARCHITECTURE);
  const folders = folderGraph(importGraph(ROOT, sourceFiles(ROOT, "src")));

  test("the bold order line and the table's ranks agree (the line may name a floor's folder before it exists)", () => {
    const order = readLayerOrder(ARCHITECTURE);
    const fromLine = new Map(order.flatMap((floor, rank) => floor.map((name) => [name, rank] as const)));
    const tableFolders = [...ranks].filter(([folder]) => folder !== "index.ts");
    expect(tableFolders.map(([folder]) => [folder, fromLine.get(folder)])).toEqual(tableFolders);
  });

  test("no import points from a lower layer to a higher one, every folder is ranked, and client/ and server/ never import each other", () => {
    expect(folders.size).toBeGreaterThanOrEqual(12);
    expect(layerViolations(folders, ranks, APART)).toEqual([]);
  });

  test("no import cycles between folders", () => {
    expect(folderCycles(folders)).toEqual([]);
  });
});
