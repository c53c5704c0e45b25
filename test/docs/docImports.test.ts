/**
 * Every name the README and docs/*.md import from the package exists in that entry: each
 * `import { … } from "agui-rx…"` (in any code block or line, `type` imports included) is read and
 * its names looked up in the entry's exports, as the TypeScript checker reads them from the
 * entries' sources. A doc that promises an import the entry does not have fails here, whether or
 * not its block is compiled elsewhere.
 */
import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { entryExports } from "../architecture/entryExports";
import { ENTRIES, ROOT } from "./snippets";

/** One imported name: where it is written, from which entry. */
interface DocImport {
  readonly at: string;
  readonly entry: string;
  readonly name: string;
}

/** The names each `import { … } from "agui-rx…"` of `markdown` takes, with `type` and `as alias` removed. */
function docImports(file: string, markdown: string): DocImport[] {
  const found: DocImport[] = [];
  for (const match of markdown.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s*from\s*["'](agui-rx(?:\/[\w-]+)?)["']/g)) {
    const line = markdown.slice(0, match.index).split("\n").length;
    for (const part of (match[1] ?? "").split(",")) {
      const name = part
        .replace(/\/\/.*$/gm, "")
        .trim()
        .replace(/^type\s+/, "")
        .replace(/\s+as\s+\w+$/, "");
      if (name !== "") found.push({ at: `${file}:${line}`, entry: match[2] ?? "", name });
    }
  }
  return found;
}

const files = [
  "README.md",
  ...readdirSync(path.join(ROOT, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
];
const imports = files.flatMap((file) => docImports(file, readFileSync(path.join(ROOT, file), "utf8")));
const exported = entryExports(ROOT, ENTRIES);
const names = new Map(Object.entries(exported).map(([entry, list]) => [entry, new Set(list.map((name) => name.replace(/^type /, "")))]));

test("the docs import from the package in many places (the reader is there)", () => {
  expect(imports.length).toBeGreaterThan(100);
  expect(new Set(imports.map((item) => item.entry)).size).toBeGreaterThanOrEqual(6);
});

test("every name imported in README.md and docs/*.md is exported by that entry", () => {
  const missing = imports.filter((item) => names.get(item.entry)?.has(item.name) !== true).map((item) => `${item.at}: ${item.name} from ${item.entry}`);
  expect(missing).toEqual([]);
});

test("the check is real: a name an entry does not export, or an entry that does not exist, is found", () => {
  const wrong = docImports(
    "x.md",
    'text\n```ts\nimport { clientTool, useRun as run, type RunSource } from "agui-rx/react";\nimport { x } from "agui-rx/nowhere";\n```',
  );
  expect(wrong).toEqual([
    { at: "x.md:3", entry: "agui-rx/react", name: "clientTool" },
    { at: "x.md:3", entry: "agui-rx/react", name: "useRun" },
    { at: "x.md:3", entry: "agui-rx/react", name: "RunSource" },
    { at: "x.md:4", entry: "agui-rx/nowhere", name: "x" },
  ]);
  expect(wrong.filter((item) => names.get(item.entry)?.has(item.name) !== true).map((item) => item.name)).toEqual(["clientTool", "RunSource", "x"]);
});
