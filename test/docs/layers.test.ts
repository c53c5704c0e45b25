/** The layer table of docs/architecture.md names every folder of src/, so a reader finds each one explained. */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(__dirname, "..", "..");

function layerTableFolders(): string[] {
  const text = readFileSync(join(ROOT, "docs", "architecture.md"), "utf8");
  const table = text.slice(text.indexOf("## Layers and where they live"), text.indexOf("## Public surface"));
  return [...table.matchAll(/^\| [^|]+ \| `src\/([a-z]+)\/` \|/gm)].map((m) => m[1]);
}

describe("docs/architecture.md's layer table", () => {
  test("lists every folder of src/, and no folder that is not there", () => {
    const folders = readdirSync(join(ROOT, "src"))
      .filter((name) => statSync(join(ROOT, "src", name)).isDirectory())
      .sort();
    expect([...layerTableFolders()].sort()).toEqual(folders);
  });
});
