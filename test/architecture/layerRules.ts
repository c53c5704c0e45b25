/**
 * The layer rules of docs/architecture.md#layer-order, as functions over an import graph: read
 * each folder's rank from the layer table, fold the file graph into a folder graph, and list what
 * breaks the rules (an unranked folder, an import that points up, an import between two folders
 * kept apart, a cycle between folders). Pure, so a synthetic graph shows that each rule can fail.
 */
import { importCycles, type ImportGraph } from "./importGraph";

/** Folder (`client`, `thread`, … or `index.ts` for the root entry) → its rank in the layer table. */
export type LayerRanks = ReadonlyMap<string, number>;

/** Folder → the folders it imports → the file imports that make each edge (`from -> to`), in graph order. */
export type FolderGraph = ReadonlyMap<string, ReadonlyMap<string, readonly string[]>>;

/**
 * The ranks of docs/architecture.md's layer table: its rows `| rank | \`src/folder/\` | …` and
 * `| rank | \`src/index.ts\` | …` between "## Layers and where they live" and the next `## `.
 *
 * @example
 * readLayerRanks(readFileSync("docs/architecture.md", "utf8")).get("thread"); // 3
 */
export function readLayerRanks(markdown: string): LayerRanks {
  const start = markdown.indexOf("## Layers and where they live");
  if (start < 0) throw new Error('expected docs/architecture.md to have a "## Layers and where they live" section, but found none');
  const rest = markdown.slice(start + 1);
  const end = rest.search(/^## /m);
  const section = end < 0 ? rest : rest.slice(0, end);
  const ranks = new Map<string, number>();
  for (const row of section.matchAll(/^\| (\d+) \| `src\/(?:([a-z]+)\/|(index\.ts))` \|/gm)) {
    const folder = row[2] ?? row[3];
    if (ranks.has(folder)) throw new Error(`expected one row per folder in the layer table, but src/${folder} has two`);
    ranks.set(folder, Number(row[1]));
  }
  if (ranks.size === 0) throw new Error("expected the layer table to have rows `| rank | `src/folder/` | …`, but found none");
  return ranks;
}

/**
 * The floors of the bold order line (`**protocol < wire, patch < …**`) of the layer section, lowest first.
 *
 * @example
 * readLayerOrder("## Layers and where they live\n**protocol < wire, patch**\n"); // [["protocol"], ["wire", "patch"]]
 */
export function readLayerOrder(markdown: string): string[][] {
  const start = markdown.indexOf("## Layers and where they live");
  const line = /^\*\*([a-z, <]+)\*\*$/m.exec(markdown.slice(Math.max(start, 0)));
  if (start < 0 || line === null) throw new Error("expected the layer section to state the order as a bold line `**a < b, c < …**`, but found none");
  return line[1].split("<").map((floor) => floor.split(",").map((name) => name.trim()));
}

/**
 * The folder of a source file below `src/`: its first directory, or the file itself at the top
 * (`src/index.ts` → `index.ts`).
 *
 * @example
 * folderOf("src/thread/reducers/applyEvent.ts"); // "thread"
 */
export function folderOf(file: string): string {
  const parts = file.split(/[\\/]/);
  if (parts[0] !== "src" || parts.length < 2) throw new Error(`expected a file below src/, but got ${file}`);
  return parts[1];
}

/**
 * The folder graph of a file graph: an edge between two folders for every file import that
 * crosses from one to the other (imports within a folder are left out).
 *
 * @example
 * folderGraph(new Map([["src/a/x.ts", ["src/b/y.ts"]]])); // a -> b (["src/a/x.ts -> src/b/y.ts"])
 */
export function folderGraph(graph: ImportGraph): FolderGraph {
  const folders = new Map<string, Map<string, string[]>>();
  for (const [file, imports] of graph) {
    const from = folderOf(file);
    const edges = folders.get(from) ?? new Map<string, string[]>();
    folders.set(from, edges);
    for (const target of imports) {
      const to = folderOf(target);
      if (to === from) continue;
      edges.set(to, [...(edges.get(to) ?? []), `${file} -> ${target}`]);
    }
  }
  return folders;
}

/**
 * What breaks the layer rules in `folders`, one line each: a folder with no rank, an import from
 * a lower rank to a higher one, and any import between the two folders of a pair in `apart`
 * (whatever their ranks). Empty when the graph keeps the rules.
 *
 * @example
 * layerViolations(folders, ranks, [["client", "server"]]); // [] when the order holds
 */
export function layerViolations(folders: FolderGraph, ranks: LayerRanks, apart: readonly (readonly [string, string])[]): string[] {
  const out: string[] = [];
  const rankOf = (folder: string): number | undefined => ranks.get(folder);
  const named = new Set([...folders.keys(), ...[...folders.values()].flatMap((edges) => [...edges.keys()])]);
  for (const folder of [...named].sort()) {
    if (rankOf(folder) === undefined) out.push(`src/${folder}: expected a rank in docs/architecture.md's layer table, but it has no row`);
  }
  for (const [from, edges] of folders) {
    for (const [to, imports] of edges) {
      const low = rankOf(from);
      const high = rankOf(to);
      if (low !== undefined && high !== undefined && high > low) {
        out.push(`${imports[0]}: ${from} (rank ${low}) imports ${to} (rank ${high}); expected imports of the same or a lower rank, but this one points up`);
      }
      if (apart.some(([a, b]) => (a === from && b === to) || (a === to && b === from))) {
        out.push(`${imports[0]}: expected ${from} and ${to} never to import each other, but ${from} imports ${to}`);
      }
    }
  }
  return out;
}

/**
 * The cycles between folders (each its folders, sorted), with the cycle finder of the file graph.
 *
 * @example
 * folderCycles(folderGraph(graph)); // [["client", "server"]] while they import each other
 */
export function folderCycles(folders: FolderGraph): string[][] {
  return importCycles(new Map([...folders].map(([folder, edges]) => [folder, [...edges.keys()]])));
}
